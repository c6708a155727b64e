package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"certsym/cmd/certsym/internal/jsonout"
	"certsym/cmd/certsym/internal/shard"
)

// bugKey is what the shard tests compare of a bug: its error, place, path condition and
// length. The input is a model of the path condition, which the solver's caches may pick
// differently in a shard (each shard asks other queries before).
type bugKey struct {
	Line, Column int
	Kind, PC     string
	Steps        int
}

func keysOf(bs []jsonout.Bug) []bugKey {
	var ks []bugKey
	for _, b := range bs {
		ks = append(ks, bugKey{b.Line, b.Column, b.Kind, b.PathCondition, b.Steps})
	}
	return ks
}

func shardKeys(bs []shard.Bug) []jsonout.Bug {
	var out []jsonout.Bug
	for _, b := range bs {
		out = append(out, jsonout.Bug{Line: b.Line, Column: b.Column, Kind: b.Kind, PathCondition: b.PathCondition, Steps: b.Steps})
	}
	return out
}

// runShards runs the n shards of certsym run on file in-process (--json), writes their reports
// in dir and merges them; it returns the merged report, merge's exit status, the sum of the
// shards' states and the states above the split (which each shard expands).
func runShards(t *testing.T, dir, file string, n int, extra []string) (*shard.Merged, int, int, int) {
	t.Helper()
	var files []string
	states, shared, done0 := 0, 0, false
	for i := 0; i < n; i++ {
		var stdout, stderr bytes.Buffer
		args := append(append([]string{"run", file}, extra...), "--shard", fmt.Sprintf("%d/%d", i, n), "--json", "--quiet")
		code := run(args, &stdout, &stderr)
		if code == exitUsage || code == exitInternal {
			t.Fatalf("certsym %v: exit %d: %s", args, code, stderr.String())
		}
		var r shard.Report
		if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
			t.Fatalf("certsym %v: %v", args, err)
		}
		states += r.States
		if i == 0 {
			shared, done0 = r.Shard.Shared, r.Shard.Finished && r.Verdict != "bug"
		} else if r.Shard.Shared != shared && done0 && r.Shard.Finished && r.Verdict != "bug" {
			t.Errorf("%s: shard %d/%d expanded %d states above the split, shard 0 %d: every shard expands the same ones", file, i, n, r.Shard.Shared, shared)
		}
		f := filepath.Join(dir, fmt.Sprintf("shard%d.json", i))
		if err := os.WriteFile(f, stdout.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"merge", "--json"}, files...), &stdout, &stderr)
	var m shard.Merged
	if err := json.Unmarshal(stdout.Bytes(), &m); err != nil {
		t.Fatalf("certsym merge: exit %d, %v: %s %s", code, err, stdout.String(), stderr.String())
	}
	return &m, code, states, shared
}

// shardSplits are the ways TestShardMergeEqualsRun splits a program: 2, 3 and 4 shards, each at
// the default split level and at split level 1 or 2, which splits even the small programs.
var shardSplits = []struct {
	n     int
	level string
}{{2, ""}, {2, "1"}, {3, ""}, {3, "1"}, {4, ""}, {4, "2"}}

// splitsFor returns the splits TestShardMergeEqualsRun tries on the i-th program: with
// CERTSYM_SHARD_SWEEP set, all six; otherwise two, rotating with i so that the corpus as a whole
// covers every split (a different shard count and a different level for each program) at a third
// of the cost of the sweep.
func splitsFor(i int) []int {
	if os.Getenv("CERTSYM_SHARD_SWEEP") != "" {
		return []int{0, 1, 2, 3, 4, 5}
	}
	return []int{i % 6, (i + 3) % 6}
}

