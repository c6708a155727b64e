package refclient

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// Ref is one long-lived certsym-ref process (proofs/ref), driven over pipes: one JSON request per
// line, one answer per line. A Ref belongs to one goroutine.
type Client struct {
	path  string
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Reader
	errb  *bytes.Buffer
	Calls int // requests answered
	// Timeout bounds each request (the reference is total and fast; a hang is an error).
	Timeout time.Duration
	// Arrays are the declared arrays of the program under test, sent with every
	// request ("arrays") and used to decode the array terms of the answers. Set it (for
	// example to Program.Arrays) before the requests about a program with arrays.
	Arrays []*syntax.Array
}

// DefaultPath returns the certsym-ref binary: $CERTSYM_REF if set, else
// proofs/ref/_build/certsym-ref of the module root found from the working directory.
func DefaultPath() string {
	if p := os.Getenv("CERTSYM_REF"); p != "" {
		return p
	}
	dir, _ := os.Getwd()
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return filepath.Join(d, "proofs", "ref", "_build", "certsym-ref")
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return filepath.Join("proofs", "ref", "_build", "certsym-ref")
}

// Start starts the reference at path.
func Start(path string) (*Client, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("certsym-ref not found at %s (build it with make -C proofs/coq check): %w", path, err)
	}
	r := &Client{path: path, Timeout: 30 * time.Second, errb: &bytes.Buffer{}}
	if err := r.start(); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *Client) start() error {
	cmd := exec.Command(r.path)
	in, err := cmd.StdinPipe()
	if err != nil {
		return fmt.Errorf("certsym-ref stdin: %w", err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("certsym-ref stdout: %w", err)
	}
	r.errb.Reset()
	cmd.Stderr = r.errb
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting certsym-ref %s: %w", r.path, err)
	}
	r.cmd, r.in, r.out = cmd, in, bufio.NewReaderSize(out, 1<<20)
	return nil
}

// Close stops the process.
func (r *Client) Close() {
	if r.cmd == nil {
		return
	}
	r.in.Close()
	done := make(chan struct{})
	go func() { r.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		r.cmd.Process.Kill()
		<-done
	}
	r.cmd = nil
}

// call sends one request (a value of one of the request types below, encoded with
// encoding/json) and decodes the answer into out. A process that died or hung is restarted for
// the next request.
func (r *Client) call(request any, out any) error {
	req, err := marshal(request)
	if err != nil {
		return fmt.Errorf("encoding a certsym-ref request: %w", err)
	}
	if r.cmd == nil {
		if err := r.start(); err != nil {
			return err
		}
	}
	var mu sync.Mutex
	timedOut := false
	proc := r.cmd.Process
	timer := time.AfterFunc(r.Timeout, func() {
		mu.Lock()
		timedOut = true
		mu.Unlock()
		proc.Kill()
	})
	line, err := func() ([]byte, error) {
		if _, err := r.in.Write(append(req, '\n')); err != nil {
			return nil, err
		}
		return r.out.ReadBytes('\n')
	}()
	timer.Stop()
	if err != nil {
		mu.Lock()
		to := timedOut
		mu.Unlock()
		r.Close() // waits for the process, so that its stderr has been copied in full
		stderr := strings.TrimSpace(r.errb.String())
		if to {
			return fmt.Errorf("certsym-ref did not answer within %v (request %.200s)", r.Timeout, req)
		}
		return fmt.Errorf("certsym-ref: %v (stderr %q, request %.200s)", err, stderr, req)
	}
	r.Calls++
	return decodeAnswer(req, line, out)
}

// answerHead is what every answer has: "ok", and "error" when ok is false.
type answerHead struct {
	OK    bool   `json:"ok"`
	Error string `json:"error"`
}

