package z3query

/*
#cgo LDFLAGS: -lz3
#include <z3.h>

// certsym_no_ctrl_c sets the solver parameter ctrl_c to false. With it true (Z3's default for
// Z3_solver_check), each check replaces the process's SIGINT handler by Z3's own for the length of
// the query and restores it afterwards with signal(2), without the flags Go's handler needs:
// an interrupt during a query is swallowed (the query answers unknown and the run goes on), and
// Go's signal handling is left broken.
static void certsym_no_ctrl_c(Z3_context c, Z3_solver s) {
	Z3_params p = Z3_mk_params(c);
	Z3_params_inc_ref(c, p);
	Z3_params_set_bool(c, p, Z3_mk_string_symbol(c, "ctrl_c"), false);
	Z3_solver_set_params(c, s, p);
	Z3_params_dec_ref(c, p);
}
*/
import "C"

import (
	"runtime"
	"unsafe"

	"github.com/aclements/go-z3/z3"
)

// The layouts of go-z3's Context and Solver (at the pinned version
// v0.0.0-20220809013456-4675d5f90ca5): each starts with a pointer to a struct holding the C
// handle. go-z3 exposes no way to set a solver parameter, so NoCtrlC reads the handles through
// these mirrors; TestNoCtrlC and the signal tests of cmd/certsym check the result.
type z3ContextMirror struct{ impl *struct{ c C.Z3_context } }
type z3SolverMirror struct {
	impl *struct {
		ctx *z3.Context
		c   C.Z3_solver
	}
}

// NoCtrlC stops Z3 from taking over SIGINT while s checks: interrupts are certsym's to handle
// (budget.Monitor.Interrupt interrupts the context).
func NoCtrlC(ctx *z3.Context, s *z3.Solver) {
	c := (*z3ContextMirror)(unsafe.Pointer(ctx)).impl.c
	sv := (*z3SolverMirror)(unsafe.Pointer(s)).impl.c
	C.certsym_no_ctrl_c(c, sv)
	runtime.KeepAlive(ctx)
	runtime.KeepAlive(s)
}
