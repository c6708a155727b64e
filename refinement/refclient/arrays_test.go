package refclient

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// arraysProg has every node: declarations with positive and negative bounds, an
// element write, element reads (one with a computed index), a division inside an index, forall
// and exists (nested), in a condition of every kind of statement.
const arraysProg = `array a[1..3];
array b[-2..0];
a[i] = b[i - 3] / x;
if a[1] < 0 then fail else skip fi;
assume exists j in -2..0: b[j] != 0;
assert forall k in 1..3: a[k] >= 0 and (exists j in -2..0: b[j] == k)`

// arraysJSON is its encoding (proofs/ref/README.md, "Arrays and quantifiers"), byte for byte.
const arraysJSON = `{"k":"seq","p":{"k":"aassign","x":"a","l":{"k":"var","x":"i"},"e":{"k":"div","l":{"k":"sel","x":"b","e":{"k":"sub","l":{"k":"var","x":"i"},"r":{"k":"num","n":3}}},"r":{"k":"var","x":"x"}}},` +
	`"q":{"k":"seq","p":{"k":"if","b":{"k":"lt","l":{"k":"sel","x":"a","e":{"k":"num","n":1}},"r":{"k":"num","n":0}},"p":{"k":"fail"},"q":{"k":"skip"}},` +
	`"q":{"k":"seq","p":{"k":"assume","b":{"k":"exists","x":"j","l":{"k":"num","n":-2},"r":{"k":"num","n":0},"b":{"k":"ne","l":{"k":"sel","x":"b","e":{"k":"bvar","x":"j"}},"r":{"k":"num","n":0}}}},` +
	`"q":{"k":"if","b":{"k":"forall","x":"k","l":{"k":"num","n":1},"r":{"k":"num","n":3},"b":{"k":"and","l":{"k":"ge","l":{"k":"sel","x":"a","e":{"k":"bvar","x":"k"}},"r":{"k":"num","n":0}},"r":{"k":"exists","x":"j","l":{"k":"num","n":-2},"r":{"k":"num","n":0},"b":{"k":"eq","l":{"k":"sel","x":"b","e":{"k":"bvar","x":"j"}},"r":{"k":"bvar","x":"k"}}}}},"p":{"k":"skip"},"q":{"k":"fail"}}}}}`

// TestArrayTreeRoundTrip: the new nodes encode to the documented JSON and decode back (with the
// bound variables' levels and the arrays' declarations).
func TestArrayTreeRoundTrip(t *testing.T) {
	p := parseProg(t, arraysProg)
	raw, err := EncodeStmt(p.Body)
	if err != nil {
		t.Fatal(err)
	}
	if string(raw) != arraysJSON {
		t.Fatalf("encoding differs from the wire format:\n got %s\nwant %s", raw, arraysJSON)
	}
	back, err := DecodeProg(raw, p.Vars, p.Arrays...)
	if err != nil {
		t.Fatal(err)
	}
	if Canon(back) != Canon(p.Body) {
		t.Fatalf("round trip changed the program:\n got %s\nwant %s", Canon(back), Canon(p.Body))
	}
	w := back.(*syntax.Seq).First.(*syntax.ArrAssign)
	if w.Arr != p.Arrays[0] {
		t.Errorf("the write decodes to array %v, want the declaration %v", w.Arr, p.Arrays[0])
	}
	if _, err := DecodeProg(raw, p.Vars); err == nil || !strings.Contains(err.Error(), "unknown array") {
		t.Errorf("decoding without the declarations: %v", err)
	}
	// a bound variable outside its quantifier, a fail of an unknown kind
	for _, bad := range []string{`{"k":"assign","x":"i","e":{"k":"bvar","x":"k"}}`, `{"k":"fail","kind":"oops"}`} {
		if _, err := DecodeProg(json.RawMessage(bad), p.Vars, p.Arrays...); err == nil {
			t.Errorf("%s decoded", bad)
		}
	}
	// the kinds of fail
	for k, want := range map[syntax.FailKind]string{syntax.FailExplicit: `{"k":"fail"}`, syntax.FailAssert: `{"k":"fail"}`,
		syntax.FailDivZero: `{"k":"fail","kind":"division-by-zero"}`, syntax.FailIndex: `{"k":"fail","kind":"index-out-of-range"}`} {
		got, err := EncodeStmt(&syntax.Fail{Kind: k})
		if err != nil || string(got) != want {
			t.Errorf("fail of kind %v: %s, %v", k, got, err)
		}
	}
}