// decodeAnswer checks that line is an answer with "ok": true to req and decodes it into out.
func decodeAnswer(req, line []byte, out any) error {
	var head answerHead
	if err := json.Unmarshal(line, &head); err != nil {
		return fmt.Errorf("certsym-ref answered %.200q, not a JSON object: %v", line, err)
	}
	if !head.OK {
		if head.Error == "" {
			return fmt.Errorf("certsym-ref answered %.200q to %.300s: neither \"ok\": true nor an error message", line, req)
		}
		return fmt.Errorf("certsym-ref rejected the request %.300s: %s", req, head.Error)
	}
	if err := json.Unmarshal(line, out); err != nil {
		return fmt.Errorf("decoding certsym-ref answer %.200q: %v", line, err)
	}
	return nil
}

// ConcStore is a concrete store of the protocol: variable name to value.
type ConcStore map[string]integer.Int

// ConcArrays are the arrays of a concrete store: array name to its elements from Lo to Hi.
type ConcArrays map[string][]integer.Int

// concStore is the JSON object of a concrete store: the variables of order that s has, with
// their values (encoding/json writes the keys sorted; their order does not matter).
func concStore(s ConcStore, order []string) map[string]json.RawMessage {
	return concStoreA(s, nil, order)
}

// concStoreA is concStore with arrays: each array of arrays as the list of its elements.
func concStoreA(s ConcStore, arrays ConcArrays, order []string) map[string]json.RawMessage {
	m := make(map[string]json.RawMessage, len(order)+len(arrays))
	for _, k := range order {
		if v, ok := s[k]; ok {
			m[k] = json.RawMessage(v.String())
		}
	}
	for a, vs := range arrays {
		var b strings.Builder
		b.WriteByte('[')
		for i, v := range vs {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(v.String())
		}
		b.WriteByte(']')
		m[a] = json.RawMessage(b.String())
	}
	return m
}

// arrDecl is an array declaration of a request ("arrays"): name and bounds.
type arrDecl struct {
	X  string `json:"x"`
	Lo int64  `json:"lo"`
	Hi int64  `json:"hi"`
}

// decls returns the declarations of arrays (nil when there are none: the field is omitted).
func decls(arrays []*syntax.Array) []arrDecl {
	var out []arrDecl
	for _, a := range arrays {
		out = append(out, arrDecl{X: a.Name, Lo: a.Lo, Hi: a.Hi})
	}
	return out
}

// The requests of the protocol (proofs/ref/README.md, "Requests"; docs/refinement.md, "The
// protocol with certsym-ref"), one type per op, fields in the order of the wire format.
type (
	stepRequest struct {
		Op     string                     `json:"op"` // "step"
		Arrays []arrDecl                  `json:"arrays,omitempty"`
		Store  map[string]json.RawMessage `json:"store"`
		Prog   json.RawMessage            `json:"prog"`
	}
	expandRequest struct {
		Op     string                     `json:"op"` // "expand"
		Arrays []arrDecl                  `json:"arrays,omitempty"`
		PC     json.RawMessage            `json:"pc"`
		Store  map[string]json.RawMessage `json:"store"`
		Prog   json.RawMessage            `json:"prog"`
	}
	evalRequest struct {
		Op     string                     `json:"op"` // "eval" or "evalb"
		Arrays []arrDecl                  `json:"arrays,omitempty"`
		Store  map[string]json.RawMessage `json:"store"`
		E      json.RawMessage            `json:"e,omitempty"`
		B      json.RawMessage            `json:"b,omitempty"`
	}
	runStartRequest struct {
		Op     string          `json:"op"` // "run_start"
		Arrays []arrDecl       `json:"arrays,omitempty"`
		Vars   []string        `json:"vars"`
		Prog   json.RawMessage `json:"prog"`
	}
	runNextRequest struct {
		Op    string `json:"op"` // "run_next"
		Count int    `json:"count"`
		Limit int    `json:"limit"`
	}
)

// runStart is the run_start request of prog over vars (none: an empty array, never null).
func runStart(vars []string, prog json.RawMessage) runStartRequest {
	if vars == nil {
		vars = []string{}
	}
	return runStartRequest{Op: "run_start", Vars: vars, Prog: prog}
}

