package mergesearch

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"certsym/engine"
	"certsym/internal/expect"
	"certsym/internal/testprog"
	"certsym/spec/syntax/parser"
)

// corpusOptions are the engine options of certsym run with the options of a corpus program's
// header (expect.File.Options), its state bound 20,000 unless it gives one (as the corpus golden
// test runs it); ok is false for a program whose options merging does not take (another strategy).
func corpusOptions(t *testing.T, opts []string) (o engine.Options, ok bool) {
	o.MaxStates = 20_000
	for i := 0; i < len(opts); i++ {
		arg := func() int {
			i++
			if i >= len(opts) {
				t.Fatalf("option %s without its value", opts[i-1])
			}
			n, err := strconv.Atoi(opts[i])
			if err != nil {
				t.Fatalf("option %s %s: %v", opts[i-1], opts[i], err)
			}
			return n
		}
		switch opts[i] {
		case "--all-bugs":
			o.AllBugs = true
		case "--no-prune":
			o.NoPrune = true
		case "--max-states":
			o.MaxStates = arg()
		case "--rlimit":
			o.Limits.RLimit = uint(arg())
		case "--strategy":
			return o, false
		default:
			t.Fatalf("corpus option %s: not known to this test", opts[i])
		}
	}
	return o, true
}

// TestCorpusSameAnswers: on every program of testdata/ and of the PyWiSE corpus, the run with
// merging gives the verdict of the run without it and reports the same bugs (statement, kind and
// order), each with an input that replays to its error (the inputs may differ); the programs
// run with their header's options (all bugs, state bounds), but those of another strategy than
// bfs, which merging does not take.
func TestCorpusSameAnswers(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: the corpus-wide comparison runs every program twice")
	}
	files := testprog.Corpus(t)
	merged := 0
	for _, f := range files {
		exp, err := expect.Read(f)
		if err != nil {
			// a program whose annotations the reader rejects (some of the PyWiSE corpus): its
			// header's options still apply when it has some
			exp = &expect.File{}
		}
		opts, ok := corpusOptions(t, exp.Options)
		if !ok {
			continue
		}
		p, err := parser.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		answer := func(merging bool) (string, *Searcher) {
			o := opts
			var ms *Searcher
			if merging {
				o.Merge = Option(&ms)
			}
			e := engine.New(p, o)
			defer e.Close()
			rep, err := e.FindBugs(nil)
			if err != nil {
				t.Fatalf("%s (merging %v): %v", f, merging, err)
			}
			var bugs []string
			for _, b := range rep.Bugs {
				if merging {
					checkOwnPath(t, p, b)
				}
				bugs = append(bugs, fmt.Sprintf("%s@%d:%d", b.Kind(), b.Fail.Pos().Line, b.Fail.Pos().Col))
			}
			return fmt.Sprintf("%s [%s]", rep.Verdict, strings.Join(bugs, " ")), ms
		}
		plain := func() string { a, _ := answer(false); return a }()
		withMerge, ms := answer(true)
		if plain != withMerge {
			t.Errorf("%s: without merging %s, with merging %s", filepath.Base(f), plain, withMerge)
		}
		if ms.Stats.Merges > 0 {
			merged++
		}
	}
	if merged < 12 { // the comparison must see merges (more than a dozen programs have some)
		t.Errorf("merging merged states in %d programs of the corpus, want at least 12", merged)
	}
}
