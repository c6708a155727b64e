// Package z3worker runs Z3 solvers in a context of their own, served by a goroutine of their
// own, so that a query Z3 does not stop can be abandoned: the caller gets an unknown answer once
// the query's time bound and a grace period have passed, and goes on with a new Worker.
//
// Z3 stops a query at its time bound only where it polls for interrupts (ctx.Interrupt, rlimit).
// Some computations do not poll: Z3 4.8.12 spends minutes in the preprocessing of high powers
// (x^32 >= 7, (x + 1)^128 == 7) without looking at the interrupt flag, inside Z3_solver_assert
// or Z3_solver_check. No bound of the caller would hold while its own goroutine sits in such a
// call, so the calls that can run long (assertions, checks, models) run on the worker's goroutine
// and the caller waits for them with a deadline.
//
// The worker's context is separate from the context in which the caller builds its formulas
// (the source context, a go-z3 *z3.Context): formulas are copied into it (Z3_translate) on the
// worker's goroutine, under the source context's lock. The worker's context has no go-z3
// objects, so no go-z3 finalizer ever waits for it: an abandoned query blocks nothing but its
// own thread. That thread is given the lowest CPU priority when it is abandoned and exits, with
// its context freed, when Z3 returns; at most MaxAbandoned abandoned queries run at once in the
// process (Abandoned), after which Check answers unknown without starting a query.
package z3worker

/*
#cgo LDFLAGS: -lz3
#include <stdlib.h>
#include <z3.h>

// zw_context makes the worker's context: models on, and no error handler (Z3's default one
// exits the process): errors are read with Z3_get_error_code after each call.
static Z3_context zw_context(void) {
	Z3_config cfg = Z3_mk_config();
	Z3_set_param_value(cfg, "model", "true");
	Z3_context c = Z3_mk_context_rc(cfg);
	Z3_del_config(cfg);
	Z3_set_error_handler(c, NULL);
	return c;
}

// zw_solver makes a solver with the parameter ctrl_c false: with it true (Z3's default), each
// check takes over the process's SIGINT handler for the length of the query.
static Z3_solver zw_solver(Z3_context c) {
	Z3_solver s = Z3_mk_solver(c);
	if (Z3_get_error_code(c) != Z3_OK) return NULL;
	Z3_solver_inc_ref(c, s);
	Z3_params p = Z3_mk_params(c);
	Z3_params_inc_ref(c, p);
	Z3_params_set_bool(c, p, Z3_mk_string_symbol(c, "ctrl_c"), false);
	Z3_solver_set_params(c, s, p);
	Z3_params_dec_ref(c, p);
	return s;
}

// zw_translate copies a from the source context into c, with a reference held.
static Z3_ast zw_translate(Z3_context src, Z3_ast a, Z3_context c) {
	Z3_ast r = Z3_translate(src, a, c);
	if (r != NULL && Z3_get_error_code(c) == Z3_OK) Z3_inc_ref(c, r);
	return r;
}

// zw_value reads x's value in m (completed) as an int64 when it fits (*small set), else as a
// decimal string (returned, to be copied before the next call).
static Z3_string zw_value(Z3_context c, Z3_model m, Z3_ast x, int64_t *v, int *small) {
	Z3_ast out = NULL;
	*small = 0;
	if (!Z3_model_eval(c, m, x, true, &out) || out == NULL) return NULL;
	Z3_inc_ref(c, out);
	Z3_string s = NULL;
	if (Z3_get_numeral_int64(c, out, v)) {
		*small = 1;
	} else if (Z3_get_ast_kind(c, out) == Z3_NUMERAL_AST) {
		s = Z3_get_numeral_string(c, out);
	}
	Z3_dec_ref(c, out);
	return s;
}

// zw_select makes (select a j) in c, with a reference held.
static Z3_ast zw_select(Z3_context c, Z3_ast a, int64_t j) {
	Z3_ast r = Z3_mk_select(c, a, Z3_mk_int64(c, j, Z3_mk_int_sort(c)));
	if (r != NULL && Z3_get_error_code(c) == Z3_OK) Z3_inc_ref(c, r);
	return r;
}

static void zw_set_error_ok(Z3_context c) { Z3_set_error(c, Z3_OK); }
*/
import "C"

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"github.com/aclements/go-z3/z3"

	"certsym/spec/integer"
)

// MaxAbandoned is the most abandoned queries that may run at once in the process: each holds a
// thread (at the lowest priority) and its memory until Z3 returns.
const MaxAbandoned = 4

// abandoned counts the abandoned queries still running, in the process.
var abandoned atomic.Int32

