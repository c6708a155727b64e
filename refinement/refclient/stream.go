package refclient

import (
	"fmt"

	"certsym/spec/syntax"
)

// StreamSizeLimit bounds the size of one state of the reference (expression nodes): its terms
// are trees, and a program that doubles a variable in a loop makes them grow exponentially.
const StreamSizeLimit = 4000

// StreamState is one state of the reference's stream.
type StreamState struct {
	PC     syntax.BExpr
	Store  []syntax.AExpr
	Arrays []ArrTerm // the term of each array of the client's Arrays
	Prog   syntax.Stmt
	Status string // the reference's status of the state (as run_next names it)
}

// RunStart starts the reference's run stream of prog over vars.
func (r *Client) RunStart(prog syntax.Stmt, vars []string) error {
	p, err := EncodeStmt(prog)
	if err != nil {
		return err
	}
	var ans struct{}
	req := runStart(vars, p)
	req.Arrays = decls(r.Arrays)
	return r.call(req, &ans)
}

// RunNext returns the next count states of the reference's stream; ended is true when the
// stream has ended (Finished) after them, tooBig when a state exceeded the size limit.
func (r *Client) RunNext(count int, vars []string) (states []StreamState, ended, tooBig bool, err error) {
	var ans runNextAnswer
	if err := r.call(runNextRequest{Op: "run_next", Count: count, Limit: StreamSizeLimit}, &ans); err != nil {
		return nil, false, false, err
	}
	states, err = ans.states(vars, r.Arrays...)
	return states, ans.End, ans.TooBig, err
}

// states decodes the states of a run_next answer over the variables vars.
func (ans runNextAnswer) states(vars []string, arrays ...*syntax.Array) ([]StreamState, error) {
	d := newDecoder(vars, arrays...)
	var states []StreamState
	for i, s := range ans.States {
		pc, store, prog, err := d.decode(s, vars)
		if err != nil {
			return nil, fmt.Errorf("certsym-ref: state %d: %w", i, err)
		}
		arrs, err := d.decodeArrays(s.Store, arrays)
		if err != nil {
			return nil, fmt.Errorf("certsym-ref: state %d: %w", i, err)
		}
		states = append(states, StreamState{PC: pc, Store: store, Arrays: arrs, Prog: prog, Status: s.Status})
	}
	return states, nil
}
