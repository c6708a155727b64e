package cfg

// Far is the distance of a node from which no target is reached (Distances).
const Far = int32(1 << 30)

// Len returns the number of nodes: they are 0 to Len()-1, control-flow nodes and the nodes
// of the steps alike.
func (c *Graph) Len() int64 { return int64(len(c.stmt)) }

// Steps returns the step successors of node n (the nodes a state at n may be at after one step),
// in increasing order, and the index of the step edge to the first of them: the edge to to[k]
// has index first+k.
func (c *Graph) Steps(n int64) (to []int64, first int) {
	return c.step[c.stepAt[n]:c.stepAt[n+1]], c.stepAt[n]
}

// StepEdges returns the number of step edges: they are known by their index, 0 to StepEdges()-1
// (StepEdge).
func (c *Graph) StepEdges() int { return len(c.step) }

// StepEdge returns the index of the step edge from u to v, or -1 when there is none.
func (c *Graph) StepEdge(u, v int64) int {
	for i := c.stepAt[u]; i < c.stepAt[u+1]; i++ {
		if c.step[i] == v {
			return i
		}
	}
	return -1
}

// Distances sets dist[n], for every node n, to the distance from n to the targets along the
// steps: the least k + seed[m] over the nodes m that n reaches in k steps (k = 0 included), each
// step counting 1; Far when n reaches no target. seed[m] is the target's own weight, Far for a
// node that is no target (seed and dist have Len() entries). It searches backwards from the
// targets, level by level: time linear in the graph plus the largest finite distance.
func (c *Graph) Distances(seed, dist []int32) {
	var levels [][]int64
	set := func(n int64, d int32) {
		if d >= dist[n] {
			return
		}
		dist[n] = d
		for int(d) >= len(levels) {
			levels = append(levels, nil)
		}
		levels[d] = append(levels[d], n)
	}
	for n := range dist {
		dist[n] = Far
	}
	for n, w := range seed {
		if w < Far {
			set(int64(n), w)
		}
	}
	for d := 0; d < len(levels); d++ {
		for _, v := range levels[d] {
			if dist[v] != int32(d) {
				continue
			}
			for _, u := range c.stepPre[c.stepBack[v]:c.stepBack[v+1]] {
				set(u, int32(d)+1)
			}
		}
	}
}