// Abandoned is the number of abandoned queries still running in the process.
func Abandoned() int { return int(abandoned.Load()) }

// Status is a check's answer.
type Status uint8

// The answers: satisfiable, unsatisfiable, undecided (Result.Reason says why).
const (
	Unknown Status = iota
	Sat
	Unsat
)

// Bounds bound one Check: Z3's rlimit (0: left as it is), the time after which the context is
// interrupted (0: none), and the grace after the interrupt (the time bound's or Interrupt's)
// after which a query that has not returned is abandoned.
type Bounds struct {
	RLimit uint
	Limit  time.Duration
	Grace  time.Duration
}

// Result is a Check's outcome. Model holds a value for each of the worker's symbols when Status
// is Sat. Reason is Z3's reason for an unknown answer ("canceled" after an interrupt or the
// rlimit). TimedOut says that the time bound interrupted the query. Abandoned says that the query
// did not return within the grace: the Worker is dead (every later call answers unknown with
// Err) and the caller goes on with a new one. Err is a Z3 error (the query is undecided).
type Result struct {
	Status    Status
	Model     []integer.Int
	Reason    string
	TimedOut  bool
	Abandoned bool
	Err       error
}

// ErrBusy is the error of a Check refused because MaxAbandoned abandoned queries are running.
var ErrBusy = errors.New("too many abandoned solver queries still running")

// Solver names one of a worker's solvers (NewSolver).
type Solver int

// Worker is a Z3 context of its own with its solvers, served by a goroutine of its own (the
// caller's handle on it). Its methods belong to one goroutine (the caller's); only Interrupt may
// be called from any. Push, Pop, Assert and Reset are queued and run, in order, at the next Check
// on the worker's goroutine. A Worker collected without Close is closed by its finalizer. Each
// worker makes a new context, never one used before: Z3's choices depend on the terms a context
// has made, and a fresh context keeps a run's answers and models the same from one run to the
// next in one process.
type Worker struct {
	w       *worker
	use     uint64 // the worker's use this handle is (worker.use)
	pending []op
	nsolver int
	dead    bool // abandoned or closed: every Check answers unknown
}

type op struct {
	kind opKind
	s    Solver
	n    int
	x    z3.Bool
}

type opKind uint8

const (
	opNew opKind = iota
	opPush
	opPop
	opAssert
	opReset
)

// worker is a context and the goroutine that serves it.
type worker struct {
	// The source of the formulas, read by the goroutine in the batches.
	src     *z3.Context
	srcC    C.Z3_context
	srcLock *sync.Mutex
	syms    []z3.Int
	arrs    []Array

	reqs chan *batch
	intr chan struct{} // Interrupt's signal to a waiting Check (buffered, 1)

	// mu guards c (nil once freed) and use (counted up when the handle is closed or abandons a
	// query) against Interrupt.
	mu  sync.Mutex
	c   C.Z3_context
	use uint64
	tid atomic.Int32 // the thread running the current batch (0 between batches)
	// checking is set while Z3_solver_check runs: only then does Interrupt reach Z3. An interrupt
	// that arrives while a batch's operations run (or between batches) is held in held instead,
	// and the batch's check answers unknown without running. Z3 4.8.12 does not stop an assertion
	// or a translation cleanly when interrupted: a canceled one can be lost without an error, and
	// the check that follows then answers for fewer assertions than were made (a "sat" whose model
	// breaks the query was seen when a run's deadline fell inside a batch).
	checking, held bool

	// Held by the worker's goroutine only.
	solvers []C.Z3_solver
	symsC   []C.Z3_ast
	arrsC   []C.Z3_ast // the arrays' constants, copied
}

// batch is one Check's work. state goes from running to done (the worker's goroutine finished
// it: out holds the result) or to given up (the caller abandoned it), whichever comes first.
type batch struct {
	ops    []op
	s      Solver
	rlimit uint
	out    chan Result
	state  atomic.Int32
}

const (
	running int32 = iota
	done
	givenUp
)

// Array is an array of the source context whose elements Lo, ..., Lo+Len-1 are symbols of a
// worker, after its scalar ones: the worker makes each (select Const j) in its own context.
type Array struct {
	Const z3.Array
	Lo    int64
	Len   int
}

// New starts a worker, with a context of its own, whose models give the values of syms, then of
// the elements of arrs, formulas of the context src.
func New(src *z3.Context, syms []z3.Int, arrs []Array) *Worker {
	w := &worker{src: src, srcC: contextHandle(src), srcLock: contextLock(src), syms: syms, arrs: arrs,
		reqs: make(chan *batch), intr: make(chan struct{}, 1), use: 1}
	w.c = C.zw_context()
	go w.serve(w.reqs)
	h := &Worker{w: w, use: 1}
	runtime.SetFinalizer(h, (*Worker).Close)
	return h
}

