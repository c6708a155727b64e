package prover

// #cgo LDFLAGS: -lz3
// #include <z3.h>
import "C"

// Z3Allocated is the memory Z3 has allocated and not yet freed, in bytes, over all the contexts
// of the process (Z3_get_estimated_alloc_size): the engines', the bounded interpreters', verify's
// and the layer's own. The Go heap's figures do not show it: a Z3 context lives in C memory, and
// the Go side holds only small handles to it.
func Z3Allocated() uint64 { return uint64(C.Z3_get_estimated_alloc_size()) }
