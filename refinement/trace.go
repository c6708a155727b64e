// Concrete runs on the reference: traces of certsym-ref's concrete semantics from an input,
// cached per program, and the concretization relation between engine states and reference states.

package refinement

import (
	"encoding/json"
	"fmt"
	"strings"

	"certsym/engine"
	"certsym/pathcond"
	"certsym/refinement/prover"
	"certsym/refinement/refclient"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/sym"
)

// refState is a concrete state of the reference.
type refState struct {
	store  refclient.ConcStore
	arrays refclient.ConcArrays // the arrays of the store (issue 13; nil without arrays)
	prog   json.RawMessage
	canon  string
}

// trace is the reference's run from one input, as far as it was needed; end is the kind of the
// last step request ("final", "error", "stuck") once the run has ended.
type trace struct {
	states []refState
	end    string
	err    error
}

// cutRun is the end of a reference run cut short because its values grew too large (repeated
// squaring in a loop doubles the digits at each iteration): such runs are checked up to the cut.
const cutRun = "cut"

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

func (c *checker) concStore(v []integer.Int) refclient.ConcStore {
	s := refclient.ConcStore{}
	for i, x := range c.names {
		s[x] = v[i]
	}
	return s
}

func (c *checker) canonRaw(raw json.RawMessage) (string, error) {
	p, err := refclient.DecodeProg(raw, c.names, c.u.Prog.Arrays...)
	if err != nil {
		return "", err
	}
	return refclient.Canon(p), nil
}

// traceTo returns the reference's run from input v extended to n steps (or to its end).
func (c *checker) traceTo(v []integer.Int, n int) *trace {
	key := c.inputString(v)
	t, ok := c.traces[key]
	if !ok {
		raw, err := refclient.EncodeStmt(c.u.RefBody)
		t = &trace{err: err}
		if err == nil {
			t.states = []refState{{store: c.concStore(v), arrays: c.concArrays(v), prog: raw, canon: refclient.Canon(c.u.RefBody)}}
		}
		if len(c.traces) > 2000 {
			c.traces = map[string]*trace{}
		}
		c.traces[key] = t
	}
	for t.err == nil && t.end == "" && len(t.states) <= n {
		last := t.states[len(t.states)-1]
		r, err := c.ref.StepA(last.store, last.arrays, c.names, last.prog)
		if err != nil {
			t.err = err
			break
		}
		if r.Kind != "next" {
			t.end = r.Kind
			break
		}
		cs, err := c.canonRaw(r.Prog)
		if err != nil {
			t.err = err
			break
		}
		t.states = append(t.states, refState{store: r.Store, arrays: r.Arrays, prog: r.Prog, canon: cs})
		if tooBig(r.Store) {
			t.end = cutRun
			c.sum.RunsCut++
			break
		}
	}
	return t
}

// concretizes reports whether the symbolic state (store, prog) concretizes under v to the
// reference's state r; otherwise it says how they differ.
func (c *checker) concretizes(store []*sym.Term, prog syntax.Stmt, v []integer.Int, r refState) (bool, string) {
	for i, x := range c.names {
		want := r.store[x] // absent: 0
		if got := store[i].Eval(v); !got.Equal(want) {
			return false, fmt.Sprintf("variable %s: symbolic %s = %s, reference %s", x, store[i].String(c.slots), got, want)
		}
	}
	if ok, why := c.arraysConcretize(store, v, r.arrays); !ok {
		return false, why
	}
	if got := refclient.Canon(prog); got != r.canon {
		return false, fmt.Sprintf("programs differ:\n    symbolic:  %s\n    reference: %s", got, r.canon)
	}
	return true, ""
}

func stateString(st *engine.State, names []string) string {
	return fmt.Sprintf("⟨%s | %s | %s⟩", st.PC.String(names), sym.StoreString(st.Store, names), refclient.Canon(st.Prog.Stmt()))
}

func refStateString(r refState, names []string) string {
	var parts []string
	for _, x := range names {
		parts = append(parts, x+"="+r.store[x].String())
	}
	for a, vs := range r.arrays {
		parts = append(parts, fmt.Sprintf("%s=%v", a, vs))
	}
	return fmt.Sprintf("(%s | %s)", strings.Join(parts, ", "), r.canon)
}

// model returns a valuation satisfying the state's path condition: the engine's witness when it
// has one (checked against the path condition), else the layer's own Z3 model. ok is false when
// the path condition is unsatisfiable or undecided.
func (c *checker) model(pc *pathcond.PC) ([]integer.Int, bool) {
	if pc.Status == pathcond.Sat && pc.Witness != nil {
		if !pc.Formula().Eval(pc.Witness) {
			c.report("oracle/witness", c.inputString(pc.Witness), -1, "the engine's witness does not satisfy its path condition %s", pc.String(c.slots))
			return nil, false
		}
		return pc.Witness, true
	}
	if pc.Status == pathcond.Unsat {
		return nil, false
	}
	st, m := c.prover.Model(c.formulaB(pc.Formula()), c.names)
	if st != prover.Valid {
		return nil, false
	}
	if ok, def := pc.Formula().EvalOK(m); !def {
		return nil, false // a quantifier range too large to evaluate: no claim
	} else if !ok {
		c.report("prover", c.inputString(m), -1, "Z3 model does not satisfy %s", pc.String(c.slots))
		return nil, false
	}
	return m, true
}
