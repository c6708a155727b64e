package refclient

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// everyNode is a program with every constructor of the protocol's trees: each statement, each
// arithmetic operator, each comparison, not/and/or, true/false, a negative and a big integer.
const everyNode = `x = -(y + 1) - 2 * z / 3 % -4 + 100000000000000000000;
if x < 0 and not (y >= 1) or true then fail else skip fi;
while x <= 10 and false do x = x + 1 od;
assume x == 1 or y != 2 or x > 3;
assert y == 0`

// everyNodeJSON is its encoding: the wire format of proofs/ref/README.md, byte for byte.
const everyNodeJSON = `{"k":"seq","p":{"k":"assign","x":"x","e":{"k":"add","l":{"k":"sub","l":{"k":"neg","e":{"k":"add","l":{"k":"var","x":"y"},"r":{"k":"num","n":1}}},"r":{"k":"mod","l":{"k":"div","l":{"k":"mul","l":{"k":"num","n":2},"r":{"k":"var","x":"z"}},"r":{"k":"num","n":3}},"r":{"k":"num","n":-4}}},"r":{"k":"num","n":100000000000000000000}}},` +
	`"q":{"k":"seq","p":{"k":"if","b":{"k":"or","l":{"k":"and","l":{"k":"lt","l":{"k":"var","x":"x"},"r":{"k":"num","n":0}},"r":{"k":"not","b":{"k":"ge","l":{"k":"var","x":"y"},"r":{"k":"num","n":1}}}},"r":{"k":"true"}},"p":{"k":"fail"},"q":{"k":"skip"}},` +
	`"q":{"k":"seq","p":{"k":"while","b":{"k":"and","l":{"k":"le","l":{"k":"var","x":"x"},"r":{"k":"num","n":10}},"r":{"k":"false"}},"p":{"k":"assign","x":"x","e":{"k":"add","l":{"k":"var","x":"x"},"r":{"k":"num","n":1}}}},` +
	`"q":{"k":"seq","p":{"k":"assume","b":{"k":"or","l":{"k":"or","l":{"k":"eq","l":{"k":"var","x":"x"},"r":{"k":"num","n":1}},"r":{"k":"ne","l":{"k":"var","x":"y"},"r":{"k":"num","n":2}}},"r":{"k":"gt","l":{"k":"var","x":"x"},"r":{"k":"num","n":3}}}},` +
	`"q":{"k":"if","b":{"k":"eq","l":{"k":"var","x":"y"},"r":{"k":"num","n":0}},"p":{"k":"skip"},"q":{"k":"fail"}}}}}}`

