package hint

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"certsym/engine"
	"certsym/internal/budget"
	"certsym/internal/expect"
	"certsym/internal/testprog"
	"certsym/spec/syntax/parser"
)

// runWith runs the bug finder on src with opts and returns its report and hint.
func runWith(t *testing.T, src string, opts engine.Options) (*engine.Report, string) {
	t.Helper()
	prog := testprog.Parse(t, src)
	eng := engine.New(prog, opts)
	defer eng.Close()
	rep, err := eng.FindBugs(nil)
	if err != nil {
		t.Fatal(err)
	}
	return rep, Burst(eng, rep, opts)
}

// hintFlags reads the options a hint names: --burst K and --max-states N when it names them.
var hintFlags = regexp.MustCompile(`rerun with --burst (\d+)( --max-states 0)?:`)

// TestBurstHint: a run that the state bound stops on a loop over constants (the shape of SV-COMP's
// phases_1-2) ends with the hint, and the options it names find the bug the program annotates.
func TestBurstHint(t *testing.T) {
	const path = "testdata/phases_short.imp"
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	exp, err := expect.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	rep, tip := runWith(t, string(src), engine.Options{Limits: budget.Limits{MaxStates: 50_000}})
	if rep.Verdict != engine.VerdictUnknown || !strings.HasPrefix(rep.Reason, "state bound reached") {
		t.Fatalf("without the options: %v (%s), want the state bound", rep.Verdict, rep.Reason)
	}
	m := hintFlags.FindStringSubmatch(tip)
	if m == nil || m[2] == "" || strings.Count(tip, "\n") != 0 {
		t.Fatalf("hint %q, want one line naming --burst K --max-states 0", tip)
	}
	k, _ := strconv.Atoi(m[1])
	if got, want := strings.Join(strings.Fields(m[0][len("rerun with "):len(m[0])-1]), " "), strings.Join(exp.Options, " "); got != want {
		t.Errorf("the hint names %q, the program's header %q", got, want)
	}
	rep, tip = runWith(t, string(src), engine.Options{Burst: k})
	if rep.Verdict != engine.VerdictBug || len(rep.Bugs) != 1 || rep.Bugs[0].Fail.Line() != exp.Bugs[0].Line || rep.Bugs[0].Kind() != exp.Bugs[0].Kind {
		t.Fatalf("with --burst %d --max-states 0: %v %v, want the bug %v", k, rep.Verdict, rep.Reason, exp.Bugs)
	}
	if tip != "" {
		t.Errorf("a run with a verdict has the hint %q", tip)
	}
	if _, err := parser.Parse(path, src); err != nil {
		t.Fatal(err)
	}
}

// TestBurstHintNot: no hint where bursts would not help or do not apply: a loop whose every
// iteration reads an input, a frontier of more than MaxPending states, --burst already given,
// a strategy other than bfs and dfs, --no-prune.
func TestBurstHintNot(t *testing.T) {
	loop := "x = 0;\nwhile x < 100000000 do x = x + 1 od;\nassert x == 0\n"
	wide := "" // 2^10 paths before the loop
	for i := 0; i < 10; i++ {
		wide += fmt.Sprintf("if a%d > 0 then s = s + 1 fi;\n", i)
	}
	cases := []struct {
		name, src string
		opts      engine.Options
	}{
		{"symbolic loop", "i = 0;\nwhile i < n do i = i + 1; if i == n + 5 then fail fi od\n", engine.Options{}},
		{"wide frontier", wide + loop, engine.Options{}},
		{"burst given", loop, engine.Options{Burst: 1000}},
		{"coverage strategy", loop, engine.Options{Strategy: engine.Coverage}},
		{"no pruning", loop, engine.Options{NoPrune: true}},
	}
	for _, c := range cases {
		c.opts.MaxStates = 5_000
		rep, tip := runWith(t, c.src, c.opts)
		if rep.Verdict != engine.VerdictUnknown {
			t.Errorf("%s: verdict %v, want a run the state bound stops", c.name, rep.Verdict)
		}
		if tip != "" {
			t.Errorf("%s: hint %q", c.name, tip)
		}
	}
	// The same loop, with the bfs and dfs defaults, has the hint: the cases above differ from it
	// only in what they say.
	for _, s := range []engine.Strategy{engine.BFS, engine.DFS} {
		if _, tip := runWith(t, loop, engine.Options{Strategy: s, Limits: budget.Limits{MaxStates: 5_000}}); tip == "" {
			t.Errorf("the concrete loop under %v has no hint", s)
		}
	}
}
