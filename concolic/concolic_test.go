package concolic

import (
	"fmt"
	"strings"
	"testing"

	"certsym/engine"
	"certsym/internal/budget"
	"certsym/pathcond"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

func parse(t *testing.T, src string) *syntax.Program {
	t.Helper()
	p, err := parser.Parse("p.imp", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func parseFile(t *testing.T, name string) *syntax.Program {
	t.Helper()
	p, err := parser.ParseFile("../testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func store(p *syntax.Program, kv map[string]int64) spec.Store {
	s := make(spec.Store, len(p.Vars))
	for k, v := range kv {
		s[p.VarIndex(k)] = integer.Of(v)
	}
	return s
}

// sides renders the sides a path takes, as kind@line:side.
func sides(p *Path) string {
	var parts []string
	for _, b := range p.Branches {
		parts = append(parts, fmt.Sprintf("%s@%d:%s", b.Kind, b.Pos.Line, b.SideName(b.Taken)))
	}
	return strings.Join(parts, " ")
}

// TestTraceFlipsReallyFlip: every input Trace gives for a side takes that side when traced
// again (Trace confirms it itself; this checks it independently with a second Trace), and the
// path condition of the run holds on its input.
func TestTraceFlipsReallyFlip(t *testing.T) {
	prog := parse(t, "if x > 3 then\n  y = 10 / (x - 5)\nelse\n  assume y >= 0;\n  while y > 0 do y = y - 1 od\nfi;\nassert x + y != 7")
	for _, in := range []map[string]int64{{"x": 0, "y": 2}, {"x": 4}, {"x": 5}, {"x": 7, "y": 0}} {
		p, err := Trace(prog, store(prog, in), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !p.PC.Formula().Eval(p.Input) {
			t.Errorf("%v: the path condition %s does not hold on the input", in, p.PC.String(prog.Vars))
		}
		flips := 0
		for j, b := range p.Branches {
			for _, f := range b.Flips {
				if f.Status != pathcond.Sat {
					continue
				}
				flips++
				if !f.Confirmed {
					t.Errorf("%v: branch %d side %s not confirmed", in, j, f.Side)
				}
				q, err := Trace(prog, f.Input, Options{NoFlip: true})
				if err != nil {
					t.Fatal(err)
				}
				if len(q.Branches) <= j || q.Branches[j].Stmt != b.Stmt || q.Branches[j].Taken != f.Side {
					t.Errorf("%v: the flip input %s of branch %d (%s) takes %s", in, spec.InputString(f.Input, prog.Vars), j, f.Side, sides(q))
				}
				for i := 0; i < j && i < len(q.Branches); i++ {
					if q.Branches[i].Taken != p.Branches[i].Taken {
						t.Errorf("%v: the flip input of branch %d leaves the prefix at %d", in, j, i)
					}
				}
			}
		}
		if flips == 0 {
			t.Errorf("%v: no flip found: %s", in, sides(p))
		}
	}
}

// TestTraceOutcomes: each outcome kind, with its place, steps equal to the concrete run's.
func TestTraceOutcomes(t *testing.T) {
	cases := []struct {
		src     string
		in      map[string]int64
		outcome Outcome
		want    string // the sides taken
	}{
		{"if x > 0 then y = 1 else y = 2 fi", map[string]int64{"x": 1}, Finished, "if@1:then"},
		{"assert x != 3", map[string]int64{"x": 3}, Error, "assert@1:violated"},
		{"assume x > 0;\nfail", map[string]int64{"x": 0}, Blocked, "assume@1:blocked"},
		{"while x >= 0 do skip od", nil, StepBound, ""},
		{"y = 10 / x", nil, Error, "assign@1:division-by-zero"},
		{"if 10 % x == 1 then skip fi", map[string]int64{"x": 0}, Error, "if@1:division-by-zero"},
		// the clause at every arrival at the head, before the test: violated at the third
		{"i = 0;\nwhile i < 5\ninvariant i <= 1\ndo i = i + 1 od", nil, Error,
			"invariant@3:holds while@2:enter invariant@3:holds while@2:enter invariant@3:violated"},
		{"i = 0;\nwhile i < 1\ninvariant 10 / x > 0\ndo i = i + 1 od", map[string]int64{"x": 0}, Error, "invariant@3:division-by-zero"},
	}
	for _, c := range cases {
		prog := parse(t, c.src)
		in := store(prog, c.in)
		p, err := Trace(prog, in, Options{MaxSteps: 50})
		if err != nil {
			t.Fatal(err)
		}
		if p.Outcome != c.outcome {
			t.Errorf("%q: outcome %s, want %s", c.src, p.Outcome, c.outcome)
		}
		if c.want != "" && sides(p) != c.want {
			t.Errorf("%q: sides %q, want %q", c.src, sides(p), c.want)
		}
		r := spec.Run(prog, in, 50)
		if r.Steps != p.Steps {
			t.Errorf("%q: %d steps, the concrete run %d", c.src, p.Steps, r.Steps)
		}
		if c.outcome == Error && r.Fail != p.Fail {
			t.Errorf("%q: error %v, the concrete run %v", c.src, p.Fail, r.Fail)
		}
	}
}

// TestTraceQuantifierPastEvalBudget: a quantifier over more instances than a formula's evaluation
// evaluates (sym.EvalInstances) whose body does not use its variable is one evaluation for the
// concrete run; the side it takes is not taken for one the input does not satisfy (an internal
// error), and its other side is asked as any other.
func TestTraceQuantifierPastEvalBudget(t *testing.T) {
	prog := parse(t, "assert forall c in 0..1000000000000: k * k >= 0")
	p, err := Trace(prog, store(prog, map[string]int64{"k": -55}), Options{MaxSteps: 50})
	if err != nil {
		t.Fatal(err)
	}
	if p.Outcome != Finished || sides(p) != "assert@1:holds" {
		t.Fatalf("outcome %s, sides %q", p.Outcome, sides(p))
	}
	if f := p.Branches[0].Flips; len(f) != 1 || f[0].Status != pathcond.Unsat {
		t.Errorf("flips %+v, want the violated side unsat", f)
	}
}

// TestTraceDivisionErrorIsABranch: a dividing assignment is a branch point whose division-by-zero
// side the solver reaches, and an infeasible side is unsat.
func TestTraceDivisionErrorIsABranch(t *testing.T) {
	prog := parse(t, "assume x >= 1;\ny = 7 % x;\nz = 5 / (x + 1 - x)")
	p, err := Trace(prog, store(prog, map[string]int64{"x": 2}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := sides(p); got != "assume@1:passes assign@2:defined assign@3:defined" {
		t.Fatalf("sides %q", got)
	}
	for _, b := range p.Branches[1:] { // x >= 1; x + 1 - x folds to 1
		if len(b.Flips) != 1 || b.Flips[0].Side != DivZero || b.Flips[0].Status != pathcond.Unsat {
			t.Errorf("flips of the assignment at line %d under x >= 1: %+v, want division-by-zero unsat", b.Pos.Line, b.Flips)
		}
	}
	q, err := Trace(prog, store(prog, map[string]int64{"x": 0}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if q.Outcome != Blocked || len(q.Branches[0].Flips) != 1 || q.Branches[0].Flips[0].Status != pathcond.Sat {
		t.Errorf("blocked run: %s %s, flips %+v", q.Outcome, sides(q), q.Branches[0].Flips)
	}
	prog = parse(t, "y = 7 % x")
	q, err = Trace(prog, store(prog, map[string]int64{"x": 3}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := q.Branches[0].Flips
	if len(f) != 1 || f[0].Status != pathcond.Sat || !f[0].Input[prog.VarIndex("x")].IsZero() || !f[0].Confirmed {
		t.Errorf("flips of y = 7 %% x: %+v, want x = 0", f)
	}
}

// TestGenerationalFindsMutantBugs: the search finds the bug of mutants from an all-zero seed,
// and each bug replays.
func TestGenerationalFindsMutantBugs(t *testing.T) {
	for _, name := range []string{"factorial_mutant_swapped_update.imp", "gcd_mutant_wrong_loop_test.imp",
		"isqrt_mutant_strict_test.imp", "gcd_subtractive_mutant_zero_input.imp", "factorial_mutant_extra_iteration.imp"} {
		prog := parseFile(t, name)
		rep, err := Generational(prog, GenOptions{Limits: budget.Limits{MaxStates: 200_000}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if rep.Verdict != engine.VerdictBug || len(rep.Bugs) != 1 {
			t.Errorf("%s: %s (%s), want one bug", name, rep.Verdict, rep.Reason)
			continue
		}
		b := rep.Bugs[0]
		r := spec.Run(prog, b.Input, -1)
		if r.Outcome != spec.Failed || r.Fail != b.Fail || r.Steps != b.State.Depth {
			t.Errorf("%s: the bug input %s ends %s", name, spec.InputString(b.Input, prog.Vars), r.Outcome)
		}
		if !b.State.PC.Formula().Eval(b.Input) || b.State.ErrorOf() != b.Fail {
			t.Errorf("%s: the bug's state does not match its input", name)
		}
		t.Logf("%s: %s at line %d after %d concrete steps, %d queries", name, b.Kind(), b.Line(), rep.Stats.Expanded, rep.Stats.Solver.Queries)
	}
}

// TestGenerationalSafeOnlyWhenEnumerated: safe on a finite tree (every path run), unknown when a
// run is cut or the budget ends the search, or the tree is infinite.
func TestGenerationalSafeOnlyWhenEnumerated(t *testing.T) {
	finite := "if x > 0 then y = 1 else y = 2 fi;\nif x > 5 then y = y + 1 fi;\nif z == x then y = 100 / y fi;\nassert y != 0"
	prog := parse(t, finite)
	rep, err := Generational(prog, GenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != engine.VerdictSafe || rep.Reason != "" {
		t.Errorf("finite safe tree: %s (%s)", rep.Verdict, rep.Reason)
	}
	// 5 feasible paths (x <= 0 or 1..5 or > 5, times z == x or not, but x <= 0 and x > 5 exclusive):
	// the seed and 5 children, one run per path.
	if rep.Stats.Produced != 5 {
		t.Errorf("finite safe tree: %d children, want 5 (one per other path)", rep.Stats.Produced)
	}
	rep, err = Generational(prog, GenOptions{Limits: budget.Limits{MaxStates: 10}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != engine.VerdictUnknown || !strings.Contains(rep.Reason, "state bound reached") {
		t.Errorf("finite tree, bound 10: %s (%s)", rep.Verdict, rep.Reason)
	}
	infinite := parse(t, "while n > 0 do n = n - 1 od;\nassert n <= 0")
	rep, err = Generational(infinite, GenOptions{Limits: budget.Limits{MaxStates: 2000}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != engine.VerdictUnknown || !strings.Contains(rep.Reason, "state bound reached") {
		t.Errorf("infinite tree: %s (%s)", rep.Verdict, rep.Reason)
	}
	rep, err = Generational(infinite, GenOptions{SeedInput: store(infinite, map[string]int64{"n": 100}), MaxRunSteps: 50,
		Limits: budget.Limits{MaxStates: 5000}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != engine.VerdictUnknown || !strings.Contains(rep.Reason, "per-run step bound") {
		t.Errorf("cut run: %s (%s)", rep.Verdict, rep.Reason)
	}
}

// TestGenerationalAllBugs: with AllBugs each error is reported once, and the finite tree is
// enumerated.
func TestGenerationalAllBugs(t *testing.T) {
	prog := parse(t, "if x > 0 then assert x != 4 else y = 1 / (x + 2) fi;\nif y == 9 then fail fi")
	rep, err := Generational(prog, GenOptions{AllBugs: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range rep.Bugs {
		got = append(got, fmt.Sprintf("%s@%d", b.Kind(), b.Line()))
	}
	if rep.Verdict != engine.VerdictBug || len(got) != 3 || rep.Reason != "" {
		t.Errorf("all bugs: %s %v (%s), want 3 bugs, complete", rep.Verdict, got, rep.Reason)
	}
}

// TestGenerationalDeterministic: the same program and options give the same bugs and counters.
func TestGenerationalDeterministic(t *testing.T) {
	prog := parseFile(t, "factorial_mutant_swapped_update.imp")
	render := func() string {
		rep, err := Generational(prog, GenOptions{AllBugs: true, Limits: budget.Limits{MaxStates: 20_000}})
		if err != nil {
			t.Fatal(err)
		}
		s := fmt.Sprintf("%s %s %d %d %d %d", rep.Verdict, rep.Reason, rep.Stats.Expanded, rep.Stats.Produced, rep.Stats.Pruned, rep.Stats.Solver.Queries)
		for _, b := range rep.Bugs {
			s += " " + spec.InputString(b.Input, prog.Vars)
		}
		return s
	}
	first := render()
	for i := 0; i < 2; i++ {
		if again := render(); again != first {
			t.Fatalf("run %d differs:\n%s\n%s", i+2, first, again)
		}
	}
}

// fermat asks a nonlinear question Z3 cannot answer within a small resource limit.
const fermat = "assume x > 0 and y > 0 and z > 0;\nif x*x*x + y*y*y == z*z*z then y = 0 fi;\nassert y != 0"

// TestUnknownAnswers: an unknown solver answer is reported with its reason by Trace, and leaves
// the generational search's verdict unknown, never safe (the subtree behind it is not run).
func TestUnknownAnswers(t *testing.T) {
	prog := parse(t, fermat)
	lim := budget.Limits{RLimit: 2000}
	p, err := Trace(prog, store(prog, map[string]int64{"x": 1, "y": 1, "z": 1}), Options{Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	f := p.Branches[1].Flips
	if len(f) != 1 || f[0].Status != pathcond.Unknown || !strings.Contains(f[0].Reason, "rlimit") {
		t.Fatalf("flips of the nonlinear if: %+v", f)
	}
	rep, err := Generational(prog, GenOptions{Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != engine.VerdictUnknown || !strings.Contains(rep.Reason, "the solver answered unknown for 1 branch side") ||
		!strings.Contains(rep.Reason, "the then side of the if at line 2") {
		t.Errorf("generational: %s (%s)", rep.Verdict, rep.Reason)
	}
}

// TestTraceArrays: a concolic run over an array program takes element assignments as
// branch points with an index-out-of-range side, and the inputs found for the other sides (an
// index out of range, the aliasing of two symbolic indices) are confirmed by their concrete runs.
func TestTraceArrays(t *testing.T) {
	prog := parse(t, "array a[0..4];\na[i] = 1;\na[j] = 2;\nassert a[i] == 1")
	in := make(spec.Store, prog.Slots())
	in[0], in[1] = integer.Of(1), integer.Of(2)
	p, err := Trace(prog, in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := sides(p); got != "element assign@2:defined element assign@3:defined assert@4:holds" {
		t.Fatalf("sides %s", got)
	}
	found := map[string]spec.Store{}
	for _, b := range p.Branches {
		for _, f := range b.Flips {
			if f.Status == pathcond.Sat {
				if !f.Confirmed {
					t.Errorf("%s side at line %d not confirmed", b.SideName(f.Side), b.Pos.Line)
				}
				found[fmt.Sprintf("%d:%s", b.Pos.Line, b.SideName(f.Side))] = f.Input
			}
		}
	}
	if in := found["2:index-out-of-range"]; in == nil || (in[0].Sign() >= 0 && in[0].Cmp(integer.Of(4)) <= 0) {
		t.Errorf("no out-of-range input for a[i]: %v", found)
	}
	if in := found["4:violated"]; in == nil || !in[0].Equal(in[1]) {
		t.Errorf("the violated assert needs i == j: %v", found)
	}
}

// TestGenerationalArrays: SAGE's generational search over an array program finds the bug of a
// read after two writes at symbolic indices and replays its input (which gives the whole array).
func TestGenerationalArrays(t *testing.T) {
	prog := parse(t, "array a[0..4];\nassume i >= 0 and i <= 4 and j >= 0 and j <= 4;\na[i] = 1;\na[j] = 2;\nassert a[i] == 1")
	rep, err := Generational(prog, GenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != engine.VerdictBug || len(rep.Bugs) == 0 {
		t.Fatalf("verdict %v, want bug", rep.Verdict)
	}
	b := rep.Bugs[0]
	if b.Fail.Kind != syntax.FailAssert || len(b.Input) != prog.Slots() || !b.Input[0].Equal(b.Input[1]) {
		t.Errorf("bug %v with input %s", b.Fail.Kind, spec.StoreString(prog, b.Input))
	}
}