// NewSolver adds a solver to the worker.
func (h *Worker) NewSolver() Solver {
	s := Solver(h.nsolver)
	h.nsolver++
	h.pending = append(h.pending, op{kind: opNew, s: s})
	return s
}

// Push pushes a scope on s.
func (h *Worker) Push(s Solver) { h.pending = append(h.pending, op{kind: opPush, s: s}) }

// Pop pops n scopes of s.
func (h *Worker) Pop(s Solver, n int) { h.pending = append(h.pending, op{kind: opPop, s: s, n: n}) }

// Assert asserts x (a formula of the source context) in s.
func (h *Worker) Assert(s Solver, x z3.Bool) {
	h.pending = append(h.pending, op{kind: opAssert, s: s, x: x})
}

// Reset empties s.
func (h *Worker) Reset(s Solver) { h.pending = append(h.pending, op{kind: opReset, s: s}) }

// Dead reports whether the worker was abandoned or closed: a new one must take its place.
func (h *Worker) Dead() bool { return h.dead }

// Check runs the queued operations, then checks s within b, and reads the model when it is
// satisfiable. When the query has not returned b.Grace after its time bound or after Interrupt,
// it is abandoned (Result.Abandoned) and the worker is dead.
func (h *Worker) Check(s Solver, b Bounds) Result {
	w := h.w
	if h.dead {
		return Result{Err: errors.New("the solver was abandoned or closed")}
	}
	if int(abandoned.Load()) >= MaxAbandoned {
		return Result{Err: ErrBusy}
	}
	select { // an interrupt between queries is the caller's to see, not this query's
	case <-w.intr:
	default:
	}
	w.mu.Lock()
	w.held = false
	w.mu.Unlock()
	bt := &batch{ops: h.pending, s: s, rlimit: b.RLimit, out: make(chan Result, 1)}
	h.pending = nil
	var fired atomic.Bool
	var timer *time.Timer
	if b.Limit > 0 {
		timer = time.AfterFunc(b.Limit, func() { fired.Store(true); h.interrupt() })
	}
	w.reqs <- bt
	// The query is given up at giveUpAt: Grace after its time bound, or after the first
	// Interrupt when that is sooner (later ones, which the caller may repeat, change nothing).
	var giveUpAt time.Time
	var giveUp <-chan time.Time
	var t *time.Timer
	defer func() {
		if t != nil {
			t.Stop()
		}
	}()
	setGiveUp := func(at time.Time) {
		if !giveUpAt.IsZero() && !at.Before(giveUpAt) {
			return
		}
		giveUpAt = at
		if t != nil {
			t.Stop()
		}
		t = time.NewTimer(time.Until(at))
		giveUp = t.C
	}
	if b.Limit > 0 {
		setGiveUp(time.Now().Add(b.Limit + b.Grace))
	}
	interrupted := false
	for {
		select {
		case r := <-bt.out:
			if timer != nil {
				timer.Stop()
			}
			r.TimedOut = fired.Load()
			return r
		case <-w.intr:
			if !interrupted {
				interrupted = true
				setGiveUp(time.Now().Add(b.Grace))
			}
		case <-giveUp:
			if !bt.state.CompareAndSwap(running, givenUp) {
				giveUp = nil // finished meanwhile: the result is on its way
				continue
			}
			h.abandon()
			return Result{Abandoned: true, TimedOut: fired.Load(), Reason: "abandoned"}
		}
	}
}

// abandon gives up the running batch: the worker is dead, its thread gets the lowest priority,
// and its goroutine frees the context and exits when Z3 returns.
func (h *Worker) abandon() {
	h.dead = true
	abandoned.Add(1)
	h.w.mu.Lock()
	h.w.use++ // the handle's Interrupt no longer reaches it
	h.w.mu.Unlock()
	if tid := int(h.w.tid.Load()); tid > 0 {
		_ = syscall.Setpriority(syscall.PRIO_PROCESS, tid, 19) // best effort
	}
}

// Interrupt interrupts the running query (safe from any goroutine, at any time, also after
// Close, when it does nothing): Check answers unknown, or abandons the query after its grace.
func (h *Worker) Interrupt() {
	if h.interrupt() {
		select {
		case h.w.intr <- struct{}{}:
		default:
		}
	}
}