// The answers (after "ok": true).
type (
	stepAnswer struct {
		Kind  string                     `json:"kind"`
		Store map[string]json.RawMessage `json:"store"`
		Prog  json.RawMessage            `json:"prog"`
		Fail  string                     `json:"fail,omitempty"`
	}
	expandAnswer struct {
		Succs []symState `json:"succs"`
	}
	evalAnswer struct {
		Value *json.Number `json:"value"`
		Fail  string       `json:"fail,omitempty"`
	}
	evalbAnswer struct {
		Value *bool  `json:"value"`
		Fail  string `json:"fail,omitempty"`
	}
	runNextAnswer struct {
		States []symState `json:"states"`
		End    bool       `json:"end"`
		TooBig bool       `json:"too_big"`
	}
)

// StepResult is the answer to a step request: Kind is "next", "final", "error" or "stuck";
// Store, Arrays and Prog are the successor for "next" (Prog as the reference's JSON tree); Fail is
// the kind of the error for "error" (syntax.FailExplicit for an explicit fail or an assert).
type StepResult struct {
	Kind   string
	Store  ConcStore
	Arrays ConcArrays
	Prog   json.RawMessage
	Fail   syntax.FailKind
}

// Step asks the reference for one concrete step from (store, prog). order lists the variable
// names (names of the store outside it are not sent). The arrays of the store are all zero; StepA
// gives them.
func (r *Client) Step(store ConcStore, order []string, prog json.RawMessage) (StepResult, error) {
	return r.StepA(store, nil, order, prog)
}

// StepA is Step with the arrays of the store (declared in r.Arrays; an array absent from arrays,
// or a missing element, is 0).
func (r *Client) StepA(store ConcStore, arrays ConcArrays, order []string, prog json.RawMessage) (StepResult, error) {
	var ans stepAnswer
	req := stepRequest{Op: "step", Arrays: decls(r.Arrays), Store: concStoreA(store, arrays, order), Prog: prog}
	if err := r.call(req, &ans); err != nil {
		return StepResult{}, err
	}
	return ans.result()
}

// result checks a step answer and converts its store.
func (ans stepAnswer) result() (StepResult, error) {
	res := StepResult{Kind: ans.Kind, Prog: ans.Prog}
	switch ans.Kind {
	case "next":
		if len(ans.Prog) == 0 || string(ans.Prog) == "null" {
			return res, fmt.Errorf("certsym-ref: a \"next\" step without its program")
		}
		res.Store = ConcStore{}
		for k, v := range ans.Store {
			if len(v) > 0 && v[0] == '[' {
				var elems []json.Number
				if err := json.Unmarshal(v, &elems); err != nil {
					return res, fmt.Errorf("certsym-ref: bad array %s for %s: %v", v, k, err)
				}
				if res.Arrays == nil {
					res.Arrays = ConcArrays{}
				}
				for _, e := range elems {
					n, ok := integer.Parse(string(e))
					if !ok {
						return res, fmt.Errorf("certsym-ref: bad integer %q in %s", e, k)
					}
					res.Arrays[k] = append(res.Arrays[k], n)
				}
				continue
			}
			n, ok := integer.Parse(string(v))
			if !ok {
				return res, fmt.Errorf("certsym-ref: bad integer %q for %s", v, k)
			}
			res.Store[k] = n
		}
	case "error":
		k, err := failKindOf(ans.Fail)
		if err != nil {
			return res, fmt.Errorf("certsym-ref: %v", err)
		}
		res.Fail = k
	case "final", "stuck":
	default:
		return res, fmt.Errorf("certsym-ref: unknown step kind %q", ans.Kind)
	}
	return res, nil
}

// SymSucc is one symbolic successor from the reference, decoded: path condition, store (every
// variable of the program; a variable the answer omits maps to its own symbol), the array term
// of every array of r.Arrays (an omitted array is its input array) and program.
type SymSucc struct {
	PC     syntax.BExpr
	Store  []syntax.AExpr
	Arrays []ArrTerm
	Prog   syntax.Stmt
	Raw    json.RawMessage
}

// Expand asks the reference for the symbolic successors of ⟨pc, store, prog⟩ (store: the term of
// each variable of vars, as JSON trees).
func (r *Client) Expand(pc json.RawMessage, store []json.RawMessage, vars []string, prog json.RawMessage) ([]SymSucc, error) {
	return r.ExpandA(pc, store, vars, nil, prog)
}