// valuation of arraysProg's slots: i, x, then a[1..3], then b[-2..0].
func arraysValuation(p *syntax.Program, scal map[string]int64, a, b []int64) []integer.Int {
	v := make([]integer.Int, p.Slots())
	for name, x := range scal {
		v[p.VarIndex(name)] = integer.Of(x)
	}
	for j, x := range a {
		v[p.Arrays[0].Offset+j] = integer.Of(x)
	}
	for j, x := range b {
		v[p.Arrays[1].Offset+j] = integer.Of(x)
	}
	return v
}

// TestEvalArraysQuantifiers: the total evaluation of element reads, store chains, quantifiers and
// first; a huge range is an error, not a hang.
func TestEvalArraysQuantifiers(t *testing.T) {
	p := parseProg(t, arraysProg)
	v := arraysValuation(p, map[string]int64{"i": 2, "x": 3}, []int64{10, 20, 30}, []int64{-1, 0, 1})
	a, b := p.Arrays[0], p.Arrays[1]
	num := func(n int64) syntax.AExpr { return &syntax.Num{Val: integer.Of(n)} }
	i := &syntax.Var{Name: "i", Index: p.VarIndex("i")}
	// a[i] = 20; b[-2] = -1; a[7] (outside: 0)
	for e, want := range map[syntax.AExpr]int64{&syntax.Elem{Arr: a, I: i}: 20, &syntax.Elem{Arr: b, I: num(-2)}: -1, &syntax.Elem{Arr: a, I: num(7)}: 0} {
		if got := EvalA(e, v); !got.Equal(integer.Of(want)) {
			t.Errorf("%s = %v, want %d", syntax.PrintA(e), got, want)
		}
	}
	// store(store(a, i, 99), 3, 5) read at 2, 3, 1
	chain := &ArrStore{T: &ArrStore{T: &ArrInit{Arr: a}, I: i, V: num(99)}, I: num(3), V: num(5)}
	for j, want := range map[int64]int64{2: 99, 3: 5, 1: 10} {
		sel := &Select{Elem: syntax.Elem{Arr: a, I: num(j)}, T: chain}
		if got := EvalA(sel, v); !got.Equal(integer.Of(want)) {
			t.Errorf("chain[%d] = %v, want %d", j, got, want)
		}
		if got := EvalArr(chain, integer.Of(j), v); !got.Equal(integer.Of(want)) {
			t.Errorf("EvalArr chain[%d] = %v, want %d", j, got, want)
		}
	}
	k := &syntax.BoundRef{Name: "k", Level: 0}
	pos := &syntax.Cmp{Op: syntax.Gt, L: &syntax.Elem{Arr: a, I: k}, R: num(15)}
	cases := []struct {
		c    syntax.BExpr
		want bool
	}{
		{&syntax.Quant{Name: "k", Lo: num(2), Hi: num(3), Body: pos}, true},
		{&syntax.Quant{Name: "k", Lo: num(1), Hi: num(3), Body: pos}, false},
		{&syntax.Quant{Exists: true, Name: "k", Lo: num(1), Hi: num(1), Body: pos}, false},
		{&syntax.Quant{Exists: true, Name: "k", Lo: num(1), Hi: num(3), Body: pos}, true},
		{&syntax.Quant{Name: "k", Lo: num(3), Hi: num(1), Body: &syntax.BoolLit{}}, true},                         // empty forall
		{&syntax.Quant{Exists: true, Name: "k", Lo: num(3), Hi: num(1), Body: &syntax.BoolLit{Val: true}}, false}, // empty exists
		// first: an instance with F, every earlier one with D
		{&First{Quant: syntax.Quant{Name: "k", Lo: num(1), Hi: num(3)}, D: &syntax.Cmp{Op: syntax.Ne, L: k, R: num(2)}, F: &syntax.Cmp{Op: syntax.Eq, L: k, R: num(3)}}, false},
		{&First{Quant: syntax.Quant{Name: "k", Lo: num(1), Hi: num(3)}, D: &syntax.Cmp{Op: syntax.Ne, L: k, R: num(2)}, F: &syntax.Cmp{Op: syntax.Eq, L: k, R: num(2)}}, true},
		{&First{Quant: syntax.Quant{Name: "k", Lo: num(3), Hi: num(1)}, D: &syntax.BoolLit{Val: true}, F: &syntax.BoolLit{Val: true}}, false},
	}
	for _, c := range cases {
		got, err := EvalBE(c.c, v)
		if err != nil || got != c.want {
			t.Errorf("%#v: %v, %v; want %v", c.c, got, err, c.want)
		}
	}
	// nested: forall k in 1..3: exists j in k..3: a[j] >= a[k]
	j := &syntax.BoundRef{Name: "j", Level: 1}
	nested := &syntax.Quant{Name: "k", Lo: num(1), Hi: num(3), Body: &syntax.Quant{Exists: true, Name: "j", Level: 1, Lo: k, Hi: num(3),
		Body: &syntax.Cmp{Op: syntax.Ge, L: &syntax.Elem{Arr: a, I: j}, R: &syntax.Elem{Arr: a, I: k}}}}
	if !EvalB(nested, v) {
		t.Errorf("nested quantifiers")
	}
	// a huge range: an error at once
	start := time.Now()
	huge := &syntax.Quant{Name: "k", Lo: num(0), Hi: &syntax.Num{Val: integer.Of(1 << 62)}, Body: &syntax.BoolLit{Val: true}}
	if _, err := EvalBE(huge, v); !errors.Is(err, ErrQuantRange) {
		t.Errorf("huge range: %v", err)
	}
	if EvalB(huge, v) {
		t.Errorf("EvalB of a huge range is true")
	}
	if time.Since(start) > time.Second {
		t.Errorf("a huge range took %v", time.Since(start))
	}
}

