package spec

import (
	"fmt"
	"strings"

	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// InputString renders a concrete input (a value for each variable, indexed like names) as
// x=1, y=-2. For a program with arrays, use StoreString.
func InputString(in Store, names []string) string {
	s := ""
	for i, v := range in {
		if i > 0 {
			s += ", "
		}
		s += names[i] + "=" + v.String()
	}
	return s
}

// StoreString renders a concrete store (or input) of p, of length p.Slots(), as
// x=1, y=-2, a=[5, 0, 7]: the variables, then each array's elements from Lo to Hi.
func StoreString(p *syntax.Program, in Store) string {
	var b strings.Builder
	for i, name := range p.Vars {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(name + "=" + in[i].String())
	}
	for k, a := range p.Arrays {
		if k > 0 || len(p.Vars) > 0 {
			b.WriteString(", ")
		}
		b.WriteString(a.Name + "=[")
		for j := 0; j < a.Size(); j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(in[a.Offset+j].String())
		}
		b.WriteByte(']')
	}
	return b.String()
}

// SetInput sets, in the store s of p (of length p.Slots()), the input called name: for a
// variable, its value (vals of length 1, list false); for an array, the list of its elements from
// Lo to Hi (list true, len(vals) == Size()). The error says what is wrong: an unknown name, a
// list for a variable, a number for an array, a list of the wrong length.
func SetInput(p *syntax.Program, s Store, name string, vals []integer.Int, list bool) error {
	if i := p.VarIndex(name); i >= 0 {
		if list || len(vals) != 1 {
			return fmt.Errorf("%s is a variable: expected an integer, found a list", name)
		}
		s[i] = vals[0]
		return nil
	}
	a := p.ArrayIndex(name)
	if a == nil {
		return fmt.Errorf("the program has no variable %q (%s)", name, namesText(p))
	}
	if !list {
		return fmt.Errorf("%s is an array of %d elements (%d..%d): expected a list [v%d, ..., v%d]", name, a.Size(), a.Lo, a.Hi, a.Lo, a.Hi)
	}
	if len(vals) != a.Size() {
		return fmt.Errorf("array %s has %d elements (%d..%d), found a list of %d", name, a.Size(), a.Lo, a.Hi, len(vals))
	}
	copy(s[a.Offset:a.Offset+a.Size()], vals)
	return nil
}

// namesText lists the program's variables and arrays for messages.
func namesText(p *syntax.Program) string {
	s := "variables: " + strings.Join(p.Vars, ", ")
	if len(p.Vars) == 0 {
		s = "no variables"
	}
	if len(p.Arrays) > 0 {
		var as []string
		for _, a := range p.Arrays {
			as = append(as, a.Name)
		}
		s += "; arrays: " + strings.Join(as, ", ")
	}
	return s
}

// InputArg renders a concrete input of p (of length p.Slots()) as the argument of
// certsym exec --input: x=1,y=-2,a=[5,0,7] (no spaces), "" for a program without inputs.
func InputArg(p *syntax.Program, in Store) string {
	var kv []string
	for i, name := range p.Vars {
		kv = append(kv, name+"="+in[i].String())
	}
	for _, a := range p.Arrays {
		el := make([]string, a.Size())
		for j := range el {
			el[j] = in[a.Offset+j].String()
		}
		kv = append(kv, a.Name+"=["+strings.Join(el, ",")+"]")
	}
	return strings.Join(kv, ",")
}
