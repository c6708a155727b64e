package infer

import (
	"math/big"

	"certsym/spec"
	"certsym/spec/syntax"
)

// MaxEqualityStates bounds the states the elimination reads: once the rows read span the whole
// space, no equality is left and the elimination stops anyway. They are read in a stride order
// over the whole sample (spread), not its first ones: runs fill the sample one after another,
// and the first run's states alone satisfy equalities the others break.
const MaxEqualityStates = 400

// Equalities are the linear equalities a1*x1 + ... + an*xn == c (integer coefficients) that hold
// in every sampled state, a basis of them: the null space of the matrix whose rows are the states
// (each variable's value, then 1), computed by exact Gauss-Jordan elimination over the rationals
// (math/big.Rat), as Daikon and the affine-hull method of Karr do. With no state, none.
func Equalities(prog *syntax.Program, p syntax.Pos, states []spec.Store) []*Candidate {
	return equalities(prog, p, states, MaxEqualityStates)
}

// equalities is Equalities reading at most limit states.
func equalities(prog *syntax.Program, p syntax.Pos, states []spec.Store, limit int) []*Candidate {
	n := len(prog.Vars)
	if len(states) == 0 || n == 0 {
		return nil
	}
	ms := make([]monomial, n)
	for j := range ms {
		ms[j] = monomial{x: j, y: -1}
	}
	var out []*Candidate
	vecs, _ := kernel(states, ms, limit)
	for _, vec := range vecs {
		if c := equality(prog, p, ms, vec); c != nil {
			out = append(out, c)
		}
	}
	return out
}

// monomial is a term of an equality: the variable x (y < 0) or the product x * y.
type monomial struct{ x, y int }

func (m monomial) value(s spec.Store) *big.Int {
	if m.y < 0 {
		return s[m.x].Big()
	}
	return s[m.x].Mul(s[m.y]).Big()
}

func (m monomial) expr(prog *syntax.Program, p syntax.Pos) syntax.AExpr {
	if m.y < 0 {
		return variable(prog, p, m.x)
	}
	return bin(p, syntax.Mul, variable(prog, p, m.x), variable(prog, p, m.y))
}

// kernel is a basis of the integer vectors (a1, ..., am, a0) with a1*m1 + ... + am*mm + a0 == 0
// in every state read (at most limit of them), each with coprime entries: the null space of the
// matrix whose rows are the states' monomial values then 1, by exact Gauss-Jordan elimination
// over the rationals. basis lists the monomials whose columns are pivots: linearly independent
// over the states, every other monomial a combination of them and 1.
func kernel(states []spec.Store, ms []monomial, limit int) (vecs [][]*big.Int, basis []int) {
	n := len(ms)
	cols := n + 1
	// rows is the reduced row echelon form of the rows read so far; piv[r] its pivot column
	var rows [][]*big.Rat
	var piv []int
	for si, idx := range spread(len(states)) {
		if si >= limit || len(rows) == cols {
			break
		}
		s := states[idx]
		row := make([]*big.Rat, cols)
		for j, m := range ms {
			row[j] = new(big.Rat).SetInt(m.value(s))
		}
		row[n] = big.NewRat(1, 1)
		// eliminate the existing pivots from the new row
		for r, pc := range piv {
			if row[pc].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Set(row[pc])
			for j := 0; j < cols; j++ {
				row[j].Sub(row[j], new(big.Rat).Mul(f, rows[r][j]))
			}
		}
		pc := -1
		for j := 0; j < cols; j++ {
			if row[j].Sign() != 0 {
				pc = j
				break
			}
		}
		if pc < 0 {
			continue
		}
		inv := new(big.Rat).Inv(row[pc])
		for j := 0; j < cols; j++ {
			row[j].Mul(row[j], inv)
		}
		// eliminate the new pivot from the existing rows
		for r := range rows {
			if rows[r][pc].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Set(rows[r][pc])
			for j := 0; j < cols; j++ {
				rows[r][j].Sub(rows[r][j], new(big.Rat).Mul(f, row[j]))
			}
		}
		rows = append(rows, row)
		piv = append(piv, pc)
	}
	isPiv := make([]int, cols)
	for j := range isPiv {
		isPiv[j] = -1
	}
	for r, pc := range piv {
		isPiv[pc] = r
	}
	for _, pc := range piv {
		if pc < n {
			basis = append(basis, pc)
		}
	}
	for f := 0; f < cols; f++ {
		if isPiv[f] >= 0 {
			continue
		}
		// the null vector of the free column f: a_f = 1, a_pivot(r) = -rows[r][f]
		vec := make([]*big.Rat, cols)
		for j := range vec {
			vec[j] = new(big.Rat)
		}
		vec[f].SetInt64(1)
		for r, pc := range piv {
			vec[pc].Neg(rows[r][f])
		}
		vecs = append(vecs, integral(vec))
	}
	return vecs, basis
}

