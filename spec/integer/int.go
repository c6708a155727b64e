// Package integer holds Int, the mathematical integers that are IMP's only kind of value: arbitrary
// precision, with a fast path for the values that fit in an int64.
package integer

import (
	"math"
	"math/big"
	"math/bits"
)

// Int is a mathematical integer (an element of ℤ), the only kind of value IMP has. It never wraps:
// arithmetic on values that fit in an int64 stays on a fast path, and a result that would overflow
// is computed with math/big instead. The zero value is 0. Ints are immutable values.
type Int struct {
	small int64
	big   *big.Int // non-nil iff the value does not fit in an int64
}

// Of returns the Int with value v.
func Of(v int64) Int { return Int{small: v} }

// FromBig returns the Int with value v (v is copied).
func FromBig(v *big.Int) Int {
	if v.IsInt64() {
		return Int{small: v.Int64()}
	}
	return Int{big: new(big.Int).Set(v)}
}

func normBig(v *big.Int) Int {
	if v.IsInt64() {
		return Int{small: v.Int64()}
	}
	return Int{big: v}
}

// Parse parses a decimal integer literal of any size, with an optional leading '-'.
func Parse(s string) (Int, bool) {
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return Int{}, false
	}
	return normBig(v), true
}

// Big returns the value as a new *big.Int.
func (x Int) Big() *big.Int {
	if x.big != nil {
		return new(big.Int).Set(x.big)
	}
	return big.NewInt(x.small)
}

// BitLen returns the length of the absolute value in bits (0 for 0), without allocating.
func (x Int) BitLen() int {
	if x.big != nil {
		return x.big.BitLen()
	}
	return bits.Len64(uint64(max(x.small, -x.small)))
}

// Int64 returns the value and whether it fits in an int64.
func (x Int) Int64() (int64, bool) { return x.small, x.big == nil }

// IsSmall reports whether the value fits in an int64.
func (x Int) IsSmall() bool { return x.big == nil }

// Sign returns -1, 0 or +1.
func (x Int) Sign() int {
	if x.big != nil {
		return x.big.Sign()
	}
	switch {
	case x.small < 0:
		return -1
	case x.small > 0:
		return 1
	}
	return 0
}

// IsZero reports whether x is 0.
func (x Int) IsZero() bool { return x.big == nil && x.small == 0 }

// String returns the decimal representation.
func (x Int) String() string {
	if x.big != nil {
		return x.big.String()
	}
	return big.NewInt(x.small).String()
}

// Cmp returns -1, 0 or +1 as x <, ==, > y.
func (x Int) Cmp(y Int) int {
	if x.big == nil && y.big == nil {
		switch {
		case x.small < y.small:
			return -1
		case x.small > y.small:
			return 1
		}
		return 0
	}
	return x.Big().Cmp(y.Big())
}

// Equal reports whether x == y.
func (x Int) Equal(y Int) bool { return x.Cmp(y) == 0 }

// Neg returns -x.
func (x Int) Neg() Int {
	if x.big == nil && x.small != math.MinInt64 {
		return Int{small: -x.small}
	}
	return normBig(new(big.Int).Neg(x.Big()))
}

// Add returns x + y.
func (x Int) Add(y Int) Int {
	if x.big == nil && y.big == nil {
		s := x.small + y.small
		// Overflow iff both operands have the same sign and the sum's sign differs.
		if (x.small >= 0) == (y.small >= 0) && (s >= 0) != (x.small >= 0) {
			return normBig(new(big.Int).Add(x.Big(), y.Big()))
		}
		return Int{small: s}
	}
	return normBig(new(big.Int).Add(x.Big(), y.Big()))
}

// Sub returns x - y.
func (x Int) Sub(y Int) Int {
	if x.big == nil && y.big == nil {
		s := x.small - y.small
		if (x.small >= 0) != (y.small >= 0) && (s >= 0) != (x.small >= 0) {
			return normBig(new(big.Int).Sub(x.Big(), y.Big()))
		}
		return Int{small: s}
	}
	return normBig(new(big.Int).Sub(x.Big(), y.Big()))
}

// Mul returns x * y.
func (x Int) Mul(y Int) Int {
	if x.big == nil && y.big == nil {
		a, b := x.small, y.small
		if a == 0 || b == 0 {
			return Int{}
		}
		if a != math.MinInt64 && b != math.MinInt64 {
			ua, ub := uint64(a), uint64(b)
			if a < 0 {
				ua = uint64(-a)
			}
			if b < 0 {
				ub = uint64(-b)
			}
			hi, lo := bits.Mul64(ua, ub)
			if hi == 0 && lo <= math.MaxInt64 {
				if (a < 0) != (b < 0) {
					return Int{small: -int64(lo)}
				}
				return Int{small: int64(lo)}
			}
		}
	}
	return normBig(new(big.Int).Mul(x.Big(), y.Big()))
}

// Quo returns x / y truncated toward zero (Coq's Z.quot, Go's /). Quo by zero is 0, the total
// extension the formal development uses; IMP's semantics never divides by zero (see Defined).
func (x Int) Quo(y Int) Int {
	if y.IsZero() {
		return Int{}
	}
	if x.big == nil && y.big == nil && !(x.small == math.MinInt64 && y.small == -1) {
		return Int{small: x.small / y.small}
	}
	return normBig(new(big.Int).Quo(x.Big(), y.Big()))
}

// Rem returns the remainder of the truncated division, x - y*(x/y), whose sign is that of x
// (Coq's Z.rem, Go's %). Rem by zero is x, the total extension the formal development uses.
func (x Int) Rem(y Int) Int {
	if y.IsZero() {
		return x
	}
	if x.big == nil && y.big == nil {
		if y.small == -1 {
			return Int{}
		}
		return Int{small: x.small % y.small}
	}
	return normBig(new(big.Int).Rem(x.Big(), y.Big()))
}

// MarshalJSON writes the integer as a JSON number with all its digits.
func (x Int) MarshalJSON() ([]byte, error) { return []byte(x.String()), nil }
