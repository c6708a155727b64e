// Package report holds the vocabulary every output of the certsym command shares: where a
// statement stands, how an error is named, plurals, the abbreviation of long path conditions, the
// guard against printing terms whose printed form is exponential in their size, inputs as JSON
// objects, and the exec command line that reproduces an input. The writers of the command's
// artifacts (SARIF, DOT, coverage, test cases, the HTML report) and its text output all use it,
// so that each says a thing in the same words.
package report

import (
	"encoding/json"
	"fmt"
	"strings"

	"certsym/engine"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/step"
)

// TextBudget is how many characters of a path condition or store the text output shows before it
// abbreviates (--full shows everything; JSON is always whole).
const TextBudget = 400

// Abbrev shortens a list rendered as items joined by sep (a path condition's conjuncts joined by
// " and ", a store's bindings joined by ", ") to about TextBudget characters: the first items,
// then how many were left out. An item longer than the budget is cut with the count of characters
// left out. full returns s unchanged.
func Abbrev(s, sep, noun string, full bool) string {
	if full || len(s) <= TextBudget {
		return s
	}
	items := splitTop(s, sep)
	var b strings.Builder
	shown := 0
	for _, it := range items {
		if shown > 0 && b.Len()+len(sep)+len(it) > TextBudget {
			break
		}
		if shown > 0 {
			b.WriteString(sep)
		}
		if short, ok := abbrevLet(it); ok && len(it) > TextBudget {
			b.WriteString(short)
		} else if len(it) > TextBudget {
			b.WriteString(cutText(it, TextBudget))
		} else {
			b.WriteString(it)
		}
		shown++
	}
	if left := len(items) - shown; left > 0 {
		fmt.Fprintf(&b, "%s... (%d more %s; --full prints them all)", sep, left, Nouns(left, noun))
	} else if b.Len() < len(s) {
		b.WriteString(" (--full prints it whole)")
	}
	return b.String()
}

func utf8Start(c byte) bool { return c&0xC0 != 0x80 }

// cutText is the first n bytes of s (fewer, to end at a character), then the count of the
// characters left out.
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8Start(s[n]) {
		n--
	}
	return fmt.Sprintf("%s... (%d more characters)", s[:n], len(s)-n)
}

// abbrevLet shortens an item that names its shared subterms in a let (a term, conjunct or store
// value whose written form would be too large: let $1 = ...; $2 = ... in body, after "x = " in a
// store): the first definitions, the count of those left out, then the body (itself cut when
// long), so that what the item says stays in view. It reports false for any other item.
func abbrevLet(it string) (string, bool) {
	head := 0
	if i := strings.Index(it, " = let "); i >= 0 && !strings.ContainsAny(it[:i], "( ") {
		head = i + len(" = ")
	}
	if !strings.HasPrefix(it[head:], "let ") {
		return "", false
	}
	defsAt := head + len("let ")
	in := -1
	depth := 0
	for i := defsAt; i < len(it) && in < 0; i++ {
		switch it[i] {
		case '(':
			depth++
		case ')':
			depth--
		default:
			if depth == 0 && strings.HasPrefix(it[i:], " in ") {
				in = i
			}
		}
	}
	if in < 0 {
		return "", false
	}
	defs := splitTop(it[defsAt:in], "; ")
	body := cutText(it[in+len(" in "):], TextBudget/2)
	var b strings.Builder
	b.WriteString(it[:defsAt])
	shown := 0
	for _, d := range defs {
		if shown > 0 && b.Len()+len("; ")+len(d)+len(" in ")+len(body) > TextBudget {
			break
		}
		if shown > 0 {
			b.WriteString("; ")
		}
		b.WriteString(cutText(d, TextBudget/4))
		shown++
	}
	if left := len(defs) - shown; left > 0 {
		fmt.Fprintf(&b, "; ... (%d more %s)", left, Nouns(left, "definition"))
	}
	b.WriteString(" in " + body)
	return b.String(), true
}

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

// Plural is "1 path", "2 paths".
func Plural(n int, noun string) string { return fmt.Sprintf("%d %s", n, Nouns(n, noun)) }