func parseProg(t *testing.T, src string) *syntax.Program {
	t.Helper()
	p, err := parser.Parse("test.imp", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTreeRoundTrip: every constructor encodes to the documented JSON and decodes back to the
// same tree (up to assert, which the protocol desugars), with the program's variable numbering.
func TestTreeRoundTrip(t *testing.T) {
	p := parseProg(t, everyNode)
	raw, err := EncodeStmt(p.Body)
	if err != nil {
		t.Fatal(err)
	}
	if string(raw) != everyNodeJSON {
		t.Fatalf("encoding differs from the wire format:\n got %s\nwant %s", raw, everyNodeJSON)
	}
	back, err := decodeProg(raw, newDecoder(p.Vars))
	if err != nil {
		t.Fatal(err)
	}
	if Canon(back) != Canon(p.Body) {
		t.Fatalf("round trip changed the program:\n got %s\nwant %s", Canon(back), Canon(p.Body))
	}
	if !reflect.DeepEqual(syntax.VarsOf(back), p.Vars) {
		t.Errorf("variables after the round trip %v, want %v", syntax.VarsOf(back), p.Vars)
	}
	// the decoded variables carry the program's numbering
	a := back.(*syntax.Seq).First.(*syntax.Assign)
	if a.X.Index != p.VarIndex("x") {
		t.Errorf("x decoded with index %d, want %d", a.X.Index, p.VarIndex("x"))
	}
	// expressions and conditions on their own
	as := p.Body.(*syntax.Seq).First.(*syntax.Assign)
	ra, err := EncodeA(as.A)
	if err != nil {
		t.Fatal(err)
	}
	var n *node
	if err := json.Unmarshal(ra, &n); err != nil {
		t.Fatal(err)
	}
	ga, err := newDecoder(p.Vars).a(n)
	if err != nil || syntax.PrintA(ga) != syntax.PrintA(as.A) {
		t.Errorf("arithmetic round trip: %v, %v", ga, err)
	}
	cond := p.Body.(*syntax.Seq).Second.(*syntax.Seq).First.(*syntax.If).Cond
	rb, err := EncodeB(cond)
	if err != nil {
		t.Fatal(err)
	}
	n = nil
	if err := json.Unmarshal(rb, &n); err != nil {
		t.Fatal(err)
	}
	gb, err := newDecoder(p.Vars).b(n)
	if err != nil || syntax.PrintB(gb) != syntax.PrintB(cond) {
		t.Errorf("condition round trip: %v, %v", gb, err)
	}
}

// TestCorpusTreesRoundTrip: every program of testdata/ survives encoding and decoding.
func TestCorpusTreesRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/*.imp")
	n := 0
	for _, f := range files {
		p, err := parser.ParseFile(f)
		if err != nil {
			continue
		}
		raw, err := EncodeStmt(p.Body)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		back, err := decodeProg(raw, newDecoder(p.Vars, p.Arrays...))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if Canon(back) != Canon(p.Body) {
			t.Errorf("%s: round trip changed the program", f)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no program of testdata/ parsed")
	}
}

// TestRequestsWireFormat: each request encodes to the documented line and decodes back to the
// same value.
func TestRequestsWireFormat(t *testing.T) {
	prog := json.RawMessage(`{"k":"skip"}`)
	x1 := json.RawMessage(`{"k":"add","l":{"k":"var","x":"x"},"r":{"k":"num","n":1}}`)
	cases := []struct {
		req  any
		want string
	}{
		{stepRequest{Op: "step", Store: concStore(ConcStore{"y": integer.Of(3), "x": integer.Of(-2), "gone": integer.Of(1)}, []string{"y", "x"}), Prog: prog},
			`{"op":"step","store":{"x":-2,"y":3},"prog":{"k":"skip"}}`},
		{stepRequest{Op: "step", Store: concStore(ConcStore{}, []string{"x"}), Prog: prog},
			`{"op":"step","store":{},"prog":{"k":"skip"}}`},
		{expandRequest{Op: "expand", PC: json.RawMessage(`{"k":"true"}`), Store: map[string]json.RawMessage{"x": x1}, Prog: prog},
			`{"op":"expand","pc":{"k":"true"},"store":{"x":{"k":"add","l":{"k":"var","x":"x"},"r":{"k":"num","n":1}}},"prog":{"k":"skip"}}`},
		{evalRequest{Op: "eval", Store: concStore(ConcStore{"x": integer.Of(-7)}, []string{"x"}), E: x1},
			`{"op":"eval","store":{"x":-7},"e":{"k":"add","l":{"k":"var","x":"x"},"r":{"k":"num","n":1}}}`},
		{runStart([]string{"x", "y"}, prog),
			`{"op":"run_start","vars":["x","y"],"prog":{"k":"skip"}}`},
		{runStart(nil, prog), // a program without variables: an empty array, which the reference requires
			`{"op":"run_start","vars":[],"prog":{"k":"skip"}}`},
		{runNextRequest{Op: "run_next", Count: 64, Limit: StreamSizeLimit},
			`{"op":"run_next","count":64,"limit":4000}`},
		// arrays: declarations, and a concrete array as the list of its elements
		{stepRequest{Op: "step", Arrays: decls([]*syntax.Array{{Name: "a", Lo: -1, Hi: 1}}),
			Store: concStoreA(ConcStore{"n": integer.Of(3)}, ConcArrays{"a": {integer.Of(5), integer.Of(0), integer.Of(-7)}}, []string{"n"}), Prog: prog},
			`{"op":"step","arrays":[{"x":"a","lo":-1,"hi":1}],"store":{"a":[5,0,-7],"n":3},"prog":{"k":"skip"}}`},
		{evalRequest{Op: "evalb", Store: concStore(ConcStore{}, nil), B: json.RawMessage(`{"k":"true"}`)},
			`{"op":"evalb","store":{},"b":{"k":"true"}}`},
	}
	for _, c := range cases {
		got, err := marshal(c.req)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != c.want {
			t.Errorf("%T:\n got %s\nwant %s", c.req, got, c.want)
		}
		back := reflect.New(reflect.TypeOf(c.req))
		if err := json.Unmarshal(got, back.Interface()); err != nil {
			t.Fatalf("%T: %v", c.req, err)
		}
		again, _ := marshal(back.Elem().Interface())
		if string(again) != c.want {
			t.Errorf("%T does not round-trip: %s", c.req, again)
		}
	}
}

// TestAnswers: each kind of answer, as certsym-ref prints it, decodes to the right value, and
// the answer types round-trip through encoding/json.
func TestAnswers(t *testing.T) {
	req := []byte(`{"op":"test"}`)
	vars := []string{"x", "y"}

	steps := map[string]string{
		"next":  `{"ok":true,"kind":"next","store":{"x":3,"y":-100000000000000000000},"prog":{"k":"skip"}}`,
		"final": `{"ok":true,"kind":"final"}`,
		"error": `{"ok":true,"kind":"error"}`,
		"stuck": `{"ok":true,"kind":"stuck"}`,
	}
	for kind, line := range steps {
		var ans stepAnswer
		if err := decodeAnswer(req, []byte(line), &ans); err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		res, err := ans.result()
		if err != nil || res.Kind != kind {
			t.Fatalf("%s: %+v, %v", kind, res, err)
		}
		if kind == "next" {
			big, _ := integer.Parse("-100000000000000000000")
			if !res.Store["x"].Equal(integer.Of(3)) || !res.Store["y"].Equal(big) || string(res.Prog) != `{"k":"skip"}` {
				t.Errorf("next: %+v", res)
			}
		}
		roundTripAnswer(t, line, &ans)
	}

	line := `{"ok":true,"succs":[{"pc":{"k":"and","l":{"k":"true"},"r":{"k":"lt","l":{"k":"var","x":"x"},"r":{"k":"num","n":0}}},"store":{"x":{"k":"neg","e":{"k":"var","x":"y"}}},"prog":{"k":"fail"}},{"pc":{"k":"false"},"store":{},"prog":{"k":"skip"}}]}`
	var ea expandAnswer
	if err := decodeAnswer(req, []byte(line), &ea); err != nil {
		t.Fatal(err)
	}
	succs, err := ea.succs(vars)
	if err != nil || len(succs) != 2 {
		t.Fatalf("expand: %v, %v", succs, err)
	}
	if got := syntax.PrintB(succs[0].PC); got != syntax.PrintB(&syntax.BinB{Op: syntax.And, L: &syntax.BoolLit{Val: true}, R: &syntax.Cmp{Op: syntax.Lt, L: &syntax.Var{Name: "x"}, R: &syntax.Num{Val: integer.Of(0)}}}) {
		t.Errorf("expand pc: %s", got)
	}
	if syntax.PrintA(succs[0].Store[0]) != "-y" || syntax.PrintA(succs[0].Store[1]) != "y" || succs[0].Store[1].(*syntax.Var).Index != 1 {
		t.Errorf("expand store: %s, %s", syntax.PrintA(succs[0].Store[0]), syntax.PrintA(succs[0].Store[1]))
	}
	if Canon(succs[0].Prog) != "fail" || string(succs[0].Raw) != `{"k":"fail"}` || Canon(succs[1].Prog) != "skip" {
		t.Errorf("expand programs: %s, %s", Canon(succs[0].Prog), Canon(succs[1].Prog))
	}
	roundTripAnswer(t, line, &ea)

	for line, want := range map[string]string{`{"ok":true,"value":-3}`: "-3", `{"ok":true,"value":123456789012345678901234567890}`: "123456789012345678901234567890", `{"ok":true,"value":null}`: "undefined"} {
		var va evalAnswer
		if err := decodeAnswer(req, []byte(line), &va); err != nil {
			t.Fatal(err)
		}
		v, ok, err := va.value()
		got := "undefined"
		if ok {
			got = v.String()
		}
		if err != nil || got != want {
			t.Errorf("%s: %s, %v; want %s", line, got, err, want)
		}
		roundTripAnswer(t, line, &va)
	}

	line = `{"ok":true,"states":[{"pc":{"k":"true"},"store":{"x":{"k":"var","x":"x"}},"prog":{"k":"assign","x":"y","e":{"k":"num","n":1}},"status":"pending"},{"pc":{"k":"true"},"store":{"y":{"k":"num","n":1}},"prog":{"k":"skip"},"status":"finished"}],"end":true,"too_big":false}`
	var ra runNextAnswer
	if err := decodeAnswer(req, []byte(line), &ra); err != nil {
		t.Fatal(err)
	}
	states, err := ra.states(vars)
	if err != nil || len(states) != 2 || !ra.End || ra.TooBig {
		t.Fatalf("run_next: %v, %v", states, err)
	}
	if states[0].Status != "pending" || states[1].Status != "finished" || Canon(states[0].Prog) != "y = 1" || syntax.PrintA(states[1].Store[1]) != "1" {
		t.Errorf("run_next states: %+v", states)
	}
	roundTripAnswer(t, line, &ra)

	var empty struct{}
	if err := decodeAnswer(req, []byte(`{"ok":true}`), &empty); err != nil {
		t.Errorf("run_start answer: %v", err)
	}
}

// roundTripAnswer checks that ans, decoded from line, encodes back to line (without "ok").
func roundTripAnswer(t *testing.T, line string, ans any) {
	t.Helper()
	got, err := marshal(ans)
	if err != nil {
		t.Fatal(err)
	}
	var a, b map[string]any
	if err := json.Unmarshal([]byte(line), &a); err != nil {
		t.Fatal(err)
	}
	delete(a, "ok")
	if err := json.Unmarshal(got, &b); err != nil {
		t.Fatal(err)
	}
	for k, v := range b { // fields the answer does not have encode as zero values
		if _, ok := a[k]; !ok && (v == nil || v == "" || reflect.DeepEqual(v, map[string]any{})) {
			delete(b, k)
		}
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("answer does not round-trip:\n got %s\nwant %s", got, line)
	}
}

// TestStringEscapes: names with quotes, backslashes, newlines, control and non-ASCII characters
// are JSON strings on the wire and decode to themselves. strconv.Quote, which the hand-written
// codec used, writes Go escapes that are not JSON for some of them (\a, \x7f, \U000e0001).
func TestStringEscapes(t *testing.T) {
	names := []string{`a"b`, `back\slash`, "new\nline", "tab\tcr\r", "é∀λ", "bell\a", "del\x7f", "tag\U000E0001", "line\u2028sep", "<&>"}
	notJSON := 0
	for _, x := range names {
		prog := &syntax.Assign{X: &syntax.Var{Name: x}, A: &syntax.BinA{Op: syntax.Add, L: &syntax.Var{Name: x}, R: &syntax.Num{Val: integer.Of(1)}}}
		raw, err := EncodeStmt(prog)
		if err != nil {
			t.Fatal(err)
		}
		if !json.Valid(raw) {
			t.Fatalf("%q: invalid JSON %s", x, raw)
		}
		back, err := decodeProg(raw, newDecoder([]string{x}))
		if err != nil {
			t.Fatalf("%q: %v", x, err)
		}
		if got := back.(*syntax.Assign).X.Name; got != x {
			t.Errorf("%q decoded as %q", x, got)
		}
		var s string
		if json.Unmarshal([]byte(strconv.Quote(x)), &s) != nil || s != x {
			notJSON++
		}
		if strings.ContainsAny(x, "é") && !strings.Contains(string(raw), x) {
			t.Errorf("non-ASCII letters are written as they are (as certsym-ref does): %s", raw)
		}
	}
	if notJSON < 3 {
		t.Errorf("strconv.Quote should fail as JSON on \\a, \\x7f and \\U000e0001 (%d failures)", notJSON)
	}
}

// TestStringEscapesReference: the same names through certsym-ref (yojson on its side).
func TestStringEscapesReference(t *testing.T) {
	needRef(t)
	ref, err := Start(DefaultPath())
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	for _, x := range []string{`a"b`, `back\slash`, "new\nline", "é∀λ", "bell\a", "del\x7f", "tag\U000E0001", "line\u2028sep"} {
		prog := &syntax.Assign{X: &syntax.Var{Name: x}, A: &syntax.BinA{Op: syntax.Add, L: &syntax.Var{Name: x}, R: &syntax.Num{Val: integer.Of(1)}}}
		raw, err := EncodeStmt(prog)
		if err != nil {
			t.Fatal(err)
		}
		res, err := ref.Step(ConcStore{x: integer.Of(41)}, []string{x}, raw)
		if err != nil {
			t.Fatalf("%q: %v", x, err)
		}
		if v, ok := res.Store[x]; res.Kind != "next" || !ok || !v.Equal(integer.Of(42)) || len(res.Store) != 1 {
			t.Errorf("%q: %+v", x, res)
		}
		succs, err := ref.Expand(json.RawMessage(`{"k":"true"}`), []json.RawMessage{json.RawMessage(`{"k":"num","n":5}`)}, []string{x}, raw)
		if err != nil {
			t.Fatalf("%q: %v", x, err)
		}
		if len(succs) != 1 || syntax.PrintA(succs[0].Store[0]) != "5 + 1" {
			t.Errorf("%q: expand %+v", x, succs)
		}
	}
}

// TestMalformedAnswers: an answer that is not what the protocol says gives an error naming what
// is wrong, never a panic.
func TestMalformedAnswers(t *testing.T) {
	req := []byte(`{"op":"test"}`)
	vars := []string{"x"}
	step := func(line string) error {
		var a stepAnswer
		if err := decodeAnswer(req, []byte(line), &a); err != nil {
			return err
		}
		_, err := a.result()
		return err
	}
	expand := func(line string) error {
		var a expandAnswer
		if err := decodeAnswer(req, []byte(line), &a); err != nil {
			return err
		}
		_, err := a.succs(vars)
		return err
	}
	eval := func(line string) error {
		var a evalAnswer
		if err := decodeAnswer(req, []byte(line), &a); err != nil {
			return err
		}
		_, _, err := a.value()
		return err
	}
	next := func(line string) error {
		var a runNextAnswer
		if err := decodeAnswer(req, []byte(line), &a); err != nil {
			return err
		}
		_, err := a.states(vars)
		return err
	}
	cases := []struct {
		decode func(string) error
		line   string
		want   string
	}{
		{step, `Fatal error: exception Stack_overflow`, "not a JSON object"},
		{step, `[1,2]`, "not a JSON object"},
		{step, `{"ok":true,"kind":"next"`, "not a JSON object"},
		{step, `null`, "neither"},
		{step, `{}`, "neither"},
		{step, `{"ok":false,"error":"unknown op \"x\""}`, `rejected the request {"op":"test"}: unknown op "x"`},
		{step, `{"ok":"yes"}`, "not a JSON object"},
		{step, `{"ok":true,"kind":"jump"}`, `unknown step kind "jump"`},
		{step, `{"ok":true,"kind":"next","store":{"x":1}}`, "without its program"},
		{step, `{"ok":true,"kind":"next","store":{"x":"one"},"prog":{"k":"skip"}}`, "bad integer"},
		{step, `{"ok":true,"kind":"next","store":{"x":1.5},"prog":{"k":"skip"}}`, "bad integer"},
		{step, `{"ok":true,"kind":"next","store":[1],"prog":{"k":"skip"}}`, "decoding certsym-ref answer"},
		{expand, `{"ok":true,"succs":5}`, "decoding certsym-ref answer"},
		{expand, `{"ok":true,"succs":[{"store":{},"prog":{"k":"skip"}}]}`, "successor 0: path condition: missing condition"},
		{expand, `{"ok":true,"succs":[{"pc":{"k":"maybe"},"store":{},"prog":{"k":"skip"}}]}`, `unknown condition node "maybe"`},
		{expand, `{"ok":true,"succs":[{"pc":{"k":"lt","l":{"k":"var","x":"x"}},"store":{},"prog":{"k":"skip"}}]}`, `"lt" node without its field "r"`},
		{expand, `{"ok":true,"succs":[{"pc":{"k":"true"},"store":{"q":{"k":"num","n":1}},"prog":{"k":"skip"}}]}`, `unknown variable "q"`},
		{expand, `{"ok":true,"succs":[{"pc":{"k":"true"},"store":{"x":{"k":"var","x":"q"}},"prog":{"k":"skip"}}]}`, `store x: unknown variable "q"`},
		{expand, `{"ok":true,"succs":[{"pc":{"k":"true"},"store":{"x":{"k":"num"}},"prog":{"k":"skip"}}]}`, `without its integer`},
		{expand, `{"ok":true,"succs":[{"pc":{"k":"true"},"store":{"x":{"k":"pow","l":{"k":"num","n":1},"r":{"k":"num","n":1}}},"prog":{"k":"skip"}}]}`, `unknown arithmetic node "pow"`},
		{expand, `{"ok":true,"succs":[{"pc":{"k":"true"},"store":{},"prog":null}]}`, "program: missing statement"},
		{expand, `{"ok":true,"succs":[{"pc":{"k":"true"},"store":{}}]}`, "program: missing program"},
		{expand, `{"ok":true,"succs":[{"pc":{"k":"true"},"store":{},"prog":{"k":"assign","e":{"k":"num","n":1}}}]}`, `"assign" node without its variable name`},
		{expand, `{"ok":true,"succs":[{"pc":{"k":"true"},"store":{},"prog":{"k":"seq","p":{"k":"skip"}}}]}`, `"seq" node without its field "q"`},
		{expand, `{"ok":true,"succs":[{"pc":{"k":"true"},"store":{},"prog":{"k":"goto"}}]}`, `unknown statement node "goto"`},
		{expand, `{"ok":true,"succs":[{"pc":{"k":"true"},"store":{},"prog":[]}]}`, "program: json: cannot unmarshal array"},
		{expand, `{"ok":true,"succs":[{"pc":"true","store":{},"prog":{"k":"skip"}}]}`, "decoding certsym-ref answer"},
		{eval, `{"ok":true,"value":true}`, "decoding certsym-ref answer"},
		{eval, `{"ok":true,"value":"12x"}`, "decoding certsym-ref answer"},
		{eval, `{"ok":true,"value":1e5}`, "bad integer"},
		{next, `{"ok":true,"states":[{"pc":{"k":"true"},"store":{},"prog":{"k":"while","p":{"k":"skip"}}}],"end":false}`, `state 0: program: "while" node without its field "b"`},
		{next, `{"ok":true,"states":{},"end":false}`, "decoding certsym-ref answer"},
	}
	for _, c := range cases {
		err := c.decode(c.line)
		if err == nil {
			t.Errorf("%s: no error", c.line)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n error %q\n does not say %q", c.line, err, c.want)
		}
	}
}

// TestMalformedProcess: a program that answers garbage, or dies, in place of certsym-ref gives
// an error from the Ref's calls.
func TestMalformedProcess(t *testing.T) {
	dir := t.TempDir()
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct{ path, want string }{
		{script("garbage", "while read l; do echo 'Fatal error: exception Not_found'; done\n"), "not a JSON object"},
		{script("wrong", "while read l; do echo '{\"ok\":true,\"value\":[]}'; done\n"), "decoding certsym-ref answer"},
		{script("dies", "read l; echo oops >&2; exit 3\n"), `stderr "oops"`},
	} {
		ref, err := Start(c.path)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = ref.Eval(ConcStore{"x": integer.Of(1)}, []string{"x"}, &syntax.Var{Name: "x"})
		ref.Close()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", filepath.Base(c.path), err, c.want)
		}
	}
}

// TestRunStreamReference: the run stream of programs with and without variables, through
// certsym-ref (a program without variables once sent "vars": null, which the reference refuses).
func TestRunStreamReference(t *testing.T) {
	needRef(t)
	ref, err := Start(DefaultPath())
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	for _, src := range []string{"skip", "x = 1; if x > 0 then fail fi"} {
		p := parseProg(t, src)
		if err := ref.RunStart(p.Body, p.Vars); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		states, ended, tooBig, err := ref.RunNext(10, p.Vars)
		if err != nil || !ended || tooBig || len(states) == 0 {
			t.Fatalf("%s: %d states, ended %v, too big %v, %v", src, len(states), ended, tooBig, err)
		}
		if Canon(states[0].Prog) != Canon(p.Body) {
			t.Errorf("%s: the stream starts at %s", src, Canon(states[0].Prog))
		}
	}
}

// needRef skips a test that talks to the real certsym-ref when it is not built (make ref builds
// it; make check-refinement, REFINEMENT_FULL=1 and CERTSYM_REQUIRE_REF=1 require it) and in short
// mode.
func needRef(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("short mode: the tests against certsym-ref run in make check")
	}
	if _, err := os.Stat(DefaultPath()); err != nil && os.Getenv("CERTSYM_REQUIRE_REF") == "1" {
		t.Fatalf("certsym-ref not built (%v), and CERTSYM_REQUIRE_REF=1 requires it; make ref builds it", err)
	} else if err != nil && os.Getenv("REFINEMENT_FULL") == "" {
		t.Skipf("certsym-ref not built (%v); make ref builds it (CERTSYM_REQUIRE_REF=1 makes this a failure)", err)
	}
}
