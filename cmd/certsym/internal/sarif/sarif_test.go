package sarif

import (
	"bytes"
	"certsym/engine"
	"certsym/internal/budget"
	"certsym/internal/testprog"
	"certsym/sym"
	"certsym/verify"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// sarifSchema compiles the SARIF 2.1.0 schema kept in testdata.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	const path = "testdata/sarif-2.1.0-rtm.5.json"
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("sarif-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("sarif-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// validSARIF validates a SARIF file against the schema and returns it decoded.
func validSARIF(t *testing.T, sch *jsonschema.Schema, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("%s is not valid SARIF 2.1.0: %v\n%s", path, err, b)
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	if errs := kindLevelErrors(m); len(errs) > 0 {
		t.Fatalf("%s breaks SARIF 2.1.0's rules beyond its schema:\n%s\n%s", path, strings.Join(errs, "\n"), b)
	}
	return m
}

// kindLevelErrors checks a log against the rule of SARIF 2.1.0 §3.27.10 that the schema does not
// state: a result whose kind is not fail has the level none (or none given).
func kindLevelErrors(log map[string]any) []string {
	var errs []string
	for _, run := range log["runs"].([]any) {
		for i, r := range run.(map[string]any)["results"].([]any) {
			r := r.(map[string]any)
			kind, _ := r["kind"].(string)
			if kind == "" {
				kind = "fail" // the default kind
			}
			if level, ok := r["level"].(string); ok && kind != "fail" && level != "none" {
				errs = append(errs, fmt.Sprintf("result %d: kind %s with level %s (SARIF 2.1.0 §3.27.10: the level of a result whose kind is not fail is none)", i, kind, level))
			}
		}
	}
	return errs
}

// sarifResults returns (ruleId, level, kind, line) of each result.
func sarifResults(log map[string]any) []string {
	var out []string
	run := log["runs"].([]any)[0].(map[string]any)
	for _, r := range run["results"].([]any) {
		r := r.(map[string]any)
		reg := r["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)["region"].(map[string]any)
		out = append(out, r["ruleId"].(string)+" "+r["level"].(string)+" "+r["kind"].(string)+" "+strconv.Itoa(int(reg["startLine"].(float64))))
	}
	return out
}

// writeRun runs the bug finder on src with opts and writes its SARIF log, as certsym run
// --sarif does, to a file in dir; it returns the file's path.
func writeRun(t *testing.T, dir, name, src string, opts engine.Options, exit int) string {
	t.Helper()
	prog := testprog.Parse(t, src)
	rep, err := engine.New(prog, opts).FindBugs(nil)
	if err != nil {
		t.Fatal(err)
	}
	return writeLog(t, dir, name, FromRun(prog.File, invoked(exit), rep, sym.SlotNames(prog)))
}

// invoked is the invocation of a command that exits with exit.
func invoked(exit int) Invocation {
	return Invocation{Version: "(test)", CommandLine: []string{"certsym", "run", "test.imp"}, ExitCode: exit, Successful: true}
}

// writeLog writes l to a file in dir and returns its path.
func writeLog(t *testing.T, dir, name string, l *Log) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := l.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSARIF validates the logs of run and verify against the SARIF 2.1.0 schema and checks their
// results: rule, level, kind and line of each, the properties of a bug, the notification of a
// run without a verdict, a log without results, the levels of verify's statuses.
func TestSARIF(t *testing.T) {
	sch := sarifSchema(t)
	// The schema is not vacuous: a log without its version is rejected.
	if err := sch.Validate(map[string]any{"runs": []any{}}); err == nil {
		t.Fatal("the schema accepts a log without version")
	}
	dir := t.TempDir()
	f := "assume x >= 0 and x <= 3;\nif x == 0 then\n  fail\nfi;\ny = 10 / (x - 1);\nassert x != 2\n"
	runSarif := writeRun(t, dir, "run.sarif", f, engine.Options{AllBugs: true}, 1)
	log := validSARIF(t, sch, runSarif)
	// Nor is it lax about levels: the same log with a level SARIF does not define is rejected.
	if b, _ := os.ReadFile(runSarif); true {
		inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader(bytes.Replace(b, []byte(`"level": "error"`), []byte(`"level": "fatal"`), 1)))
		if err := sch.Validate(inst); err == nil {
			t.Error("the schema accepts a result with level fatal")
		}
	}
	got := sarifResults(log)
	want := []string{"fail error fail 3", "division-by-zero error fail 5", "assert error fail 6"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("run results %v, want %v", got, want)
	}
	props := log["runs"].([]any)[0].(map[string]any)["results"].([]any)[2].(map[string]any)["properties"].(map[string]any)
	if props["pathCondition"] != "x == 2" || props["input"].(map[string]any)["x"] != 2.0 {
		t.Errorf("assert result properties %v", props)
	}
	// A run without a verdict: the invocation carries the reason, as a warning notification.
	loop := "while x > 0 do x = x - 1 od;\nassert x <= 0\n"
	loopSarif := writeRun(t, dir, "loop.sarif", loop, engine.Options{Limits: budget.Limits{MaxStates: 20}}, 3)
	inv := validSARIF(t, sch, loopSarif)["runs"].([]any)[0].(map[string]any)["invocations"].([]any)[0].(map[string]any)
	notes, _ := inv["toolExecutionNotifications"].([]any)
	if len(notes) != 1 || !strings.Contains(notes[0].(map[string]any)["message"].(map[string]any)["text"].(string), "state bound reached") ||
		inv["exitCode"] != 3.0 || inv["properties"].(map[string]any)["verdict"] != "unknown" {
		t.Errorf("invocation of a run without verdict: %v", inv)
	}
	// A safe run: a valid log with no result.
	safeSarif := writeRun(t, dir, "safe.sarif", "x = 1;\nassert x == 1\n", engine.Options{}, 0)
	if got := sarifResults(validSARIF(t, sch, safeSarif)); len(got) != 0 {
		t.Errorf("safe run results %v", got)
	}
	// verify: REFUTED and FAULTY are errors, an inconclusive status is left open (level none);
	// VERIFIED (line 1) is no result, the invocation counts it.
	v := testprog.Parse(t, "assert x >= x;\ny = 10 / x;\nassert x > 0;\nwhile z > 0 do z = z - 1 od;\nassert z <= 0\n")
	vrep := verify.Verify(v, verify.Options{LoopBound: 2})
	vSarif := writeLog(t, dir, "verify.sarif", FromVerify(v.File, invoked(1), vrep))
	vlog := validSARIF(t, sch, vSarif)
	got = sarifResults(vlog)
	want = []string{"claim-division error fail 2", "claim-assert error fail 3", "claim-assert none open 5"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("verify results %v, want %v", got, want)
	}
	vinv := vlog["runs"].([]any)[0].(map[string]any)["invocations"].([]any)[0].(map[string]any)
	if claims := fmt.Sprint(vinv["properties"].(map[string]any)["claims"]); claims != "map[REFUTED:2 VERIFIED:1 VERIFIED?:1]" {
		t.Errorf("the invocation counts the claims %s", claims)
	}
}

// TestSARIFKindLevelRule: the check of SARIF's kind and level rule rejects a result left open
// at a level other than none, so that validSARIF's use of it is no formality.
func TestSARIFKindLevelRule(t *testing.T) {
	log := map[string]any{"runs": []any{map[string]any{"results": []any{
		map[string]any{"kind": "open", "level": "note"}, map[string]any{"kind": "pass", "level": "none"},
		map[string]any{"level": "warning"}, map[string]any{"kind": "review", "level": "warning"}}}}}
	if errs := kindLevelErrors(log); len(errs) != 2 || !strings.HasPrefix(errs[0], "result 0:") || !strings.HasPrefix(errs[1], "result 3:") {
		t.Errorf("kindLevelErrors found %q, want results 0 and 3", errs)
	}
}

// TestSARIFQuestionableAndArrays: a counterexample that did not replay (REFUTED?) is a warning
// of kind fail, and the input of a result, of verify's and of run's, gives each array as the list
// of its elements, as every other output of certsym does.
func TestSARIFQuestionableAndArrays(t *testing.T) {
	sch := sarifSchema(t)
	src, err := os.ReadFile("../../../../testdata/verify/fig1b_dequeue_fixed.imp")
	if err != nil {
		t.Fatal(err)
	}
	v := testprog.Parse(t, string(src))
	vrep := verify.Verify(v, verify.Options{LoopBound: 4})
	log := validSARIF(t, sch, writeLog(t, t.TempDir(), "fig1b.sarif", FromVerify(v.File, invoked(3), vrep)))
	var refutedQ map[string]any
	for _, r := range log["runs"].([]any)[0].(map[string]any)["results"].([]any) {
		if r := r.(map[string]any); r["properties"].(map[string]any)["status"] == "REFUTED?" {
			refutedQ = r
		}
	}
	if refutedQ == nil || refutedQ["kind"] != "fail" || refutedQ["level"] != "warning" {
		t.Fatalf("the REFUTED? claim's result: %v", refutedQ)
	}
	in := refutedQ["properties"].(map[string]any)["input"].(map[string]any)
	for _, arr := range []string{"a", "a0"} {
		if l, ok := in[arr].([]any); !ok || len(l) != 5 {
			t.Errorf("input[%q] = %v, want the list of the array's 5 elements", arr, in[arr])
		}
	}
	for k := range in {
		if strings.Contains(k, "[") {
			t.Errorf("the input names the element %s: arrays are lists", k)
		}
	}
	runLog := validSARIF(t, sch, writeRun(t, t.TempDir(), "arr.sarif", "array a[0..2];\nassume i >= 3 and i <= 5;\na[i] = 1\n", engine.Options{}, 1))
	res := runLog["runs"].([]any)[0].(map[string]any)["results"].([]any)
	if got := fmt.Sprint(res[0].(map[string]any)["properties"].(map[string]any)["input"]); got != "map[a:[0 0 0] i:3]" {
		t.Errorf("run's result input %s, want map[a:[0 0 0] i:3]", got)
	}
}

// TestSARIFVerifyClaimKinds: each kind of claim verify makes has its own rule, and each result
// names the claim's line and column.
func TestSARIFVerifyClaimKinds(t *testing.T) {
	sch := sarifSchema(t)
	v := testprog.Parse(t, "array a[0..2];\nassume i >= 0 and i <= 3;\n  a[i] = 5;\n   y = 10 / x;\nassert a[0] > 0\n")
	vrep := verify.Verify(v, verify.Options{LoopBound: 2})
	kinds := map[verify.ClaimKind]bool{}
	for _, cl := range vrep.Claims {
		kinds[cl.Kind] = true
	}
	if len(kinds) != 3 {
		t.Fatalf("the program makes claims of %d kinds, want the 3 kinds verify has", len(kinds))
	}
	log := validSARIF(t, sch, writeLog(t, t.TempDir(), "kinds.sarif", FromVerify(v.File, invoked(1), vrep)))
	run := log["runs"].([]any)[0].(map[string]any)
	rules := run["tool"].(map[string]any)["driver"].(map[string]any)["rules"].([]any)
	var got []string
	for _, r := range run["results"].([]any) {
		r := r.(map[string]any)
		reg := r["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)["region"].(map[string]any)
		col, _ := reg["startColumn"].(float64)
		id := r["ruleId"].(string)
		if ri := int(r["ruleIndex"].(float64)); rules[ri].(map[string]any)["id"] != id {
			t.Errorf("result of rule %s has the rule index %d of rule %v", id, ri, rules[ri].(map[string]any)["id"])
		}
		got = append(got, fmt.Sprintf("%s %v:%v", id, reg["startLine"], col))
	}
	want := []string{"claim-index 3:3", "claim-division 4:4", "claim-assert 5:1"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("verify results %v, want %v", got, want)
	}
}
