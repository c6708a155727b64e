package gen

// Chains of ifs, for the runs with state merging (run --merge): a fraction of the generated
// programs (IfChainShare in 100, drawn from a random source of their own so that the other
// programs are generated exactly as before) start with a chain of independent ifs whose branches
// join after each if, the shape whose paths a merge joins: each if reads inputs the chain does not
// assign (sometimes a product of two), and changes one accumulator, by a different amount in each
// branch; one branch in three is skip (it takes fewer steps, so the paths meet again at different
// depths); one chain in two ends with an assert on the accumulator, violated on some of the paths.

import (
	"math/rand"

	"certsym/spec/syntax"
)

// IfChainShare is the percentage of generated programs that start with a chain of ifs.
const IfChainShare = 12

// withIfChain draws whether the program of seed starts with a chain of ifs: if so, the function
// that puts it before a body, else nil.
func withIfChain(seed int64) func(syntax.Stmt) syntax.Stmt {
	r := rand.New(rand.NewSource(seed*7727 + 53))
	if r.Intn(100) >= IfChainShare {
		return nil
	}
	chain := IfChain(r, 4+r.Intn(9))
	return func(body syntax.Stmt) syntax.Stmt { return appendSeq(chain, body) }
}

// IfChain draws a chain of n ifs (n at least 1) from r, as withIfChain puts it before a body.
func IfChain(r *rand.Rand, n int) syntax.Stmt {
	perm := r.Perm(len(Vars))
	acc := Vars[perm[0]]
	v := func() *syntax.Var { return &syntax.Var{Name: Vars[perm[1+r.Intn(len(Vars)-1)]]} }
	accV := func() *syntax.Var { return &syntax.Var{Name: acc} }
	var out syntax.Stmt
	for i := 0; i < n; i++ {
		var l syntax.AExpr = v()
		if r.Intn(3) == 0 {
			l = bin(syntax.Mul, l, v())
		}
		cond := cmp(syntax.CmpOp(r.Intn(6)), l, bin(syntax.Add, v(), num(int64(r.Intn(9)-4))))
		branch := func() syntax.Stmt {
			if r.Intn(3) == 0 {
				return &syntax.Skip{}
			}
			return &syntax.Assign{X: accV(), A: bin(syntax.Add, accV(), num(int64(r.Intn(7)-3)))}
		}
		var s syntax.Stmt = &syntax.If{Cond: cond, Then: branch(), Else: branch()}
		if out == nil {
			out = s
		} else {
			out = appendSeq(out, s)
		}
	}
	if r.Intn(2) == 0 {
		out = appendSeq(out, &syntax.Assert{Cond: cmp(syntax.Ne, accV(), bin(syntax.Add, v(), num(int64(r.Intn(5)))))})
	}
	return out
}
