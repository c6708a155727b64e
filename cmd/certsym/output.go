package main

import (
	"fmt"
	"strings"

	"certsym/spec"
	"certsym/sym"
)

// textBudget is how many characters of a path condition or store the text output shows before it
// abbreviates (--full shows everything; JSON is always whole).
const textBudget = 400

// abbrev shortens a list rendered as items joined by sep (a path condition's conjuncts joined by
// " and ", a store's bindings joined by ", ") to about textBudget characters: the first items,
// then how many were left out. An item longer than the budget is cut with the count of characters
// left out. full returns s unchanged.
func abbrev(s, sep, noun string, full bool) string {
	if full || len(s) <= textBudget {
		return s
	}
	items := splitTop(s, sep)
	var b strings.Builder
	shown := 0
	for _, it := range items {
		if shown > 0 && b.Len()+len(sep)+len(it) > textBudget {
			break
		}
		if shown > 0 {
			b.WriteString(sep)
		}
		if len(it) > textBudget {
			cut := textBudget
			for cut > 0 && !utf8Start(it[cut]) {
				cut--
			}
			fmt.Fprintf(&b, "%s... (%d more characters)", it[:cut], len(it)-cut)
		} else {
			b.WriteString(it)
		}
		shown++
	}
	if left := len(items) - shown; left > 0 {
		fmt.Fprintf(&b, "%s... (%d more %s; --full prints them all)", sep, left, nouns(left, noun))
	} else if b.Len() < len(s) {
		b.WriteString(" (--full prints it whole)")
	}
	return b.String()
}

func utf8Start(c byte) bool { return c&0xC0 != 0x80 }

// splitTop splits s at each sep outside parentheses.
func splitTop(s, sep string) []string {
	var out []string
	depth, last := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		default:
			if depth == 0 && strings.HasPrefix(s[i:], sep) {
				out = append(out, s[last:i])
				i += len(sep) - 1
				last = i + 1
			}
		}
	}
	return append(out, s[last:])
}

// plural is "1 path", "2 paths".
func plural(n int, noun string) string { return fmt.Sprintf("%d %s", n, nouns(n, noun)) }

// nouns is noun in the number n asks for: "path" for 1, "paths" otherwise.
func nouns(n int, noun string) string {
	switch {
	case n == 1:
		return noun
	case strings.HasSuffix(noun, "query"):
		return strings.TrimSuffix(noun, "y") + "ies"
	case strings.HasSuffix(noun, "s"):
		return noun + "es"
	}
	return noun + "s"
}

// pluralOf is "1 state expanded", "2 states expanded": noun gets the plural, rest follows it.
func pluralOf(n int, noun, rest string) string { return plural(n, noun) + " " + rest }

// loc is a statement position as line:col, the macro call's for an inlined statement.
func loc(l spec.Loc) string {
	p := l.Where()
	return fmt.Sprintf("%d:%d", p.Line, p.Col)
}

// readBeforeWritten returns the indexes of the variables some run of prog may read before it has
// assigned them: the inputs the program really uses. A variable only ever assigned before use is
// not one (exec does not ask for it). The analysis is the usual definite-assignment one: after an
// if, what both branches assign; after a while, what was assigned before it.
func readBeforeWritten(prog *spec.Program) map[int]bool {
	read := map[int]bool{}
	// reads marks the variables expression e reads that are not yet assigned.
	reads := func(e spec.Node, assigned map[int]bool) {
		spec.Inspect(e, func(n spec.Node) bool {
			if x, ok := n.(*spec.Var); ok && !assigned[x.Index] {
				read[x.Index] = true
			}
			return true
		})
	}
	copySet := func(m map[int]bool) map[int]bool {
		c := make(map[int]bool, len(m))
		for k := range m {
			c[k] = true
		}
		return c
	}
	// s returns what is definitely assigned after st, given what was before; stopped is true
	// when st never finishes normally (fail).
	var s func(st spec.Stmt, assigned map[int]bool) (out map[int]bool, stopped bool)
	s = func(st spec.Stmt, assigned map[int]bool) (map[int]bool, bool) {
		switch x := st.(type) {
		case *spec.Seq:
			// A right-nested sequence: walk it as a list.
			cur := assigned
			for {
				var stop bool
				cur, stop = s(x.First, cur)
				if stop {
					return cur, true
				}
				next, ok := x.Second.(*spec.Seq)
				if !ok {
					return s(x.Second, cur)
				}
				x = next
			}
		case *spec.Assign:
			reads(x.A, assigned)
			out := copySet(assigned)
			out[x.X.Index] = true
			return out, false
		case *spec.Assert:
			reads(x.Cond, assigned)
		case *spec.Assume:
			reads(x.Cond, assigned)
		case *spec.Fail:
			return assigned, true
		case *spec.If:
			reads(x.Cond, assigned)
			t, ts := s(x.Then, assigned)
			e, es := s(x.Else, assigned)
			switch {
			case ts && es:
				return assigned, true
			case ts:
				return e, false
			case es:
				return t, false
			}
			out := map[int]bool{}
			for k := range t {
				if e[k] {
					out[k] = true
				}
			}
			return out, false
		case *spec.While:
			reads(x.Cond, assigned)
			s(x.Body, assigned)
		}
		return assigned, false
	}
	s(prog.Body, map[int]bool{})
	return read
}

// stmtLoc is where a statement stands as line:col ("" for a sequence).
func stmtLoc(s spec.Stmt) string {
	if w, ok := s.(interface{ Where() spec.Pos }); ok {
		p := w.Where()
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return ""
}

// stmtCol is the column of stmtLoc (0 for a sequence).
func stmtCol(s spec.Stmt) int {
	if w, ok := s.(interface{ Where() spec.Pos }); ok {
		return w.Where().Col
	}
	return 0
}

// printSize returns the number of symbols, constants and operators the printed form of the
// conjunction of fs has, or limit+1 when it has more than limit. Terms are shared: printing
// repeats a shared term at each of its occurrences, so the printed form can be exponentially
// larger than the formulas themselves. The count takes time linear in their size, so that the
// command can decline to print them.
func printSize(fs []*sym.Formula, limit int) int {
	memo := map[*sym.Term]int{}
	var term func(t *sym.Term) int
	term = func(t *sym.Term) int {
		if n, ok := memo[t]; ok {
			return n
		}
		n := 1
		t.EachMono(func(_ spec.Int, a *sym.Atom) {
			if n > limit {
				return
			}
			n += 2
			if a.Kind != sym.AtomSym {
				n += term(a.L) + term(a.R)
			}
			if n > limit {
				n = limit + 1
			}
		})
		memo[t] = n
		return n
	}
	n := 0
	var form func(f *sym.Formula)
	form = func(f *sym.Formula) {
		n++
		if f.T != nil {
			n += term(f.T)
		}
		for _, g := range f.Args {
			if n > limit {
				return
			}
			form(g)
		}
	}
	for _, f := range fs {
		if n > limit {
			break
		}
		form(f)
	}
	return min(n, limit+1)
}
