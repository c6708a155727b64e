package main

import (
	"encoding/json"
	"strconv"
	"testing"

	"certsym/cmd/certsym/internal/pathout"
	"certsym/cmd/certsym/internal/report"
	"certsym/spec"
	"certsym/spec/syntax"
)

// concreteSeeds adds the seed programs (every testdata program when fuzzing, a sample in a plain go test: seedEvery)
// with input values, and programs at the bounds: a squaring that never ends, a loop over a
// 65536-element array (at constant indices), a quantifier over a huge range, a countdown from a
// negative input.
func concreteSeeds(f *testing.F) {
	for i, src := range seedSources(f) {
		if seedEvery(i) {
			f.Add(src, int64(i%7-3), int64(5), uint8(i))
		}
	}
	f.Add([]byte("x = 3;\nwhile true do x = x * x od"), int64(2), int64(0), uint8(0))
	f.Add([]byte("array a[0..65535];\ni = 0;\nwhile i < 100000 do a[i] = a[i] + i; i = i + 1 od;\nassert a[0] >= 0"), int64(0), int64(0), uint8(0))
	f.Add([]byte("assert forall k in 0..1000000000000: k * k >= 0"), int64(0), int64(0), uint8(0))
	f.Add([]byte("while x != 0 do x = x - 1 od;\nassert y / x > 0"), int64(-1), int64(9), uint8(70))
	f.Add([]byte("array a[-2..1];\nif x > 3 then a[x] = y else assume y == 2 fi;\nassert exists k in -2..1: a[k] == y"), int64(4), int64(2), uint8(3))
}

// FuzzExec feeds arbitrary text and input values to certsym exec: the program on standard input,
// an input for every variable and small array drawn from the fuzzer's integers (inputValues,
// fuzzInput: small, negative, past 64 bits), 2000 steps, 1 s, 512 MiB. A program that does not
// parse gets exit 2 and one positioned syntax error. Otherwise exec --json prints one JSON object
// and exits with its outcome's status (0 normal or infeasible, 1 bug, 3 step bound or stopped),
// the text report with the same status; the input it echoes is the one given; and a run that
// ended by itself (normal, bug, infeasible) is the one of the small-step semantics (spec.Run, not
// the fast run exec uses): the same outcome, steps, final store, error kind and position.
//
// go test -run '^$' -fuzz '^FuzzExec$' -parallel 1 ./cmd/certsym explores further (make fuzz).
func FuzzExec(f *testing.F) {
	concreteSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte, v0, v1 int64, shift uint8) {
		prog := parseSrc(src)
		if prog == nil {
			code, out, errs := cliWithin(t, []string{"exec", "-", "--json"}, src)
			checkSyntaxError(t, "exec", code, out, errs)
			return
		}
		text, store := fuzzInput(prog, inputValues(v0, v1, shift))
		args := append([]string{"exec", "-", "--input", text, "--max-steps", strconv.Itoa(fuzzSteps)}, concreteBudget...)
		code, out, errs := cliWithin(t, append(args, "--json"), src)
		noInternalError(t, "exec", code, errs)
		var r execReport
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("exec --input %s: exit %d, stdout is not one JSON object (%v): %q\nstderr: %s", text, code, err, out, errs)
		}
		if want, ok := execExit[r.Outcome]; !ok || code != want {
			t.Fatalf("exec --input %s: exit %d with outcome %q (%s)", text, code, r.Outcome, errs)
		}
		echo, _ := json.Marshal(report.ProgInput(prog, store))
		if !sameJSON(r.Input, echo) {
			t.Fatalf("exec --input %s: input read as %s, want %s", text, r.Input, echo)
		}
		if r.Outcome == "stopped" { // the time or memory bound or the integer bound: nothing to compare
			return
		}
		if tcode, tout, terrs := cliWithin(t, args, src); tcode != code {
			t.Fatalf("exec --input %s: exit %d with --json (%s), %d without: %s%s", text, code, r.Outcome, tcode, tout, terrs)
		}
		if r.Outcome == "step-bound" {
			// The step bound, or as many quantifier instances as steps before it.
			if r.Steps != fuzzSteps && !hasQuantifier(prog) {
				t.Fatalf("exec --input %s: step bound %d reached after %d steps, in a program without quantifiers", text, fuzzSteps, r.Steps)
			}
			return
		}
		ref := spec.Run(prog, store, fuzzSteps)
		want := map[spec.Outcome]string{spec.Final: "normal", spec.Failed: "bug", spec.Blocked: "infeasible", spec.Stepped: "step-bound"}[ref.Outcome]
		final, _ := json.Marshal(report.ProgInput(prog, ref.Final.Store))
		switch {
		case r.Outcome != want || r.Steps != ref.Steps:
			t.Fatalf("exec --input %s: %s after %d steps; the small-step semantics: %s after %d", text, r.Outcome, r.Steps, want, ref.Steps)
		case !sameJSON(r.Store, final):
			t.Fatalf("exec --input %s: final store %s; the small-step semantics: %s", text, r.Store, final)
		case ref.Outcome == spec.Failed:
			p := ref.Fail.Pos()
			if r.Kind != ref.Fail.Kind.String() || r.Line != p.Line || r.Col != p.Col {
				t.Fatalf("exec --input %s: %s at %d:%d; the small-step semantics: %s at %d:%d", text, r.Kind, r.Line, r.Col, ref.Fail.Kind, p.Line, p.Col)
			}
		case ref.Outcome == spec.Blocked:
			p := spec.Head(ref.Final.Prog).Pos()
			if r.Line != p.Line || r.Col != p.Col {
				t.Fatalf("exec --input %s: blocked at %d:%d; the small-step semantics: at %d:%d", text, r.Line, r.Col, p.Line, p.Col)
			}
		}
	})
}