// ExpandA is Expand with the array terms of the state: arrays[i] is the term of r.Arrays[i]
// (nil or missing: the input array).
func (r *Client) ExpandA(pc json.RawMessage, store []json.RawMessage, vars []string, arrays []json.RawMessage, prog json.RawMessage) ([]SymSucc, error) {
	req := expandRequest{Op: "expand", Arrays: decls(r.Arrays), PC: pc, Store: make(map[string]json.RawMessage, len(store)+len(arrays)), Prog: prog}
	for i, t := range store {
		req.Store[vars[i]] = t
	}
	for i, t := range arrays {
		if t != nil && i < len(r.Arrays) {
			req.Store[r.Arrays[i].Name] = t
		}
	}
	var ans expandAnswer
	if err := r.call(req, &ans); err != nil {
		return nil, err
	}
	return ans.succs(vars, r.Arrays...)
}

// succs decodes the successors of an expand answer over the variables vars and arrays.
func (ans expandAnswer) succs(vars []string, arrays ...*syntax.Array) ([]SymSucc, error) {
	d := newDecoder(vars, arrays...)
	out := make([]SymSucc, len(ans.Succs))
	for i, s := range ans.Succs {
		pc, store, prog, err := d.decode(s, vars)
		if err != nil {
			return nil, fmt.Errorf("certsym-ref: successor %d: %w", i, err)
		}
		arrs, err := d.decodeArrays(s.Store, arrays)
		if err != nil {
			return nil, fmt.Errorf("certsym-ref: successor %d: %w", i, err)
		}
		out[i] = SymSucc{PC: pc, Store: store, Arrays: arrs, Prog: prog, Raw: s.Prog}
	}
	return out, nil
}

// Eval asks the reference for ⟦a⟧s (concrete evaluation, undefined when a divisor is 0): ok is
// false when the value is undefined.
func (r *Client) Eval(store ConcStore, order []string, a syntax.AExpr) (v integer.Int, ok bool, err error) {
	v, _, ok, err = r.EvalKind(store, nil, order, a)
	return v, ok, err
}

// EvalKind is Eval with the arrays of the store and the kind of the first error when the value
// is undefined (syntax.FailDivZero or syntax.FailIndex).
func (r *Client) EvalKind(store ConcStore, arrays ConcArrays, order []string, a syntax.AExpr) (v integer.Int, kind syntax.FailKind, ok bool, err error) {
	e, err := EncodeA(a)
	if err != nil {
		return v, 0, false, err
	}
	var ans evalAnswer
	if err := r.call(evalRequest{Op: "eval", Arrays: decls(r.Arrays), Store: concStoreA(store, arrays, order), E: e}, &ans); err != nil {
		return v, 0, false, err
	}
	v, ok, err = ans.value()
	if err == nil && !ok {
		kind, err = failKindOf(ans.Fail)
	}
	return v, kind, ok, err
}

// EvalBKind asks the reference for the value of a condition in a concrete store with arrays:
// the truth value, or (ok false) the kind of the first error.
func (r *Client) EvalBKind(store ConcStore, arrays ConcArrays, order []string, c syntax.BExpr) (v bool, kind syntax.FailKind, ok bool, err error) {
	b, err := EncodeB(c)
	if err != nil {
		return false, 0, false, err
	}
	var ans evalbAnswer
	if err := r.call(evalRequest{Op: "evalb", Arrays: decls(r.Arrays), Store: concStoreA(store, arrays, order), B: b}, &ans); err != nil {
		return false, 0, false, err
	}
	if ans.Value == nil {
		kind, err = failKindOf(ans.Fail)
		return false, kind, false, err
	}
	return *ans.Value, 0, true, nil
}

// value converts an eval answer: ok is false for null (undefined).
func (ans evalAnswer) value() (v integer.Int, ok bool, err error) {
	if ans.Value == nil {
		return v, false, nil
	}
	v, ok = integer.Parse(string(*ans.Value))
	if !ok {
		return v, false, fmt.Errorf("certsym-ref: bad integer %q", *ans.Value)
	}
	return v, true, nil
}