// integral scales the rational vector to the integer vector of the same direction whose entries
// have no common divisor.
func integral(vec []*big.Rat) []*big.Int {
	l := big.NewInt(1)
	for _, v := range vec {
		d := v.Denom()
		g := new(big.Int).GCD(nil, nil, l, d)
		l.Mul(l, new(big.Int).Quo(d, g))
	}
	out := make([]*big.Int, len(vec))
	g := new(big.Int)
	for i, v := range vec {
		x := new(big.Int).Mul(v.Num(), new(big.Int).Quo(l, v.Denom()))
		out[i] = x
		g.GCD(nil, nil, g, new(big.Int).Abs(x))
	}
	if g.Sign() > 0 && g.Cmp(big.NewInt(1)) != 0 {
		for _, x := range out {
			x.Quo(x, g)
		}
	}
	return out
}

// equality is the candidate a1*m1 + ... + an*mn == -a0 of the integer vector (a1, ..., an, a0)
// over the monomials, its first nonzero coefficient made positive; nil when every coefficient of
// a monomial is 0.
func equality(prog *syntax.Program, p syntax.Pos, ms []monomial, a []*big.Int) *Candidate {
	n := len(a) - 1
	sign := 0
	for j := 0; j < n; j++ {
		if a[j].Sign() != 0 {
			sign = a[j].Sign()
			break
		}
	}
	if sign == 0 {
		return nil
	}
	var lhs syntax.AExpr
	for j := 0; j < n; j++ {
		c := new(big.Int).Mul(a[j], big.NewInt(int64(sign)))
		if c.Sign() == 0 {
			continue
		}
		abs := new(big.Int).Abs(c)
		var term = ms[j].expr(prog, p)
		if abs.Cmp(big.NewInt(1)) != 0 {
			term = bin(p, syntax.Mul, bigNum(p, abs), term)
		}
		switch {
		case lhs == nil && c.Sign() < 0:
			lhs = &syntax.Neg{P: p, X: term}
		case lhs == nil:
			lhs = term
		case c.Sign() < 0:
			lhs = bin(p, syntax.Sub, lhs, term)
		default:
			lhs = bin(p, syntax.Add, lhs, term)
		}
	}
	rhs := new(big.Int).Mul(a[n], big.NewInt(int64(-sign)))
	return newCand(cmp(p, syntax.Eq, lhs, bigNumSigned(p, rhs)), FromEquality)
}

// MaxQuadraticVars bounds the variables whose products the quadratic equalities read: the
// monomials are those variables and their products of degree 2, at most 6 + 21.
const MaxQuadraticVars = 6