// interrupt interrupts the worker's context while the handle's use lasts, and reports whether
// it did.
func (h *Worker) interrupt() bool {
	w := h.w
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.use != h.use || w.c == nil {
		return false
	}
	if w.checking {
		C.Z3_interrupt(w.c)
	} else {
		w.held = true
	}
	return true
}

// Close frees the worker's context and ends its goroutine (at once when it is idle; after an
// abandoned query, when Z3 returns). Calls after Close answer unknown.
func (h *Worker) Close() {
	if h.dead {
		return
	}
	h.dead = true
	runtime.SetFinalizer(h, nil)
	h.w.mu.Lock()
	h.w.use++ // the handle's Interrupt no longer reaches it
	h.w.mu.Unlock()
	close(h.w.reqs)
}

// serve is the worker's goroutine: it runs the batches until the worker is closed or a batch is
// abandoned, then frees the context.
func (w *worker) serve(reqs <-chan *batch) {
	for bt := range reqs {
		// The thread is wired to this goroutine while Z3 runs: a thread whose query is abandoned
		// gets the lowest priority, and must exit with the goroutine rather than serve others.
		runtime.LockOSThread()
		w.tid.Store(int32(syscall.Gettid()))
		r := w.run(bt)
		if !bt.state.CompareAndSwap(running, done) {
			w.free()
			abandoned.Add(-1)
			return // the thread, still wired, exits with the goroutine
		}
		w.tid.Store(0)
		runtime.UnlockOSThread()
		bt.out <- r
	}
	w.free()
}

// symbols makes the worker's copies of the symbols first, as the source context made them first
// (Z3's choices follow the order in which terms were made, and the same order keeps its answers
// within the bounds the same as in the source context): the scalar ones, copied, then each
// array's constant, copied, and its elements (select A j), made here.
func (w *worker) symbols() error {
	for i := range w.syms {
		x, err := w.translate(valueHandle(unsafe.Pointer(&w.syms[i])))
		if err != nil {
			return err
		}
		w.symsC = append(w.symsC, x)
	}
	for k := range w.arrs {
		a, err := w.translate(valueHandle(unsafe.Pointer(&w.arrs[k].Const)))
		if err != nil {
			return err
		}
		w.arrsC = append(w.arrsC, a)
		for j := 0; j < w.arrs[k].Len; j++ {
			x := C.zw_select(w.c, a, C.int64_t(w.arrs[k].Lo+int64(j)))
			if err := zerr(w.c); err != nil {
				return err
			}
			w.symsC = append(w.symsC, x)
		}
	}
	runtime.KeepAlive(w.syms)
	runtime.KeepAlive(w.arrs)
	return nil
}

// free frees the solvers, the symbols' copies and the context.
func (w *worker) free() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, s := range w.solvers {
		C.Z3_solver_dec_ref(w.c, s)
	}
	for _, x := range append(w.symsC, w.arrsC...) {
		C.Z3_dec_ref(w.c, x)
	}
	C.Z3_del_context(w.c)
	w.c, w.solvers, w.symsC, w.arrsC = nil, nil, nil, nil
}

// zerr returns the error Z3 recorded in c by the last call, and clears it.
func zerr(c C.Z3_context) error {
	code := C.Z3_get_error_code(c)
	if code == C.Z3_OK {
		return nil
	}
	msg := C.GoString(C.Z3_get_error_msg(c, code))
	C.zw_set_error_ok(c)
	return fmt.Errorf("Z3: %s", msg)
}

// run runs one batch on the worker's goroutine. A panic (a defect of the caller's batch: a solver
// that was never made) is the batch's error, not the process's end.
func (w *worker) run(bt *batch) (r Result) {
	defer func() {
		if p := recover(); p != nil {
			r = Result{Err: fmt.Errorf("z3worker: %v", p)}
		}
	}()
	c := w.c
	if w.symsC == nil && len(w.syms)+len(w.arrs) > 0 {
		if err := w.symbols(); err != nil {
			return Result{Err: err}
		}
	}
	for _, o := range bt.ops {
		if err := w.apply(o); err != nil {
			return Result{Err: err}
		}
	}
	s := w.solvers[bt.s]
	if bt.rlimit > 0 {
		name, val := C.CString("rlimit"), C.CString(strconv.FormatUint(uint64(bt.rlimit), 10))
		C.Z3_update_param_value(c, name, val)
		C.free(unsafe.Pointer(name))
		C.free(unsafe.Pointer(val))
		if err := zerr(c); err != nil {
			return Result{Err: err}
		}
	}
	w.mu.Lock()
	if w.held { // interrupted before the check: see worker.checking
		w.mu.Unlock()
		return Result{Status: Unknown, Reason: "canceled"}
	}
	w.checking = true
	w.mu.Unlock()
	res := C.Z3_solver_check(c, s)
	w.mu.Lock()
	w.checking = false
	w.mu.Unlock()
	if err := zerr(c); err != nil {
		return Result{Err: err}
	}
	switch res {
	case C.Z3_L_FALSE:
		return Result{Status: Unsat}
	case C.Z3_L_UNDEF:
		reason := C.GoString(C.Z3_solver_get_reason_unknown(c, s))
		if err := zerr(c); err != nil {
			return Result{Err: err}
		}
		return Result{Status: Unknown, Reason: reason}
	}
	model, err := w.model(s)
	if err != nil {
		return Result{Err: err}
	}
	return Result{Status: Sat, Model: model}
}

