// The whole-run oracles on a run with state merging (run --merge, package engine/mergesearch):
// the bug finder's run with the merging frontier goes through the oracles of the run without it,
// on its merged states.

package refinement

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"certsym/engine"
	"certsym/engine/mergesearch"
	"certsym/spec/syntax"
)

// mergeRun runs the bug finder with state merging (all bugs, the engine run's bounds) and checks:
//
//   - merge-run/bug-replay: each bug's input, on the reference, reaches an error state that its
//     symbolic state (its input's own path, mergesearch.Unmerge) concretizes to (bugReplay);
//     merge-run/engine-replay: the engine's own replay of every bug succeeded;
//   - merge-run/verdict: the verdict is the one the stream implies (checkVerdict);
//   - merge-run/exhaustive: every concrete run the layer follows is covered, at every depth the run
//     explored completely, by a state of that depth, merged or not, whose path condition holds
//     under the input and whose store and program concretize to the reference's (exhaustive), or
//     of a shallower depth by at most the number of states merged into a state of the depth above
//     (a merge takes its shallowest constituent's depth);
//     merge-run/precise: the models of the final and error states replay to them (precise: a merged
//     state's path condition goes to the layer's prover with its conditional terms as cases), after
//     as many steps as their depth or up to as many more as states were merged one depth up;
//   - merge-run/all-bugs: on a finished run, every error a concrete run reaches is reported, each once
//     (checkAllBugs);
//   - merge-run/answer: when this run and the run without merging both finished with no query left
//     undecided, they report the same verdict and the same errors (statement and kind).
func (c *unitChecker) mergeRun() {
	opts := c.EngineOptions()
	if c.U.Long && c.Cfg.LongStates > opts.MaxStates {
		opts.MaxStates = c.Cfg.LongStates
	}
	var ms *mergesearch.Searcher
	opts.Merge = mergesearch.Option(&ms)
	start := time.Now()
	e := c.NewEngine(opts)
	defer e.Close()
	byDepth := map[int][]*engine.State{}
	var leaves []*engine.State
	sr, reported := &streamRun{}, map[*syntax.Fail]bool{}
	last, end := 0, engine.Pending
	for end == engine.Pending && !c.Expired() {
		s, err := e.Next()
		if err != nil {
			c.Report("merge-run/engine-replay", "", -1, "with merging: the engine's own bug replay failed: %v", err)
			return
		}
		sr.observe(s, reported)
		switch s.Kind {
		case engine.Finished, engine.Stopped:
			end = s.Kind
			continue
		case engine.BugFound:
			c.bugReplayAs("merge-run/bug-replay", s.Bug)
		}
		st := s.State
		byDepth[st.Depth] = append(byDepth[st.Depth], st)
		last = st.Depth
		if st.IsFinal() || st.ErrorOf() != nil {
			leaves = append(leaves, st)
		}
	}
	c.Sum.MergeRuns++
	c.Sum.MergeRunMerges += ms.Stats.Merges
	for i, st := range leaves {
		if i >= c.Cfg.PreciseStates {
			break
		}
		c.preciseWithin("merge-run/precise", st, ms.Stats.Deeper)
	}
	if end != engine.Pending {
		c.checkVerdict("merge-run/verdict", e, sr)
		c.checkAllBugs("merge-run/all-bugs", sr)
		c.compareAnswers(e, sr)
	}
	if end == engine.Stopped {
		c.CheckStop("stop", e, opts, start)
	}
	depth := last - 1 // every state of depth < last was expanded
	if end == engine.Finished {
		depth = 1 << 30
	}
	// a path's state is covered by a state of its depth less the merges across depths on its
	// way, at most all of them
	c.exhaustive("merge-run/exhaustive", e, byDepth, depth, (c.Cfg.OracleInputs+1)/2, ms.Stats.Deeper)
}

// compareAnswers is merge-run/answer: the run with merging (e, whose stream was r) against the
// program's run without it (c.stream), when both finished and no query was left undecided.
func (c *unitChecker) compareAnswers(e *engine.Engine, r *streamRun) {
	plain := c.stream
	if plain == nil || !plain.finished || !r.finished || len(plain.undecided)+len(r.undecided) > 0 {
		return
	}
	errs := func(s *streamRun) string {
		var out []string
		for _, b := range s.bugs {
			out = append(out, fmt.Sprintf("%s at line %d", b.Kind(), b.Line()))
		}
		sort.Strings(out)
		return strings.Join(out, "; ")
	}
	if a, b := errs(plain), errs(r); a != b {
		c.Report("merge-run/answer", "", -1, "without merging the run reports [%s], with merging [%s] (%s)", a, b, e.Verdict(r.bugs).Verdict)
	}
}