// hasQuantifier says whether prog has a forall or an exists.
func hasQuantifier(prog *syntax.Program) bool {
	found := false
	syntax.Inspect(prog.Body, func(n syntax.Node) bool {
		if _, ok := n.(*syntax.Quant); ok {
			found = true
		}
		return !found
	})
	return found
}

// concolicOutcome is exec's outcome for each of concolic's (pathout.JSON).
var concolicOutcome = map[string]string{"finished": "normal", "error": "bug", "blocked": "infeasible", "step-bound": "step-bound", "stopped": "stopped"}

// concolicRun runs certsym concolic --json on src (standard input) with the input text and the
// fuzz bounds, checks its exit status against its report (exec's status for the outcome; 3 for
// a report cut short unless the run reached an error), and returns the report.
func concolicRun(t *testing.T, src []byte, text string) pathout.JSON {
	t.Helper()
	args := append([]string{"concolic", "-", "--input", text, "--json", "--max-steps", strconv.Itoa(fuzzSteps),
		"--query-timeout", "100ms", "--rlimit", "2000000"}, concreteBudget...)
	code, out, errs := cliWithin(t, args, src)
	noInternalError(t, "concolic --input "+text, code, errs)
	var p pathout.JSON
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("concolic --input %s: exit %d, stdout is not one JSON object (%v): %q\nstderr: %s", text, code, err, out, errs)
	}
	e, ok := concolicOutcome[p.Outcome]
	if !ok {
		t.Fatalf("concolic --input %s: outcome %q", text, p.Outcome)
	}
	want := execExit[e]
	if len(p.Cut) > 0 && want != exitBug {
		want = exitUnknown
	}
	if code != want {
		t.Fatalf("concolic --input %s: exit %d, outcome %s, cut %q", text, code, p.Outcome, p.Cut)
	}
	return p
}

