package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// The helpers of the command fuzz targets (fuzz_concrete_test.go, fuzz_symbolic_test.go): the
// in-process command line, the seeds, the inputs drawn from the fuzzer's integers, and the
// decoding of the reports.

// symBudget bounds each symbolic command of a fuzz execution (run, verify, concolic's flips):
// 60 states, 100 ms and a small resource limit per query, 1 s in all, 512 MiB.
var symBudget = []string{"--max-states", "60", "--query-timeout", "100ms", "--rlimit", "2000000", "--timeout", "1s", "--max-memory", "512"}

// concreteBudget bounds each concrete run of a fuzz execution (exec, replay): 1 s, 512 MiB.
// Each target also passes a small --max-steps.
var concreteBudget = []string{"--timeout", "1s", "--max-memory", "512"}

// fuzzSteps is the step bound of the fuzz targets' concrete runs: a loop that does not end, or
// squares an integer at each iteration, stops there (the integer bound stops the squaring
// after about twenty iterations anyway).
const fuzzSteps = 2000

// cli runs the command line args in-process, with src on standard input, and returns its exit
// status and outputs.
func cli(args []string, src []byte) (code int, stdout, stderr string) {
	stdin = bytes.NewReader(src)
	defer func() { stdin = os.Stdin }()
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

// hangLimit is how long a command of a fuzz execution may take before the target reports it as
// hung: its time bound (1 s), the grace after which the real command exits without a report
// (2 s, watch.Signals), and a margin for a loaded machine. In-process the grace's exit is off
// (main_test.go), so a run that polls nothing would otherwise hang the fuzzer.
const hangLimit = 10 * time.Second

// cliWithin is cli, failing t when the command has not ended within hangLimit (the command is
// then left running: the fuzzer stops at the failure).
func cliWithin(t *testing.T, args []string, src []byte) (code int, stdout, stderr string) {
	t.Helper()
	type result struct {
		code     int
		out, err string
	}
	done := make(chan result, 1)
	go func() {
		c, o, e := cli(args, src)
		done <- result{c, o, e}
	}()
	select {
	case r := <-done:
		return r.code, r.out, r.err
	case <-time.After(hangLimit):
		t.Fatalf("certsym %s did not end within %v (its time bound 1 s, then the 2 s grace of the real command)", strings.Join(args, " "), hangLimit)
	}
	return 0, "", ""
}

// seedSources are the fuzz targets' seed programs: every program of testdata/ and
// engine/testdata/, as FuzzPipeline's.
func seedSources(f *testing.F) [][]byte {
	var files []string
	for _, pat := range []string{"../../testdata/*.imp", "../../testdata/verify/*.imp", "../../engine/testdata/*.imp"} {
		fs, _ := filepath.Glob(pat)
		files = append(files, fs...)
	}
	if len(files) < 50 {
		f.Fatalf("found %d seed programs, want the testdata corpus", len(files))
	}
	var out [][]byte
	for _, s := range files {
		src, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, src)
	}
	return out
}

// seedEvery says whether the targets get the i-th seed program. Fuzzing (go test -fuzz) starts
// from all of them; a plain go test runs the targets on one in seedStride (the programs are
// FuzzPipeline's seeds too), one in shortStride under -short (make test).
func seedEvery(i int) bool {
	if f := flag.Lookup("test.fuzz"); f != nil && f.Value.String() != "" {
		return true
	}
	if testing.Short() {
		return i%shortStride == 0
	}
	return i%seedStride == 0
}

const (
	seedStride  = 3
	shortStride = 6
)

// inputValues are the values the fuzzer's integers give the program's inputs: v0, v1, v0
// shifted left by shift mod 130 bits (beyond 64 bits), and -v1.
func inputValues(v0, v1 int64, shift uint8) []integer.Int {
	wide := new(big.Int).Lsh(big.NewInt(v0), uint(shift%130))
	return []integer.Int{integer.Of(v0), integer.Of(v1), integer.FromBig(wide), integer.FromBig(new(big.Int).Neg(big.NewInt(v1)))}
}

// largeArray is the size past which an array keeps its zeros in a fuzz input (the text of an
// input with every element of a 65536-element array would dwarf the program).
const largeArray = 64

// fuzzInput gives prog's variable i the value vals[i mod len(vals)] and each element j of an array
// of at most largeArray elements vals[(i+j) mod len(vals)], the others 0. It returns the input as
// certsym's --input text and as the store the concrete semantics starts from.
func fuzzInput(prog *syntax.Program, vals []integer.Int) (string, spec.Store) {
	store := make(spec.Store, prog.Slots())
	for i := range store {
		store[i] = integer.Of(0)
	}
	var kv []string
	for i, name := range prog.Vars {
		v := vals[i%len(vals)]
		store[i] = v
		kv = append(kv, name+"="+v.String())
	}
	for i, a := range prog.Arrays {
		if a.Size() > largeArray {
			continue
		}
		elems := make([]string, a.Size())
		for j := range elems {
			v := vals[(i+j)%len(vals)]
			store[a.Offset+j] = v
			elems[j] = v.String()
		}
		kv = append(kv, a.Name+"=["+strings.Join(elems, ",")+"]")
	}
	return strings.Join(kv, ","), store
}