// TestShardMergeEqualsRun runs every testdata program as 2, 3 or 4 shards (the splits of
// splitsFor: every split on every program with CERTSYM_SHARD_SWEEP, which make check-shards sets,
// two per program otherwise) and checks that the
// merge of the shards' reports gives the single run's answer: the verdict and exit status, the
// bugs in order (with --all-bugs all of them, otherwise the first), and, when every shard
// explored its whole part, states that add up exactly (a partition: the single run's states
// plus N-1 times those above the split, which every shard expands). Programs run with a state
// bound are compared only when the single run is not stopped by it (a shard explores fewer
// states, so it may get further): then the merge must not contradict it.
func TestShardMergeEqualsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: every testdata program as 2, 3 and 4 shards, merged and compared with the single run; make check runs it")
	}
	files, _ := filepath.Glob("../../testdata/*.imp")
	engineFiles, _ := filepath.Glob("../../engine/testdata/*.imp")
	if len(files) < 40 {
		t.Fatalf("found %d programs in testdata/, want at least 40", len(files))
	}
	checked := 0
	for i, file := range append(files, engineFiles...) {
		exp, err := readRunExpectation(file)
		var opts []string
		if err == nil {
			opts = exp.Options
		} else if !strings.Contains(file, "engine/testdata") {
			t.Fatal(err)
		} else {
			opts = []string{"--max-states", "3000"}
		}
		if slices.Contains(opts, "--strategy") {
			// Sharding is bfs's: the other strategies are refused with a usage error.
			var stdout, stderr bytes.Buffer
			if code := run(append(append([]string{"run", file}, opts...), "--shard", "0/2", "--quiet"), &stdout, &stderr); code != exitUsage ||
				!strings.Contains(stderr.String(), "bfs strategy only") {
				t.Errorf("%s: run %v --shard 0/2: exit %d, %q; want a usage error saying sharding is bfs only", file, opts, code, stderr.String())
			}
			continue
		}
		single, code, _ := runJSON(t, append([]string{"run", file}, opts...)...)
		allBugs := slices.Contains(opts, "--all-bugs")
		bounded := single.Verdict == "unknown" || single.Reason != ""
		t.Run(filepath.Base(file), func(t *testing.T) {
			for _, k := range splitsFor(i) {
				n, level := shardSplits[k].n, shardSplits[k].level
				extra := slices.Clone(opts)
				if level != "" {
					extra = append(extra, "--shard-level", level)
				}
				if single.Verdict == "bug" && !allBugs {
					// A shard without the first bug would explore its part to the end: bound
					// it by the single run's states, within which the shard holding the first
					// bug reaches it (it expands a subset of the states before it, in order).
					extra = append(extra, "--max-states", fmt.Sprint(single.States))
				}
				m, mcode, states, shared := runShards(t, t.TempDir(), file, n, extra)
				what := fmt.Sprintf("%d shards, level %q", n, level)
				if bounded {
					if single.Verdict == "bug" && m.Verdict != "bug" {
						t.Errorf("%s: merge says %s (%s), the single run found a bug", what, m.Verdict, m.Reason)
					}
					continue
				}
				if single.Verdict == "bug" && !allBugs {
					if m.Verdict != "bug" || mcode != exitBug || len(m.Bugs) == 0 || keysOf(shardKeys(m.Bugs[:1]))[0] != keysOf(single.Bugs)[0] {
						t.Errorf("%s: merge says %s (exit %d, %s), bugs %v; the single run found %v first", what, m.Verdict, mcode, m.Reason,
							keysOf(shardKeys(m.Bugs)), keysOf(single.Bugs))
					}
					continue
				}
				if m.Verdict != single.Verdict || mcode != code {
					t.Errorf("%s: merge says %s (exit %d, %s), the single run %s (exit %d)", what, m.Verdict, mcode, m.Reason, single.Verdict, code)
					continue
				}
				if got, want := keysOf(shardKeys(m.Bugs)), keysOf(single.Bugs); !slices.Equal(got, want) {
					t.Errorf("%s: merged bugs\n  %v\nwant (the single run's)\n  %v", what, got, want)
				}
				if (single.Verdict == "safe" || allBugs) && states-(n-1)*shared != single.States {
					t.Errorf("%s: the shards expanded %d states, %d of them above the split (in each shard): %d - %d*%d != %d, the single run's",
						what, states, shared, states, n-1, shared, single.States)
				}
			}
		})
		checked++
	}
	t.Logf("%d programs checked", checked)
}

// TestMergeRefuses checks that merge refuses reports that are not the N shards of one run.
func TestMergeRefuses(t *testing.T) {
	dir := t.TempDir()
	file := "../../testdata/all_bugs_three_kinds_in_order.imp"
	write := func(name string, args ...string) string {
		var stdout, stderr bytes.Buffer
		run(append(append([]string{"run"}, args...), "--json", "--quiet"), &stdout, &stderr)
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, stdout.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	s0 := write("s0.json", file, "--shard", "0/2")
	s1 := write("s1.json", file, "--shard", "1/2")
	s1all := write("s1all.json", file, "--shard", "1/2", "--all-bugs")
	other := write("other.json", "../../testdata/assume_narrowing_bug.imp", "--shard", "1/2")
	s13 := write("s13.json", file, "--shard", "1/3")
	plain := write("plain.json", file)
	for _, c := range []struct {
		files []string
		want  string
	}{
		{[]string{s0}, "shard report missing: 1/2"},
		{[]string{s0, s0, s1}, "shard 0/2 is given twice"},
		{[]string{s0, s1all}, "different options"},
		{[]string{s0, other}, "different programs"},
		{[]string{s0, s13}, "not shards of one run"},
		{[]string{s0, plain}, "not a report of certsym run --shard"},
		{nil, "found no FILE"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"merge"}, c.files...), &stdout, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("merge %v: exit %d, %q; want exit %d and %q", c.files, code, stderr.String(), exitUsage, c.want)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"merge", s0, s1}, &stdout, &stderr); code != exitBug || !strings.Contains(stdout.String(), "verdict: bug\n") {
		t.Errorf("merge of the two shards: exit %d, %s %s", code, stdout.String(), stderr.String())
	}
}
