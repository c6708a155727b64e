package auto

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"certsym/internal/budget"
	"certsym/prove"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

var verdictRE = regexp.MustCompile(`Expected verdict: unreach-call (true|false)`)

func parseFile(t testing.TB, path string) (*syntax.Program, string) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := parser.Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	m := verdictRE.FindSubmatch(src)
	if m == nil {
		t.Fatalf("%s: no expected verdict", path)
	}
	return p, string(m[1])
}

func svcompOptions() Options {
	return Options{Prove: prove.Options{Limits: budget.Limits{Timeout: 5 * time.Second}, ReachStates: 1000}, InferTime: 3 * time.Second}
}

// TestSvcomp runs inference and the proof mode on the tasks of testdata/svcomp (those whose
// name matches CERTSYM_SVCOMP, a regular expression; skipped when it is unset): no false task
// may be proved. With CERTSYM_SVCOMP_TABLE set, it writes the per-task table there.
func TestSvcomp(t *testing.T) {
	pat := os.Getenv("CERTSYM_SVCOMP")
	if pat == "" {
		t.Skip("CERTSYM_SVCOMP is not set")
	}
	re := regexp.MustCompile(pat)
	files, _ := filepath.Glob("../../testdata/svcomp/*.imp")
	var rows []string
	var times []time.Duration
	trueN, trueProved, falseN, falseProved := 0, 0, 0, 0
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".imp")
		if !re.MatchString(name) {
			continue
		}
		p, verdict := parseFile(t, f)
		start := time.Now()
		out, err := Prove(p, svcompOptions())
		el := time.Since(start)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		times = append(times, el)
		ans := out.Result.Answer
		if verdict == "true" {
			trueN++
			if ans == prove.Proved {
				trueProved++
			}
		} else {
			falseN++
			if ans == prove.Proved {
				falseProved++
				t.Errorf("%s: a false task proved", name)
			}
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %s | %.2f | %d | %d |", name, verdict, ans, el.Seconds(), out.Invariants.Size(), out.Infer.Houdini.Rounds))
		t.Logf("%s %s %s %.2fs inv=%d rounds=%d %s", name, verdict, ans, el.Seconds(), out.Invariants.Size(), out.Infer.Houdini.Rounds, out.Result.Reason)
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	med := time.Duration(0)
	if len(times) > 0 {
		med = times[len(times)/2]
	}
	summary := fmt.Sprintf("true tasks proved: %d of %d; false tasks proved: %d of %d; median time %.2fs", trueProved, trueN, falseProved, falseN, med.Seconds())
	t.Log(summary)
	if path := os.Getenv("CERTSYM_SVCOMP_TABLE"); path != "" {
		text := summary + "\n\n| task | verdict | answer | time (s) | invariants | Houdini rounds |\n|---|---|---|---|---|---|\n" + strings.Join(rows, "\n") + "\n"
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