// apply runs one queued operation.
func (w *worker) apply(o op) error {
	c := w.c
	switch o.kind {
	case opNew:
		s := C.zw_solver(c)
		if err := zerr(c); err != nil || s == nil {
			return errors.Join(err, errors.New("Z3: cannot make a solver"))
		}
		w.solvers = append(w.solvers, s)
		return nil
	case opPush:
		C.Z3_solver_push(c, w.solvers[o.s])
	case opPop:
		C.Z3_solver_pop(c, w.solvers[o.s], C.uint(o.n))
	case opReset:
		C.Z3_solver_reset(c, w.solvers[o.s])
	case opAssert:
		x, err := w.translate(valueHandle(unsafe.Pointer(&o.x)))
		runtime.KeepAlive(o.x)
		if err != nil {
			return err
		}
		C.Z3_solver_assert(c, w.solvers[o.s], x)
		C.Z3_dec_ref(c, x)
	default:
		panic(fmt.Sprintf("z3worker: unknown operation %d", o.kind))
	}
	return zerr(c)
}

// translate copies a, an AST of the source context, into the worker's (a reference held), under
// the source context's lock (go-z3's finalizers free the source's ASTs under it).
func (w *worker) translate(a C.Z3_ast) (C.Z3_ast, error) {
	w.srcLock.Lock()
	x := C.zw_translate(w.srcC, a, w.c)
	w.srcLock.Unlock()
	runtime.KeepAlive(w.src)
	if err := zerr(w.c); err != nil {
		return nil, err
	}
	return x, nil
}

// model reads the value of each symbol in s's model (completed: a symbol the model leaves free
// is 0).
func (w *worker) model(s C.Z3_solver) ([]integer.Int, error) {
	c := w.c
	m := C.Z3_solver_get_model(c, s)
	if err := zerr(c); err != nil {
		return nil, err
	}
	C.Z3_model_inc_ref(c, m)
	defer C.Z3_model_dec_ref(c, m)
	out := make([]integer.Int, len(w.symsC))
	for i, x := range w.symsC {
		var v C.int64_t
		var small C.int
		str := C.zw_value(c, m, x, &v, &small)
		if err := zerr(c); err != nil {
			return nil, err
		}
		switch {
		case small != 0:
			out[i] = integer.Of(int64(v))
		case str != nil:
			if n, ok := integer.Parse(C.GoString(str)); ok {
				out[i] = n
			}
		}
	}
	return out, nil
}

// The layouts of go-z3's values and contexts (at the pinned version
// v0.0.0-20220809013456-4675d5f90ca5): a value starts with a pointer to a struct holding its
// context and its C handle; a context starts with a pointer to a struct holding its C handle, and
// has a field lock, the mutex under which go-z3 calls Z3 (its finalizers included). go-z3
// exposes none of them; TestLayouts checks the mirrors.
type valueMirror struct {
	impl *struct {
		ctx *z3.Context
		c   C.Z3_ast
	}
}

type contextMirror struct{ impl *struct{ c C.Z3_context } }

func valueHandle(p unsafe.Pointer) C.Z3_ast { return (*valueMirror)(p).impl.c }

func contextHandle(ctx *z3.Context) C.Z3_context {
	return (*contextMirror)(unsafe.Pointer(ctx)).impl.c
}

// contextLock returns go-z3's lock of ctx, found by name and type (a panic names the field when
// the pinned version changes it).
func contextLock(ctx *z3.Context) *sync.Mutex {
	f := reflect.ValueOf(ctx).Elem().FieldByName("lock")
	if !f.IsValid() || f.Type() != reflect.TypeOf(sync.Mutex{}) {
		panic("z3worker: go-z3's Context has no field lock of type sync.Mutex (the layout of the pinned version changed)")
	}
	return (*sync.Mutex)(unsafe.Pointer(f.UnsafeAddr()))
}