// inputText is a JSON input of certsym's reports (each variable a number, each array a list) as
// --input text.
func inputText(in map[string]json.RawMessage) string {
	var kv []string
	for k, v := range in {
		var c bytes.Buffer
		if err := json.Compact(&c, v); err != nil {
			panic(fmt.Sprintf("input %s: %v", k, err))
		}
		kv = append(kv, k+"="+c.String())
	}
	return strings.Join(kv, ",")
}

// sameJSON says whether two JSON values are the same once compacted (the reports are indented).
func sameJSON(a, b []byte) bool {
	var ca, cb bytes.Buffer
	return json.Compact(&ca, a) == nil && json.Compact(&cb, b) == nil && bytes.Equal(ca.Bytes(), cb.Bytes())
}

// sameStore says whether two stores printed as JSON objects (keys in any order) are equal.
func sameStore(a, b map[string]json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || !sameJSON(v, w) {
			return false
		}
	}
	return true
}

// shellWords splits a command line printed by certsym (report.ShellQuote: words separated by
// spaces, a word with other characters than [A-Za-z0-9-_./=,+:@%] in single quotes, a quote
// inside closing the quotes, escaped with a backslash, and opening them again) into its words.
func shellWords(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quoted && c == '\'':
			quoted = false
		case quoted:
			w.WriteByte(c)
		case c == '\'':
			quoted, inWord = true, true
		case c == '\\' && i+1 < len(s):
			i++
			w.WriteByte(s[i])
			inWord = true
		case c == ' ':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if quoted {
		return nil, fmt.Errorf("unterminated quote in %q", s)
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

// execReport is what the fuzz targets read of exec --json.
type execReport struct {
	Outcome string          `json:"outcome"`
	Reason  string          `json:"reason"`
	Kind    string          `json:"kind"`
	Line    int             `json:"line"`
	Col     int             `json:"col"`
	Steps   int             `json:"steps"`
	Input   json.RawMessage `json:"input"`
	Store   json.RawMessage `json:"store"`
}

// execExit is exec's documented exit status for each outcome of exec --json.
var execExit = map[string]int{"normal": exitSafe, "infeasible": exitSafe, "bug": exitBug, "step-bound": exitUnknown, "stopped": exitUnknown}

// reproduce runs the certsym exec command line cmd of a report (a bug's or a claim's reproduce
// line) in-process with --json and returns exec's report. The program is read from the file the
// line names, or from src when it names standard input (-).
func reproduce(t *testing.T, cmd string, src []byte, extra ...string) execReport {
	t.Helper()
	words, err := shellWords(cmd)
	if err != nil || len(words) < 3 || words[0] != "certsym" || words[1] != "exec" {
		t.Fatalf("reproduce line %q is not a certsym exec command (%v)", cmd, err)
	}
	args := append(append(words[1:], "--json"), extra...)
	code, out, errs := cliWithin(t, args, src)
	var r execReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%s: exit %d, stdout is not exec's JSON object (%v): %q\nstderr: %s", cmd, code, err, out, errs)
	}
	if want, ok := execExit[r.Outcome]; !ok || want != code {
		t.Fatalf("%s: exit %d with outcome %q", cmd, code, r.Outcome)
	}
	return r
}

// parseSrc parses a fuzz input as the command does for standard input: nil after a syntax
// error.
func parseSrc(src []byte) *syntax.Program {
	prog, err := parser.Parse("<stdin>", src)
	if err != nil {
		return nil
	}
	return prog
}

// checkSyntaxError checks the answer of a command to a program that does not parse: exit 2, one
// positioned syntax error on stderr and, with --json, its JSON object on stdout.
func checkSyntaxError(t *testing.T, what string, code int, stdout, stderr string) {
	t.Helper()
	var je map[string]any
	if code != exitUsage || !stdinSyntaxError.MatchString(stderr) || json.Unmarshal([]byte(stdout), &je) != nil || je["error"] != "syntax" {
		t.Fatalf("%s: a program that does not parse: exit %d, stderr %q, stdout %q; want exit 2, one positioned syntax error and its JSON object", what, code, stderr, stdout)
	}
}

// noInternalError fails on certsym's own defects: exit 4 or an internal error on stderr.
func noInternalError(t *testing.T, what string, code int, stderr string) {
	t.Helper()
	if code == exitInternal || strings.Contains(stderr, "internal error") {
		t.Fatalf("%s: exit %d: %s", what, code, stderr)
	}
}
