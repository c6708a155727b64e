package inputs

import (
	"certsym/spec"
	"strings"
	"testing"

	"certsym/internal/testprog"
)

// TestParseAndFromJSON: the command-line and JSON forms of an input give the same store; arrays
// are lists from lo to hi.
func TestParseAndFromJSON(t *testing.T) {
	prog := testprog.Parse(t, "array a[-1..1];\narray b[0..0];\nx = a[n] + b[0]")
	for _, c := range []struct{ text, json, want string }{
		{"n=3,a=[5,0,-7]", `{"n": 3, "a": [5, 0, -7]}`, "x=0, n=3, a=[5, 0, -7], b=[0]"},
		{" a = [ 1 , 2 , 3 ] , b=[9] ", `{"a": [1, 2, 3], "b": [9]}`, "x=0, n=0, a=[1, 2, 3], b=[9]"},
		{"x=123456789012345678901234567890", `{"x": 123456789012345678901234567890}`, "x=123456789012345678901234567890, n=0, a=[0, 0, 0], b=[0]"},
		{"", `{}`, "x=0, n=0, a=[0, 0, 0], b=[0]"},
	} {
		s, _, err := Parse(c.text, prog)
		if err != nil || spec.StoreString(prog, s) != c.want {
			t.Errorf("Parse(%q) = %v, %v; want %s", c.text, spec.StoreString(prog, s), err, c.want)
		}
		if s2, _, err := Parse(c.json, prog); err != nil || spec.StoreString(prog, s2) != c.want {
			t.Errorf("Parse(%s) = %v, %v; want %s", c.json, spec.StoreString(prog, s2), err, c.want)
		}
		s, _, err = FromJSON([]byte(c.json), prog)
		if err != nil || spec.StoreString(prog, s) != c.want {
			t.Errorf("FromJSON(%s) = %v, %v; want %s", c.json, spec.StoreString(prog, s), err, c.want)
		}
	}
	for _, c := range []struct{ json, want string }{
		{`{"a": [1, 2]}`, "array a has 3 elements (-1..1), found a list of 2"},
		{`{"a": 1}`, "a is an array of 3 elements (-1..1)"},
		{`{"n": [1]}`, "n is a variable: expected an integer, found a list"},
		{`{"q": 1}`, `the program has no variable "q"`},
		{`{"n": 1.5}`, "input n: expected an integer, found 1.5"},
		{`{"a": [1, "x", 2]}`, "input a: expected an integer or a list of integers"},
		{`[1]`, "expected a JSON object"},
	} {
		if _, _, err := FromJSON([]byte(c.json), prog); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("FromJSON(%s) = %v, want %q", c.json, err, c.want)
		}
	}
	s, given, err := Parse("n=1,a=[1,2,3]", prog)
	if err != nil || spec.InputArg(prog, s) != "x=0,n=1,a=[1,2,3],b=[0]" || !given["a"] || given["b"] {
		t.Errorf("InputArg = %q, given %v, %v", spec.InputArg(prog, s), given, err)
	}
	// Missing names the unread-before-written variables and the arrays read, not given.
	if got := strings.Join(Missing(prog, given), " "); got != "b" {
		t.Errorf("Missing = %q, want b", got)
	}
}

// FuzzParse: on any text Parse returns a store of the program's length or an error, never
// panics; a store it returns prints (Program.InputArg) to text that parses to the same store.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"n=3,a=[5,0,-7]", "a=[1,2", "x]=1,a=[2]", "a=[]", "=", ",", "a=[1,,2]", `{"a": [1, 2, 3]}`, "{", "n=[", "b=[9],b=[9]"} {
		f.Add(s)
	}
	prog := testprog.Parse(f, "array a[-1..1];\narray b[0..0];\nx = a[n] + b[0]")
	f.Fuzz(func(t *testing.T, text string) {
		s, _, err := Parse(text, prog)
		if err != nil {
			return
		}
		if len(s) != prog.Slots() {
			t.Fatalf("%q: store of length %d", text, len(s))
		}
		s2, _, err := Parse(spec.InputArg(prog, s), prog)
		if err != nil || spec.StoreString(prog, s2) != spec.StoreString(prog, s) {
			t.Fatalf("%q: InputArg %q reads back as %v, %v", text, spec.InputArg(prog, s), s2, err)
		}
	})
}
