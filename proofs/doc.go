// Package proofs holds no code: its test (table_test.go) keeps the correspondence table of
// docs/proofs.md true. Each name the table gives for a rule or a theorem, Coq (proofs/coq), Why3
// (proofs/why3) or Go (spec/, engine/), must be declared in the file the table names.
package proofs
