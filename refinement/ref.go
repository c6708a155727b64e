package refinement

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"certsym/spec"
)

// Ref is one long-lived certsym-ref process (proofs/ref), driven over pipes: one JSON request per
// line, one answer per line. A Ref belongs to one goroutine.
type Ref struct {
	path  string
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Reader
	errb  *bytes.Buffer
	Calls int // requests answered
	// Timeout bounds each request (the reference is total and fast; a hang is an error).
	Timeout time.Duration
}

// DefaultRefPath returns the certsym-ref binary: $CERTSYM_REF if set, else
// proofs/ref/_build/certsym-ref of the module root found from the working directory.
func DefaultRefPath() string {
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

// StartRef starts the reference at path.
func StartRef(path string) (*Ref, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("certsym-ref not found at %s (build it with make -C proofs/coq check): %w", path, err)
	}
	r := &Ref{path: path, Timeout: 30 * time.Second, errb: &bytes.Buffer{}}
	if err := r.start(); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *Ref) start() error {
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
func (r *Ref) Close() {
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

// call sends one request and decodes the answer into out. A process that died or hung is
// restarted for the next request.
func (r *Ref) call(req []byte, out any) error {
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
		stderr := strings.TrimSpace(r.errb.String())
		r.Close()
		if to {
			return fmt.Errorf("certsym-ref did not answer within %v (request %.200s)", r.Timeout, req)
		}
		return fmt.Errorf("certsym-ref: %v (stderr %q, request %.200s)", err, stderr, req)
	}
	r.Calls++
	var head struct {
		OK    bool   `json:"ok"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal(line, &head); err != nil {
		return fmt.Errorf("certsym-ref answered non-JSON %.200q: %v", line, err)
	}
	if !head.OK {
		return fmt.Errorf("certsym-ref rejected the request %.300s: %s", req, head.Error)
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if err := dec.Decode(out); err != nil {
		return fmt.Errorf("decoding certsym-ref answer %.200q: %v", line, err)
	}
	return nil
}

// ConcStore is a concrete store of the protocol: variable name to value.
type ConcStore map[string]spec.Int

func writeConcStore(b *bytes.Buffer, s ConcStore, order []string) {
	b.WriteByte('{')
	first := true
	for _, k := range order {
		v, ok := s[k]
		if !ok {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString(strconv.Quote(k))
		b.WriteByte(':')
		b.WriteString(v.String())
	}
	b.WriteByte('}')
}

// StepResult is the answer to a step request: Kind is "next", "final", "error" or "stuck";
// Store and Prog are the successor for "next" (Prog as the reference's JSON tree).
type StepResult struct {
	Kind  string
	Store ConcStore
	Prog  json.RawMessage
}

// Step asks the reference for one concrete step from (store, prog). order lists the variable
// names (the store is written in that order; names outside it are dropped).
func (r *Ref) Step(store ConcStore, order []string, prog json.RawMessage) (StepResult, error) {
	var b bytes.Buffer
	b.WriteString(`{"op":"step","store":`)
	writeConcStore(&b, store, order)
	b.WriteString(`,"prog":`)
	b.Write(prog)
	b.WriteByte('}')
	var ans struct {
		Kind  string                 `json:"kind"`
		Store map[string]json.Number `json:"store"`
		Prog  json.RawMessage        `json:"prog"`
	}
	if err := r.call(b.Bytes(), &ans); err != nil {
		return StepResult{}, err
	}
	res := StepResult{Kind: ans.Kind, Prog: ans.Prog}
	switch ans.Kind {
	case "next":
		res.Store = ConcStore{}
		for k, v := range ans.Store {
			n, ok := spec.ParseInt(string(v))
			if !ok {
				return res, fmt.Errorf("certsym-ref: bad integer %q for %s", v, k)
			}
			res.Store[k] = n
		}
	case "final", "error", "stuck":
	default:
		return res, fmt.Errorf("certsym-ref: unknown step kind %q", ans.Kind)
	}
	return res, nil
}

// SymSucc is one symbolic successor from the reference, decoded: path condition, store (every
// variable of the program; a variable the answer omits maps to its own symbol) and program.
type SymSucc struct {
	PC    spec.BExpr
	Store []spec.AExpr
	Prog  spec.Stmt
	Raw   json.RawMessage
}

// Expand asks the reference for the symbolic successors of ⟨pc, store, prog⟩ (store: the term of
// each variable of vars, as JSON trees).
func (r *Ref) Expand(pc json.RawMessage, store []json.RawMessage, vars []string, prog json.RawMessage) ([]SymSucc, error) {
	var b bytes.Buffer
	b.WriteString(`{"op":"expand","pc":`)
	b.Write(pc)
	b.WriteString(`,"store":{`)
	for i, t := range store {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(vars[i]))
		b.WriteByte(':')
		b.Write(t)
	}
	b.WriteString(`},"prog":`)
	b.Write(prog)
	b.WriteByte('}')
	var ans struct {
		Succs []struct {
			PC    json.RawMessage            `json:"pc"`
			Store map[string]json.RawMessage `json:"store"`
			Prog  json.RawMessage            `json:"prog"`
		} `json:"succs"`
	}
	if err := r.call(b.Bytes(), &ans); err != nil {
		return nil, err
	}
	d := newDecoder(vars)
	out := make([]SymSucc, len(ans.Succs))
	for i, s := range ans.Succs {
		pcv, err := parseJSON(s.PC)
		if err != nil {
			return nil, fmt.Errorf("successor %d path condition: %w", i, err)
		}
		pm, ok := pcv.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("successor %d path condition is not an object", i)
		}
		if out[i].PC, err = d.b(pm); err != nil {
			return nil, fmt.Errorf("successor %d path condition: %w", i, err)
		}
		out[i].Store = make([]spec.AExpr, len(vars))
		for j, x := range vars {
			raw, ok := s.Store[x]
			if !ok {
				out[i].Store[j] = &spec.Var{Name: x, Index: j}
				continue
			}
			tv, err := parseJSON(raw)
			if err != nil {
				return nil, fmt.Errorf("successor %d store %s: %w", i, x, err)
			}
			tm, ok := tv.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("successor %d store %s is not an object", i, x)
			}
			if out[i].Store[j], err = d.a(tm); err != nil {
				return nil, fmt.Errorf("successor %d store %s: %w", i, x, err)
			}
		}
		for x := range s.Store {
			if _, ok := d.index[x]; !ok {
				return nil, fmt.Errorf("successor %d store has unknown variable %q", i, x)
			}
		}
		prog, err := decodeProg(s.Prog, d)
		if err != nil {
			return nil, fmt.Errorf("successor %d program: %w", i, err)
		}
		out[i].Prog, out[i].Raw = prog, s.Prog
	}
	return out, nil
}

func decodeProg(raw json.RawMessage, d *decoder) (spec.Stmt, error) {
	v, err := parseJSON(raw)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("program is not an object")
	}
	return d.p(m)
}

// Eval asks the reference for ⟦a⟧s (concrete evaluation, undefined when a divisor is 0): ok is
// false when the value is undefined.
func (r *Ref) Eval(store ConcStore, order []string, a spec.AExpr) (v spec.Int, ok bool, err error) {
	e, err := EncodeA(a)
	if err != nil {
		return v, false, err
	}
	var b bytes.Buffer
	b.WriteString(`{"op":"eval","store":`)
	writeConcStore(&b, store, order)
	b.WriteString(`,"e":`)
	b.Write(e)
	b.WriteByte('}')
	var ans struct {
		Value *json.Number `json:"value"`
	}
	if err := r.call(b.Bytes(), &ans); err != nil {
		return v, false, err
	}
	if ans.Value == nil {
		return v, false, nil
	}
	v, ok = spec.ParseInt(string(*ans.Value))
	if !ok {
		return v, false, fmt.Errorf("certsym-ref: bad integer %q", *ans.Value)
	}
	return v, true, nil
}