// Quadratic are the equalities of degree 2 over the sampled states: the null space of the
// matrix of the monomials x and x * y (x, y among the variables that are linearly independent
// over the states, at most MaxQuadraticVars of them, those the loop assigns first), each equality
// with a product among its terms (the linear ones are Equalities'). None unless the states
// outnumber the monomials by quadMargin, so that few states do not fit a curve by chance, and
// none with a coefficient (of a monomial) above MaxQuadraticCoefficient.
func Quadratic(prog *syntax.Program, w *syntax.While, states []spec.Store) []*Candidate {
	n := len(prog.Vars)
	if len(states) == 0 || n == 0 {
		return nil
	}
	lin := make([]monomial, n)
	for j := range lin {
		lin[j] = monomial{x: j, y: -1}
	}
	_, basis := kernel(states, lin, MaxEqualityStates)
	assigned := assignedVars(w)
	var vs []int
	for _, first := range []bool{true, false} {
		for _, j := range basis {
			if assigned[j] == first && len(vs) < MaxQuadraticVars {
				vs = append(vs, j)
			}
		}
	}
	if len(vs) == 0 {
		return nil
	}
	var ms []monomial
	for _, x := range vs {
		ms = append(ms, monomial{x: x, y: -1})
	}
	for i, x := range vs {
		for _, y := range vs[i:] {
			ms = append(ms, monomial{x: x, y: y})
		}
	}
	if len(states) < len(ms)+1+quadMargin {
		return nil
	}
	vecs, _ := kernel(states, ms, MaxSplitStates)
	var out []*Candidate
	for _, vec := range vecs {
		product := false
		for j, m := range ms {
			if m.y >= 0 && vec[j].Sign() != 0 {
				product = true
			}
		}
		if !product || !smallCoefficients(vec[:len(ms)]) {
			continue
		}
		if c := equality(prog, w.Pos(), ms, vec); c != nil {
			c.Origin = FromQuadratic
			out = append(out, c)
		}
	}
	return out
}

// MaxSplitStates bounds the states read by the eliminations of the quadratic equalities and of
// the conditional candidates (whose candidates the sampled states filter all the same).
const MaxSplitStates = 120

// MaxQuadraticCoefficient bounds the coefficients of a quadratic equality: the states of a few
// runs lie on curves of large coefficients by chance, the relations loops keep have small ones.
const MaxQuadraticCoefficient = 32

// smallCoefficients reports whether every entry is at most MaxQuadraticCoefficient in absolute
// value.
func smallCoefficients(vec []*big.Int) bool {
	bound := big.NewInt(MaxQuadraticCoefficient)
	for _, x := range vec {
		if new(big.Int).Abs(x).Cmp(bound) > 0 {
			return false
		}
	}
	return true
}

// quadMargin is the states beyond the monomials' number that Quadratic needs.
const quadMargin = 4

// assignedVars are the variables the loop's body assigns.
func assignedVars(w *syntax.While) map[int]bool {
	out := map[int]bool{}
	syntax.Inspect(w.Body, func(n syntax.Node) bool {
		if a, ok := n.(*syntax.Assign); ok {
			out[a.X.Index] = true
		}
		return true
	})
	return out
}

// spread is a permutation of 0..n-1 that visits the indices by a stride coprime to n, about
// n / 2 + 1: neighbouring states (one run's) are read far apart.
func spread(n int) []int {
	step := n/2 + 1
	for gcd(step, n) != 1 {
		step++
	}
	out := make([]int, n)
	for i := range out {
		out[i] = i * step % n
	}
	return out
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// assignedArrays are the arrays the loop's body writes (by Array.Index).
func assignedArrays(w *syntax.While) map[int]bool {
	out := map[int]bool{}
	syntax.Inspect(w.Body, func(n syntax.Node) bool {
		if a, ok := n.(*syntax.ArrAssign); ok {
			out[a.Arr.Index] = true
		}
		return true
	})
	return out
}

// readsModified reports whether the condition reads a variable of vars or an array of arrs.
func readsModified(c syntax.BExpr, vars, arrs map[int]bool) bool {
	found := false
	syntax.Inspect(c, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Var:
			found = found || vars[x.Index]
		case *syntax.Elem:
			found = found || arrs[x.Arr.Index]
		}
		return !found
	})
	return found
}
