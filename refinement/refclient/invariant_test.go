package refclient

import (
	"testing"

	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// TestDesugarInvariantsInStep: the reference's form of a loop with invariant clauses is
// skip ; (the engine's Entry), so the one step [S-While-Inv] takes (the loop to its Entry) is
// the reference's [S-SeqSkip]; the loop that runs (While.Loop) prints as the reference's loop;
// and the encoding decodes to a program of the same canonical text, without the clauses' kind.
func TestDesugarInvariantsInStep(t *testing.T) {
	p, err := parser.Parse("t.imp", []byte("array a[0..2];\ni = 0;\nwhile i <= 2 invariant i >= 0 invariant forall k in 0..i - 1: a[k] == 0 do a[i] = 0; i = i + 1 od"))
	if err != nil {
		t.Fatal(err)
	}
	w := p.Body.(*syntax.Seq).Second.(*syntax.While)
	if got, want := Canon(w), "skip; "+Canon(w.Entry); got != want {
		t.Errorf("the loop's reference form\n %s\nis not skip ; its Entry\n %s", got, want)
	}
	want := "while i <= 2 do { a[i] = 0; i = i + 1; if i >= 0 then { skip } else { fail } fi; " +
		"if forall k in 0..i - 1: a[k] == 0 then { skip } else { fail } fi } od"
	if got := Canon(w.Loop); got != want {
		t.Errorf("the loop that runs prints\n %s\nwant\n %s", got, want)
	}
	raw, err := EncodeStmt(p.Body)
	if err != nil {
		t.Fatal(err)
	}
	back, err := decodeProg(raw, newDecoder(p.Vars, p.Arrays...))
	if err != nil {
		t.Fatal(err)
	}
	if Canon(back) != Canon(p.Body) {
		t.Errorf("round trip: %s\nwant %s", Canon(back), Canon(p.Body))
	}
	if failKindName(syntax.FailInvariant) != "" {
		t.Errorf("an invariant clause's fail is sent with kind %q, want none (the reference's plain fail)", failKindName(syntax.FailInvariant))
	}
}