// TestArraysReference: certsym-ref's steps, evaluations and expansions with arrays, error kinds in
// evaluation order, and store chains read back by EvalA.
func TestArraysReference(t *testing.T) {
	needRef(t)
	ref, err := Start(DefaultPath())
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	p := parseProg(t, "array a[1..3];\na[i] = 7 / x; y = a[j]")
	ref.Arrays = p.Arrays
	w := p.Body.(*syntax.Seq).First
	raw, err := EncodeStmt(w)
	if err != nil {
		t.Fatal(err)
	}
	arr := ConcArrays{"a": {integer.Of(1), integer.Of(2), integer.Of(3)}}
	// in range: the element changes
	res, err := ref.StepA(ConcStore{"i": integer.Of(2), "x": integer.Of(1)}, arr, p.Vars, raw)
	if err != nil || res.Kind != "next" || len(res.Arrays["a"]) != 3 || !res.Arrays["a"][1].Equal(integer.Of(7)) || !res.Arrays["a"][0].Equal(integer.Of(1)) {
		t.Fatalf("write in range: %+v, %v", res, err)
	}
	// out of range: index error; out of range and division by zero: division first (e before the check)
	for _, c := range []struct {
		x    int64
		want syntax.FailKind
	}{{1, syntax.FailIndex}, {0, syntax.FailDivZero}} {
		res, err := ref.StepA(ConcStore{"i": integer.Of(4), "x": integer.Of(c.x)}, arr, p.Vars, raw)
		if err != nil || res.Kind != "next" {
			t.Fatalf("x=%d: %+v, %v", c.x, res, err)
		}
		fin, err := ref.StepA(res.Store, res.Arrays, p.Vars, res.Prog)
		if err != nil || fin.Kind != "error" || fin.Fail != c.want {
			t.Errorf("x=%d: error %+v, %v; want kind %v", c.x, fin, err, c.want)
		}
	}
	// evaluation with kinds
	num := func(n int64) syntax.AExpr { return &syntax.Num{Val: integer.Of(n)} }
	idx0 := &syntax.Elem{Arr: p.Arrays[0], I: num(0)}
	div0 := &syntax.BinA{Op: syntax.Div, L: num(1), R: num(0)}
	for _, c := range []struct {
		e    syntax.AExpr
		want syntax.FailKind
	}{{&syntax.BinA{Op: syntax.Add, L: idx0, R: div0}, syntax.FailIndex}, {&syntax.BinA{Op: syntax.Add, L: div0, R: idx0}, syntax.FailDivZero}, {&syntax.Elem{Arr: p.Arrays[0], I: div0}, syntax.FailDivZero}} {
		_, k, ok, err := ref.EvalKind(nil, arr, p.Vars, c.e)
		if err != nil || ok || k != c.want {
			t.Errorf("%s: kind %v ok %v %v; want %v", syntax.PrintA(c.e), k, ok, err, c.want)
		}
	}
	if v, _, ok, err := ref.EvalKind(nil, arr, p.Vars, &syntax.Elem{Arr: p.Arrays[0], I: num(3)}); err != nil || !ok || !v.Equal(integer.Of(3)) {
		t.Errorf("a[3] = %v %v %v", v, ok, err)
	}
	if v, _, ok, err := ref.EvalBKind(nil, arr, p.Vars, &syntax.Cmp{Op: syntax.Lt, L: &syntax.Elem{Arr: p.Arrays[0], I: num(1)}, R: num(2)}); err != nil || !ok || !v {
		t.Errorf("a[1] < 2: %v %v %v", v, ok, err)
	}
	// expansion: the write, then the read through the store chain
	succs, err := ref.Expand(json.RawMessage(`{"k":"true"}`), nil, p.Vars, raw)
	if err != nil || len(succs) != 3 {
		t.Fatalf("expand the write: %d successors, %v", len(succs), err)
	}
	if _, ok := succs[0].Arrays[0].(*ArrStore); !ok {
		t.Fatalf("the write's successor has array term %#v", succs[0].Arrays[0])
	}
	if Canon(succs[1].Prog) != "fail[division-by-zero]" || Canon(succs[2].Prog) != "fail[index-out-of-range]" {
		t.Errorf("error successors %s, %s", Canon(succs[1].Prog), Canon(succs[2].Prog))
	}
	term, err := EncodeArr(succs[0].Arrays[0])
	if err != nil {
		t.Fatal(err)
	}
	read, err := EncodeStmt(p.Body.(*syntax.Seq).Second)
	if err != nil {
		t.Fatal(err)
	}
	pc, err := EncodeB(succs[0].PC)
	if err != nil {
		t.Fatal(err)
	}
	succs2, err := ref.ExpandA(pc, nil, p.Vars, []json.RawMessage{term}, read)
	if err != nil || len(succs2) != 2 {
		t.Fatalf("expand the read: %d successors, %v", len(succs2), err)
	}
	y := succs2[0].Store[p.VarIndex("y")]
	// under i = j = 2, x = 1: y = 7 / 1; under i = 2, j = 3: y = a[3]
	for _, c := range []struct {
		j, want int64
	}{{2, 7}, {3, 30}, {1, 10}} {
		v := make([]integer.Int, p.Slots())
		v[p.VarIndex("i")], v[p.VarIndex("x")], v[p.VarIndex("j")] = integer.Of(2), integer.Of(1), integer.Of(c.j)
		for e := 0; e < 3; e++ {
			v[p.Arrays[0].Offset+e] = integer.Of(int64(10 * (e + 1)))
		}
		if !EvalB(succs2[0].PC, v) {
			t.Errorf("j=%d: the path condition %s is false", c.j, syntax.PrintB(succs2[0].PC))
		}
		if got := EvalA(y, v); !got.Equal(integer.Of(c.want)) {
			t.Errorf("j=%d: y = %v, want %d", c.j, got, c.want)
		}
	}
	// the run stream prints the arrays
	if err := ref.RunStart(p.Body, p.Vars); err != nil {
		t.Fatal(err)
	}
	states, _, _, err := ref.RunNext(4, p.Vars)
	if err != nil || len(states) < 2 || len(states[1].Arrays) != 1 {
		t.Fatalf("run stream: %d states, %v", len(states), err)
	}
}

