package engine

import (
	"testing"

	"certsym/spec/syntax/parser"
)

func TestParseShard(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Shard
		ok   bool
	}{
		{"0/1", Shard{0, 1, 0}, true}, {"3/4", Shard{3, 4, 0}, true},
		{"4/4", Shard{}, false}, {"-1/4", Shard{}, false}, {"0/0", Shard{}, false}, {"1", Shard{}, false}, {"a/b", Shard{}, false},
	} {
		got, err := ParseShard(c.in)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("ParseShard(%q) = %v, %v", c.in, got, err)
		}
	}
	for n, want := range map[int]int{1: 3, 2: 4, 3: 5, 4: 5, 8: 6, 100: 10} {
		if got := DefaultShardLevel(n); got != want || 1<<got < 8*n || (got > 0 && 1<<(got-1) >= 8*n) {
			t.Errorf("DefaultShardLevel(%d) = %d, want %d", n, got, want)
		}
	}
	if err := (Options{Strategy: DFS, Shard: Shard{0, 2, 0}}).Validate(); err == nil {
		t.Error("a sharded DFS run is accepted")
	}
}

// TestShardPartition runs a program with many paths as 1 to 5 shards at several split levels:
// the error states each shard reports, by breadth-first position, are disjoint and together are
// the unsharded run's, in the same order once sorted by ComparePositions.
func TestShardPartition(t *testing.T) {
	src := "s = 0;\nif a > 0 then s = s + 1 else s = s - 1 fi;\nif b > 0 then s = s + 2 else assert a != b fi;\n" +
		"if c > a then s = 10 / (c - 3) else s = s + 1 fi;\nif d > b then assert s != 3 else assert s != -3 fi;\nassert s != 11\n"
	prog, err := parser.Parse("p.imp", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	type bug struct {
		line, depth int
		pc          string
	}
	collect := func(sh Shard) ([]bug, []Position, int) {
		e := New(prog, Options{Shard: sh})
		var bugs []bug
		var pos []Position
		for {
			s, err := e.Next()
			if err != nil {
				t.Fatal(err)
			}
			if s.Kind == Finished {
				return bugs, pos, e.Stats.Expanded
			}
			if s.Kind == BugFound {
				p, ok := e.ShardPosition(s.State)
				if sh.Enabled() && !ok {
					t.Fatal("no position")
				}
				bugs = append(bugs, bug{s.Bug.Line(), s.State.Depth, s.State.PC.String(prog.Vars)})
				pos = append(pos, p)
			}
		}
	}
	all, _, states := collect(Shard{})
	if len(all) < 5 {
		t.Fatalf("only %d error states: the program should have more", len(all))
	}
	for n := 1; n <= 5; n++ {
		for _, level := range []int{1, 2, 3, 0} {
			type got struct {
				b     bug
				p     Position
				shard int
			}
			var merged []got
			sum, shared0 := 0, 0
			for i := 0; i < n; i++ {
				bs, ps, st := collect(Shard{i, n, level})
				sum += st
				for k := range bs {
					merged = append(merged, got{bs[k], ps[k], i})
				}
				e2 := New(prog, Options{Shard: Shard{i, n, level}})
				for {
					if _, ok := e2.NextState(); !ok {
						break
					}
				}
				_, sh := e2.ShardCounts()
				if i == 0 {
					shared0 = sh
				} else if sh != shared0 {
					t.Errorf("%d/%d level %d: %d states above the split, shard 0 %d", i, n, level, sh, shared0)
				}
			}
			if sum-(n-1)*shared0 != states {
				t.Errorf("%d shards, level %d: %d states, %d shared: not a partition of %d", n, level, sum, shared0, states)
			}
			// Sort by position, as certsym merge does (insertion sort: few).
			for i := 1; i < len(merged); i++ {
				for j := i; j > 0 && ComparePositions(merged[j].p, merged[j].shard, merged[j-1].p, merged[j-1].shard) < 0; j-- {
					merged[j], merged[j-1] = merged[j-1], merged[j]
				}
			}
			if len(merged) != len(all) {
				t.Errorf("%d shards, level %d: %d error states reported, the unsharded run %d", n, level, len(merged), len(all))
				continue
			}
			for k := range all {
				if merged[k].b != all[k] {
					t.Errorf("%d shards, level %d: error state %d is %v, the unsharded run's %v", n, level, k, merged[k].b, all[k])
				}
			}
		}
	}
}
