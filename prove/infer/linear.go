package infer

import (
	"math/big"

	"certsym/spec"
	"certsym/spec/syntax"
)

// MaxEqualityStates bounds the states the elimination reads: once the rows read span the whole
// space, no equality is left and the elimination stops anyway.
const MaxEqualityStates = 200

// Equalities are the linear equalities a1*x1 + ... + an*xn == c (integer coefficients) that hold
// in every sampled state, a basis of them: the null space of the matrix whose rows are the states
// (each variable's value, then 1), computed by exact Gauss-Jordan elimination over the rationals
// (math/big.Rat), as Daikon and the affine-hull method of Karr do. With no state, none.
func Equalities(prog *syntax.Program, p syntax.Pos, states []spec.Store) []*Candidate {
	n := len(prog.Vars)
	if len(states) == 0 || n == 0 {
		return nil
	}
	cols := n + 1
	// rows is the reduced row echelon form of the rows read so far; piv[r] its pivot column
	var rows [][]*big.Rat
	var piv []int
	for si, s := range states {
		if si >= MaxEqualityStates || len(rows) == cols {
			break
		}
		row := make([]*big.Rat, cols)
		for j := 0; j < n; j++ {
			row[j] = new(big.Rat).SetInt(s[j].Big())
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
	var out []*Candidate
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
		if c := equality(prog, p, integral(vec)); c != nil {
			out = append(out, c)
		}
	}
	return out
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

// equality is the candidate a1*x1 + ... + an*xn == -a0 of the integer vector (a1, ..., an, a0),
// its first nonzero coefficient made positive; nil when every coefficient of a variable is 0.
func equality(prog *syntax.Program, p syntax.Pos, a []*big.Int) *Candidate {
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
		var term syntax.AExpr = variable(prog, p, j)
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