// TestQuantifiersReference: the successors of an if on a quantifier whose instances can fail in
// both ways: under every valuation, exactly the successor the concrete semantics (spec) takes has
// a true path condition (the "first" node of F_k included), evaluated by EvalB.
func TestQuantifiersReference(t *testing.T) {
	needRef(t)
	ref, err := Start(DefaultPath())
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	p := parseProg(t, "array a[1..3];\nif forall k in m..n: a[k] / (k - 2) > 0 then x = 1 else x = 2 fi")
	ref.Arrays = p.Arrays
	ifs := p.Body.(*syntax.If)
	raw, err := EncodeStmt(ifs)
	if err != nil {
		t.Fatal(err)
	}
	succs, err := ref.Expand(json.RawMessage(`{"k":"true"}`), nil, p.Vars, raw)
	if err != nil || len(succs) != 4 {
		t.Fatalf("expand: %d successors, %v", len(succs), err)
	}
	seen := map[int]bool{}
	for m := int64(0); m <= 4; m++ {
		for n := int64(0); n <= 4; n++ {
			for _, elems := range [][]int64{{1, 2, 3}, {-5, 4, 9}, {6, 0, -1}} {
				v := make([]integer.Int, p.Slots())
				v[p.VarIndex("m")], v[p.VarIndex("n")] = integer.Of(m), integer.Of(n)
				for j, x := range elems {
					v[p.Arrays[0].Offset+j] = integer.Of(x)
				}
				holds, kind, ok := spec.EvalBKind(ifs.Cond, spec.Store(v), nil)
				want := 0
				switch {
				case ok && !holds:
					want = 1
				case !ok && kind == syntax.FailDivZero:
					want = 2
				case !ok:
					want = 3
				}
				seen[want] = true
				for i, s := range succs {
					got, err := EvalBE(s.PC, v)
					if err != nil || got != (i == want) {
						t.Fatalf("m=%d n=%d a=%v: successor %d (%s) has path condition %v (%v), want %v",
							m, n, elems, i, Canon(s.Prog), got, err, i == want)
					}
				}
			}
		}
	}
	if len(seen) != 4 {
		t.Errorf("the valuations reach only the successors %v", seen)
	}
}