// Verb is the verb in the number its subject, a count n, asks for: one for 1 ("1 test
// behaves"), many otherwise ("0 tests behave", "2 behave").
func Verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Nouns is noun in the number n asks for: "path" for 1, "paths" otherwise.
func Nouns(n int, noun string) string {
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

// DescribeFail names the error a fail statement stands for: an assertion violated, a division by
// zero, an index out of range, a loop invariant violated, or a fail statement reached.
func DescribeFail(f *syntax.Fail) string {
	switch f.Kind {
	case syntax.FailAssert:
		return "assertion violated"
	case syntax.FailDivZero:
		return "division by zero"
	case syntax.FailIndex:
		return "index out of range"
	case syntax.FailInvariant:
		return "loop invariant violated"
	case syntax.FailExplicit:
		return "fail reached"
	default:
		panic(fmt.Sprintf("report: unknown kind of error %v", f.Kind))
	}
}

// ShellQuote quotes s for a POSIX shell when it needs it.
func ShellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=,+:@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ReproduceCommand is the certsym exec command line that runs a bug's input on the concrete
// semantics and reaches its error.
func ReproduceCommand(file string, b *engine.Bug, names []string) string {
	var kv []string
	keys, vals, list := groups(b.Input, names)
	for i, k := range keys {
		kv = append(kv, k+"="+listText(vals[i], list[i], ","))
	}
	cmd := "certsym exec " + ShellQuote(file)
	if len(kv) > 0 {
		cmd += " --input " + ShellQuote(strings.Join(kv, ","))
	}
	if b.Replay.Steps >= 10_000_000 {
		cmd += fmt.Sprintf(" --max-steps %d", b.Replay.Steps+1)
	}
	return cmd
}

// ReproduceInput is the certsym exec command line that runs in on the program file.
func ReproduceInput(file string, in spec.Store, names []string) string {
	return ReproduceCommand(file, &engine.Bug{Input: in}, names)
}

// Input is a concrete input as a JSON object whose keys are the program's variables in order
// and whose values are JSON numbers with all their digits (never through a float64).
type Input struct {
	Names  []string        // the program's variables
	Vals   spec.Store      // their values, in the order of Names, then the arrays' elements
	Arrays []*syntax.Array // the program's arrays (Program.Arrays), each written as a list
}

// ProgInput is the Input of a store of prog (of length prog.Slots()).
func ProgInput(prog *syntax.Program, vals spec.Store) Input {
	return Input{Names: prog.Vars, Vals: vals, Arrays: prog.Arrays}
}

// MarshalJSON writes the object, its keys in the order of the program's variables, then its
// arrays, each as the list of its elements from lo to hi.
func (o Input) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, n := range o.Names {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(n)
		b.Write(k)
		b.WriteByte(':')
		b.WriteString(listText(o.Vals[i:i+1], false, ","))
	}
	for i, a := range o.Arrays {
		if i > 0 || len(o.Names) > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(a.Name)
		b.Write(k)
		b.WriteByte(':')
		b.WriteString(listText(o.Vals[a.Offset:a.Offset+a.Size()], true, ","))
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

// LineList is a control-flow path as its lines joined by arrows ("10 -> 13").
func LineList(ls []int) string {
	var parts []string
	for _, l := range ls {
		parts = append(parts, fmt.Sprint(l))
	}
	return strings.Join(parts, " -> ")
}

// groups splits a flat store's values by the slot names (sym.SlotNames: the variables, then
// a[j] for each element of each array) into the inputs of the program: a variable's value, or
// an array's list of elements from lo to hi.
func groups(in spec.Store, names []string) (keys []string, vals [][]integer.Int, list []bool) {
	for i, v := range in {
		name := names[i]
		if k := strings.IndexByte(name, '['); k > 0 && strings.HasSuffix(name, "]") {
			base := name[:k]
			if n := len(keys); n > 0 && list[n-1] && keys[n-1] == base {
				vals[n-1] = append(vals[n-1], v)
				continue
			}
			keys, vals, list = append(keys, base), append(vals, []integer.Int{v}), append(list, true)
			continue
		}
		keys, vals, list = append(keys, name), append(vals, []integer.Int{v}), append(list, false)
	}
	return keys, vals, list
}

// InputText renders a concrete input of length len(names) as x=1, y=-2, a=[5, 0, 7]: names are
// the slot names of the program's flat store (sym.SlotNames), an array's elements are written
// as one list (spec.StoreString); for a program without arrays it is spec.InputString.
func InputText(in spec.Store, names []string) string {
	keys, vals, list := groups(in, names)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + listText(vals[i], list[i], ", ")
	}
	return strings.Join(parts, ", ")
}

func listText(vs []integer.Int, list bool, sep string) string {
	if !list {
		return vs[0].String()
	}
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = v.String()
	}
	return "[" + strings.Join(s, sep) + "]"
}

// InputJSON is a concrete input (of length len(names), the slot names of sym.SlotNames) as a
// JSON object: each variable's value as a number token with all its digits, each array's value
// as the list of its elements from lo to hi.
func InputJSON(in spec.Store, names []string) map[string]json.RawMessage {
	keys, vals, list := groups(in, names)
	m := make(map[string]json.RawMessage, len(keys))
	for i, k := range keys {
		m[k] = json.RawMessage(listText(vals[i], list[i], ","))
	}
	return m
}

// IntBound is the reason a concrete run stops at the assignment s (of a variable or an element)
// whose value has more than step.MaxIntBits bits: the words of the bug finder's integer bound
// (step.HugeReason).
func IntBound(s syntax.Stmt) string {
	switch s := s.(type) {
	case *syntax.Assign:
		return step.HugeReason(s)
	case *syntax.ArrAssign:
		p := s.Pos()
		return fmt.Sprintf("integer bound reached (a value of more than %d bits assigned at %d:%d)", step.MaxIntBits, p.Line, p.Col)
	default:
		panic(fmt.Sprintf("report.IntBound: %T assigns nothing", s))
	}
}
