// Concrete runs on the reference: traces of certsym-ref's concrete semantics from an input,
// cached per program, and the concretization relation between engine states and reference states.

package checker

import (
	"encoding/json"
	"fmt"
	"strings"

	"certsym/engine"
	"certsym/pathcond"
	"certsym/refinement/conv"
	"certsym/refinement/prover"
	"certsym/refinement/refclient"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/sym"
)

// RefState is a concrete state of the reference.
type RefState struct {
	Store  refclient.ConcStore
	Arrays refclient.ConcArrays // the arrays of the store (nil without arrays)
	Prog   json.RawMessage
	Canon  string // the program's canonical text (refclient.Canon)
}

// Trace is the reference's run from one input, as far as it was needed; End is the kind of the
// last step request ("final", "error", "stuck", or CutRun) once the run has ended.
type Trace struct {
	States []RefState
	End    string
	Err    error
}

// CutRun is the end of a reference run cut short because its values grew too large (repeated
// squaring in a loop doubles the digits at each iteration): such runs are checked up to the cut.
const CutRun = "cut"

// maxBits bounds the values of the concrete runs the layer follows.
const maxBits = 4096

func tooBig(s refclient.ConcStore) bool {
	for _, v := range s {
		if tooBigInt(v) {
			return true
		}
	}
	return false
}

// tooBigInt reports whether v has more than maxBits bits.
func tooBigInt(v integer.Int) bool { return !v.IsSmall() && v.Big().BitLen() > maxBits }

// TooBigStore reports whether a value of a store of the Go semantics has more than maxBits bits
// (the layer follows no run beyond it).
func TooBigStore(s spec.Store) bool {
	for _, v := range s {
		if tooBigInt(v) {
			return true
		}
	}
	return false
}

// CanonRaw is the canonical text of a program in the reference's JSON.
func (c *Checker) CanonRaw(raw json.RawMessage) (string, error) {
	p, err := refclient.DecodeProg(raw, c.Names, c.U.Prog.Arrays...)
	if err != nil {
		return "", err
	}
	return refclient.Canon(p), nil
}

// TraceTo returns the reference's run from input v extended to n steps (or to its end).
func (c *Checker) TraceTo(v []integer.Int, n int) *Trace {
	key := c.InputString(v)
	t, ok := c.Traces[key]
	if !ok {
		raw, err := refclient.EncodeStmt(c.U.RefBody)
		t = &Trace{Err: err}
		if err == nil {
			t.States = []RefState{{Store: c.ConcStore(v), Arrays: c.ConcArrays(v), Prog: raw, Canon: refclient.Canon(c.U.RefBody)}}
		}
		if len(c.Traces) > 2000 {
			c.Traces = map[string]*Trace{}
		}
		c.Traces[key] = t
	}
	for t.Err == nil && t.End == "" && len(t.States) <= n {
		last := t.States[len(t.States)-1]
		r, err := c.Ref.StepA(last.Store, last.Arrays, c.Names, last.Prog)
		if err != nil {
			t.Err = err
			break
		}
		if r.Kind != "next" {
			t.End = r.Kind
			break
		}
		cs, err := c.CanonRaw(r.Prog)
		if err != nil {
			t.Err = err
			break
		}
		t.States = append(t.States, RefState{Store: r.Store, Arrays: r.Arrays, Prog: r.Prog, Canon: cs})
		if tooBig(r.Store) {
			t.End = CutRun
			c.Sum.RunsCut++
			break
		}
	}
	return t
}

// Concretizes reports whether the symbolic state (store, prog) concretizes under v to the
// reference's state r; otherwise it says how they differ.
func (c *Checker) Concretizes(store []*sym.Term, prog syntax.Stmt, v []integer.Int, r RefState) (bool, string) {
	for i, x := range c.Names {
		want := r.Store[x] // absent: 0
		if got := store[i].Eval(v); !got.Equal(want) {
			return false, fmt.Sprintf("variable %s: symbolic %s = %s, reference %s", x, store[i].String(c.Slots), got, want)
		}
	}
	if ok, why := conv.ArraysConcretize(c.U.Prog, store, v, r.Arrays); !ok {
		return false, why
	}
	if got := refclient.Canon(prog); got != r.Canon {
		return false, fmt.Sprintf("programs differ:\n    symbolic:  %s\n    reference: %s", got, r.Canon)
	}
	return true, ""
}

// StateString renders an engine state (path condition, store, program) over the slot names.
func StateString(st *engine.State, names []string) string {
	return fmt.Sprintf("⟨%s | %s | %s⟩", st.PC.String(names), sym.StoreString(st.Store, names), refclient.Canon(st.Prog.Stmt()))
}

// RefStateString renders a state of the reference over the variable names.
func RefStateString(r RefState, names []string) string {
	var parts []string
	for _, x := range names {
		parts = append(parts, x+"="+r.Store[x].String())
	}
	for a, vs := range r.Arrays {
		parts = append(parts, fmt.Sprintf("%s=%v", a, vs))
	}
	return fmt.Sprintf("(%s | %s)", strings.Join(parts, ", "), r.Canon)
}

// Model returns a valuation satisfying the state's path condition: the engine's witness when it
// has one (checked against the path condition), else the layer's own Z3 model. ok is false when
// the path condition is unsatisfiable or undecided.
func (c *Checker) Model(pc *pathcond.PC) ([]integer.Int, bool) {
	if pc.Status == pathcond.Sat && pc.Witness != nil {
		if !pc.Formula().Eval(pc.Witness) {
			c.Report("oracle/witness", c.InputString(pc.Witness), -1, "the engine's witness does not satisfy its path condition %s", pc.String(c.Slots))
			return nil, false
		}
		return pc.Witness, true
	}
	if pc.Status == pathcond.Unsat {
		return nil, false
	}
	b, err := c.FormulaB(pc.Formula())
	if err != nil {
		return nil, false // conditional terms with too many cases to write in IMP: no claim
	}
	st, m := c.Prover.Model(b, c.Names)
	if st != prover.Valid {
		return nil, false
	}
	if ok, def := pc.Formula().EvalOK(m); !def {
		return nil, false // a quantifier range too large to evaluate: no claim
	} else if !ok {
		c.Report("prover", c.InputString(m), -1, "Z3 model does not satisfy %s", pc.String(c.Slots))
		return nil, false
	}
	return m, true
}