// TestConcreteArraysAgainstSpec: certsym-ref's concrete steps and spec.Step agree, state by state,
// on programs with arrays and quantifiers from random inputs (stores, remaining programs, and the
// kind of the error reached): the extracted Coq semantics and the Go one are the same relation on
// these runs.
func TestConcreteArraysAgainstSpec(t *testing.T) {
	needRef(t)
	ref, err := Start(DefaultPath())
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	progs := []string{
		// insertion sort of a[0..3], sortedness asserted with forall
		`array a[0..3];
i = 1;
while i <= 3 do
  j = i;
  while j > 0 and a[j - 1] > a[j] do t = a[j]; a[j] = a[j - 1]; a[j - 1] = t; j = j - 1 od;
  i = i + 1
od;
assert forall k in 0..2: a[k] <= a[k + 1]`,
		// the same with the classic mutant (j > 1): the forall assertion fails
		`array a[0..3];
i = 1;
while i <= 3 do
  j = i;
  while j > 1 and a[j - 1] > a[j] do t = a[j]; a[j] = a[j - 1]; a[j - 1] = t; j = j - 1 od;
  i = i + 1
od;
assert forall k in 0..2: a[k] <= a[k + 1]`,
		// binary search with an index computed by / and a possible out-of-range read
		`array a[-2..2];
lo = -2; hi = 3;
while lo < hi do m = (lo + hi) / 2; if a[m] < x then lo = m + 1 else hi = m fi od;
assume exists k in -2..2: a[k] == x;
assert a[lo] == x`,
		// errors of both kinds in one statement, in evaluation order
		`array b[1..2];
b[i] = 10 / (j - 1);
if forall k in i..j: b[k] % (k - 1) == 0 then x = 1 else x = 2 fi`,
	}
	rnd := uint64(12345)
	next := func(n int64) int64 { // a small deterministic generator
		rnd = rnd*6364136223846793005 + 1442695040888963407
		return int64(rnd>>33)%n - n/2
	}
	seen := map[string]bool{}
	for pi, src := range progs {
		p := parseProg(t, src)
		ref.Arrays = p.Arrays
		for trial := 0; trial < 24; trial++ {
			store := make(spec.Store, p.Slots())
			for i := range store {
				store[i] = integer.Of(next(7))
			}
			st := spec.State{Store: store, Prog: p.Body}
			raw, err := EncodeStmt(p.Body)
			if err != nil {
				t.Fatal(err)
			}
			for n := 0; n < 400; n++ {
				cs, ca := ConcStore{}, ConcArrays{}
				for i, x := range p.Vars {
					cs[x] = st.Store[i]
				}
				for _, a := range p.Arrays {
					ca[a.Name] = append([]integer.Int(nil), st.Store[a.Offset:a.Offset+a.Size()]...)
				}
				res, err := ref.StepA(cs, ca, p.Vars, raw)
				if err != nil {
					t.Fatal(err)
				}
				next, out := spec.Step(st)
				want := map[spec.Outcome]string{spec.Stepped: "next", spec.Final: "final", spec.Failed: "error", spec.Blocked: "stuck"}[out]
				if res.Kind != want {
					t.Fatalf("program %d, trial %d, step %d: reference %q, spec %v at %s", pi, trial, n, res.Kind, out, Canon(st.Prog))
				}
				if out == spec.Failed {
					k := spec.IsError(st.Prog).Kind
					if k == syntax.FailAssert {
						k = syntax.FailExplicit
					}
					if res.Fail != k {
						t.Fatalf("program %d, trial %d: error kind %v, spec %v", pi, trial, res.Fail, k)
					}
				}
				if out != spec.Stepped {
					seen[res.Kind+" "+res.Fail.String()] = true
					break
				}
				back, err := DecodeProg(res.Prog, p.Vars, p.Arrays...)
				if err != nil {
					t.Fatal(err)
				}
				if Canon(back) != Canon(next.Prog) {
					t.Fatalf("program %d, trial %d, step %d: reference goes to %s, spec to %s", pi, trial, n, Canon(back), Canon(next.Prog))
				}
				for i, x := range p.Vars {
					if v, ok := res.Store[x]; ok && !v.Equal(next.Store[i]) || !ok && !next.Store[i].IsZero() {
						t.Fatalf("program %d, trial %d, step %d: %s = %v, spec %v", pi, trial, n, x, v, next.Store[i])
					}
				}
				for _, a := range p.Arrays {
					got := res.Arrays[a.Name]
					for j := 0; j < a.Size(); j++ {
						if j >= len(got) || !got[j].Equal(next.Store[a.Offset+j]) {
							t.Fatalf("program %d, trial %d, step %d: array %s = %v, spec %v", pi, trial, n, a.Name, got, next.Store[a.Offset:a.Offset+a.Size()])
						}
					}
				}
				st, raw = next, res.Prog
			}
		}
	}
	for _, k := range []string{"final fail", "stuck fail", "error fail", "error division-by-zero", "error index-out-of-range"} {
		if !seen[k] {
			t.Errorf("no run ended with %q (ends: %v)", k, seen)
		}
	}
}

