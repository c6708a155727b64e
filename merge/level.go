package merge

import (
	"certsym/engine"
	"certsym/sym"
)

// Groups partitions ss by remaining program (SameProgram), in the order of each group's first
// state.
func Groups(ss []*engine.State) [][]*engine.State {
	var out [][]*engine.State
next:
	for _, s := range ss {
		for i, g := range out {
			if SameProgram(g[0].Prog, s.Prog) {
				out[i] = append(g, s)
				continue next
			}
		}
		out = append(out, []*engine.State{s})
	}
	return out
}

// Level merges each group of two or more states of ss with the same remaining program (Groups)
// into one: it returns the states, each group in the place of its first state, and the merges
// made. A group that cannot be merged (States' errors) stays as it is; skipped counts them.
func Level(ts *sym.Terms, ss []*engine.State) (out []*engine.State, merged []*Merged, skipped int) {
	for _, g := range Groups(ss) {
		if len(g) == 1 {
			out = append(out, g[0])
			continue
		}
		m, err := States(ts, g)
		if err != nil {
			out = append(out, g...)
			skipped++
			continue
		}
		out = append(out, m.State)
		merged = append(merged, m)
	}
	return out, merged, skipped
}