// FuzzConcolic feeds arbitrary text and input values (as FuzzExec) to certsym concolic, with 2000
// steps (and as many quantifier instances, as exec), 100 ms per query, 1 s, 512 MiB. Its report
// is one JSON object and its exit status the one of its outcome; its run is exec's on the same
// input (the same outcome, steps and final store, error kind and position) unless a bound stopped
// one of them; every flip the solver answered is confirmed unless the report was cut short or the
// flip's run reached its bound on quantifier instances first (its reason says so); and one of
// those flips, drawn by the
// fuzzer, run through the command line (its input printed as JSON, read back as --input), takes
// the same sides as the path at the branch points before its own, at the same steps, and the
// flipped side at its own.
//
// go test -run '^$' -fuzz '^FuzzConcolic$' -parallel 1 ./cmd/certsym explores further (make fuzz).
func FuzzConcolic(f *testing.F) {
	concreteSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte, v0, v1 int64, shift uint8) {
		prog := parseSrc(src)
		if prog == nil {
			return // FuzzExec and FuzzPipeline check the syntax errors
		}
		text, _ := fuzzInput(prog, inputValues(v0, v1, shift))
		code, out, errs := cliWithin(t, append([]string{"exec", "-", "--input", text, "--json", "--max-steps", strconv.Itoa(fuzzSteps)}, concreteBudget...), src)
		var e execReport
		if err := json.Unmarshal([]byte(out), &e); err != nil {
			t.Fatalf("exec --input %s: exit %d, stdout is not one JSON object (%v): %q\nstderr: %s", text, code, err, out, errs)
		}
		p := concolicRun(t, src, text)
		if e.Outcome != "stopped" && p.Outcome != "stopped" {
			var store map[string]json.RawMessage
			if err := json.Unmarshal(e.Store, &store); err != nil {
				t.Fatal(err)
			}
			switch {
			case concolicOutcome[p.Outcome] != e.Outcome || p.Steps != e.Steps:
				t.Fatalf("--input %s: concolic %s after %d steps, exec %s after %d", text, p.Outcome, p.Steps, e.Outcome, e.Steps)
			case !sameStore(p.Store, store):
				t.Fatalf("--input %s: concolic's final store %v, exec's %s", text, p.Store, e.Store)
			case p.Outcome == "error" && (p.Kind != e.Kind || p.Line != e.Line || p.Column != e.Col):
				t.Fatalf("--input %s: concolic %s at %d:%d, exec %s at %d:%d", text, p.Kind, p.Line, p.Column, e.Kind, e.Line, e.Col)
			}
		}
		type flip struct{ branch, side int }
		var sat []flip
		for j, b := range p.Branches {
			for k, fl := range b.Flips {
				if fl.Status != "sat" {
					continue
				}
				if !fl.Confirmed && len(p.Cut) == 0 && fl.Reason == "" {
					t.Fatalf("--input %s: the flip to %s at %d:%d is not confirmed, and the report is whole", text, fl.Side, b.Line, b.Column)
				}
				sat = append(sat, flip{j, k})
			}
		}
		if len(sat) == 0 {
			return
		}
		pick := sat[int(uint64(v1)%uint64(len(sat)))]
		j, fl := pick.branch, p.Branches[pick.branch].Flips[pick.side]
		flipped := inputText(fl.Input)
		q := concolicRun(t, src, flipped)
		if len(q.Branches) <= j {
			if q.Outcome == "stopped" {
				return // a time bound stopped the run before the branch point
			}
			t.Fatalf("--input %s flips branch point %d (%s at %d:%d) to %s, but its run has %d branch points (%s)",
				flipped, j+1, p.Branches[j].Kind, p.Branches[j].Line, p.Branches[j].Column, fl.Side, len(q.Branches), q.Outcome)
		}
		for i := 0; i <= j; i++ {
			a, b := p.Branches[i], q.Branches[i]
			want := a.Taken
			if i == j {
				want = fl.Side
			}
			if a.Line != b.Line || a.Column != b.Column || a.Step != b.Step || b.Taken != want {
				t.Fatalf("--input %s (from --input %s) should take %s at branch point %d (%d:%d, step %d); it takes %s at %d:%d, step %d",
					flipped, text, want, i+1, a.Line, a.Column, a.Step, b.Taken, b.Line, b.Column, b.Step)
			}
		}
	})
}