// TestSymbolicArraysAgainstSpec: Theorem 2.1 on the extracted code, through the codec. Along the
// concrete run of spec.Step from an input v, the reference's symbolic successors (expanded from
// the previous one, its terms re-encoded by the codec) contain exactly one whose path condition
// holds under v (EvalB), and that one has the concrete program and, evaluated under v (EvalA,
// EvalArr), the concrete store, arrays included.
func TestSymbolicArraysAgainstSpec(t *testing.T) {
	needRef(t)
	ref, err := Start(DefaultPath())
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	progs := []string{
		`array a[0..2];
i = 1;
while i <= 2 do
  j = i;
  while j > 0 and a[j - 1] > a[j] do t = a[j]; a[j] = a[j - 1]; a[j - 1] = t; j = j - 1 od;
  i = i + 1
od;
assert forall k in 0..1: a[k] <= a[k + 1]`,
		`array b[1..2];
b[i] = 10 / (j - 1);
b[2] = b[i] + 1;
if forall k in i..j: b[k] % (k - 1) == 0 then x = b[j] else x = 2 fi;
assume exists k in 1..2: b[k] > x`,
	}
	rnd := uint64(777)
	gen := func(n int64) int64 {
		rnd = rnd*6364136223846793005 + 1442695040888963407
		return int64(rnd>>33)%n - n/2
	}
	for pi, src := range progs {
		p := parseProg(t, src)
		ref.Arrays = p.Arrays
		for trial := 0; trial < 6; trial++ {
			v := make(spec.Store, p.Slots())
			for i := range v {
				v[i] = integer.Of(gen(5))
			}
			st := spec.State{Store: append(spec.Store(nil), v...), Prog: p.Body}
			pc := json.RawMessage(`{"k":"true"}`)
			store := make([]json.RawMessage, len(p.Vars))
			for i, x := range p.Vars {
				store[i] = json.RawMessage(`{"k":"var","x":"` + x + `"}`)
			}
			arrays := make([]json.RawMessage, len(p.Arrays))
			prog, err := EncodeStmt(p.Body)
			if err != nil {
				t.Fatal(err)
			}
			for n := 0; n < 150; n++ {
				next, out := spec.Step(st)
				if out != spec.Stepped {
					break
				}
				succs, err := ref.ExpandA(pc, store, p.Vars, arrays, prog)
				if err != nil {
					t.Fatal(err)
				}
				var hit *SymSucc
				for i := range succs {
					holds, err := EvalBE(succs[i].PC, v)
					if err != nil {
						t.Fatal(err)
					}
					if holds {
						if hit != nil {
							t.Fatalf("program %d, step %d: two successors hold", pi, n)
						}
						hit = &succs[i]
					}
				}
				if hit == nil {
					t.Fatalf("program %d, trial %d, step %d: no successor holds at %s", pi, trial, n, Canon(st.Prog))
				}
				if Canon(hit.Prog) != Canon(next.Prog) {
					t.Fatalf("program %d, step %d: symbolic %s, concrete %s", pi, n, Canon(hit.Prog), Canon(next.Prog))
				}
				for i, x := range p.Vars {
					if got := EvalA(hit.Store[i], v); !got.Equal(next.Store[i]) {
						t.Fatalf("program %d, step %d: %s = %v symbolically, %v concretely", pi, n, x, got, next.Store[i])
					}
				}
				for ai, a := range p.Arrays {
					for j := a.Lo; j <= a.Hi; j++ {
						if got := EvalArr(hit.Arrays[ai], integer.Of(j), v); !got.Equal(next.Store[a.Offset+int(j-a.Lo)]) {
							t.Fatalf("program %d, step %d: %s[%d] = %v symbolically, %v concretely", pi, n, a.Name, j, got, next.Store[a.Offset+int(j-a.Lo)])
						}
					}
				}
				// the next request: the successor re-encoded by the codec
				if pc, err = EncodeB(hit.PC); err != nil {
					t.Fatal(err)
				}
				for i := range store {
					if store[i], err = EncodeA(hit.Store[i]); err != nil {
						t.Fatal(err)
					}
				}
				for i := range arrays {
					if arrays[i], err = EncodeArr(hit.Arrays[i]); err != nil {
						t.Fatal(err)
					}
				}
				st, prog = next, hit.Raw
			}
		}
	}
}

