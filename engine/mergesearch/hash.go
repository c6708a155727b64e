package mergesearch

// The hash that sorts a level's states before their exact keys (mergeLevel), and its table.

// cand is a state of the level being merged (its index) and its hash (mergeLevel).
type cand struct {
	h uint64
	i int
}

// table maps hashes to int32 values, 0 meaning a free slot: an open-addressing table (linear
// probing) kept from level to level. hashCount and ordTable are its two uses.
type table struct {
	keys []uint64
	vals []int32
}

// reset empties the table, with room for n hashes.
func (t *table) reset(n int) {
	size := 16
	for size < 2*n {
		size *= 2
	}
	if len(t.keys) < size || len(t.keys) > 8*size {
		t.keys, t.vals = make([]uint64, size), make([]int32, size)
		return
	}
	clear(t.vals)
}

// slot returns the slot of h: its own, or the free slot where it goes.
func (t *table) slot(h uint64) int {
	m := uint64(len(t.keys) - 1)
	i := h & m
	for t.vals[i] != 0 && t.keys[i] != h {
		i = (i + 1) & m
	}
	return int(i)
}

// hashCount counts hashes.
type hashCount struct{ table }

func (t *hashCount) add(h uint64) {
	i := t.slot(h)
	t.keys[i] = h
	t.vals[i]++
}

func (t *hashCount) count(h uint64) int32 { return t.vals[t.slot(h)] }

// mix is a step of the hash of mergeLevel (splitmix64's finalizer over h and v).
func mix(h, v uint64) uint64 {
	h ^= v + 0x9e3779b97f4a7c15 + h<<6 + h>>2
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	return h ^ h>>31
}

// ordTable maps hashes to ordinals (the first put of each), stored plus one.
type ordTable struct{ table }

// put maps h to ord unless h has an ordinal.
func (t *ordTable) put(h uint64, ord int) {
	if i := t.slot(h); t.vals[i] == 0 {
		t.keys[i], t.vals[i] = h, int32(ord+1)
	}
}

// get returns the ordinal of h.
func (t *ordTable) get(h uint64) (int, bool) {
	if len(t.keys) == 0 {
		return 0, false
	}
	o := t.vals[t.slot(h)]
	return int(o) - 1, o != 0
}
