// Package infer finds loop invariants automatically, for the proof mode (package prove) to
// check: candidates from a grammar of templates over the program's conditions, variables,
// constants and arrays (docs/infer.md), filtered by the concrete states at the loops' heads that
// runs of the concrete semantics reach (on random inputs and on the inputs of the bug finder's
// paths, in the manner of Daikon), linear equalities among the variables found by exact
// elimination over those states, and Houdini's fixpoint, which drops every candidate an oracle
// refutes on entry or finds not preserved until the rest is inductive.
//
// The oracle is a function (Oracle), so that the fixpoint is tested without the proof mode; the
// proof mode's oracle asks prove.Check about the candidates given beside the program.
package infer