// TestPrintSelectFirst: syntax.PrintA and PrintB print the reference's select and first nodes (as
// the crosscheck's messages and query keys do), inside the syntax of the spec package too.
func TestPrintSelectFirst(t *testing.T) {
	p := parseProg(t, arraysProg)
	a := p.Arrays[0]
	num := func(n int64) syntax.AExpr { return &syntax.Num{Val: integer.Of(n)} }
	i := &syntax.Var{Name: "i", Index: p.VarIndex("i")}
	chain := &ArrStore{T: &ArrStore{T: &ArrInit{Arr: a}, I: i, V: num(99)}, I: num(3), V: num(5)}
	sel := &Select{Elem: syntax.Elem{Arr: a, I: num(2)}, T: chain}
	if got, want := syntax.PrintA(&syntax.BinA{Op: syntax.Add, L: sel, R: num(1)}), "store(store(a, i, 99), 3, 5)[2] + 1"; got != want {
		t.Errorf("select printed %q, want %q", got, want)
	}
	k := &syntax.BoundRef{Name: "k", Level: 0}
	first := &First{Quant: syntax.Quant{Name: "k", Lo: num(1), Hi: num(3)}, D: &syntax.Cmp{Op: syntax.Ne, L: k, R: num(2)},
		F: &syntax.Cmp{Op: syntax.Eq, L: sel, R: k}}
	want := "not (first k in 1..3: k != 2; store(store(a, i, 99), 3, 5)[2] == k)"
	if got := syntax.PrintB(&syntax.Not{X: first}); got != want {
		t.Errorf("first printed %q, want %q", got, want)
	}
}
