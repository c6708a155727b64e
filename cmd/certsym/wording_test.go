package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestErrorWording: run and run --loop-bound name each kind of error in the same words, in the
// bug line and, with --loop-bound, in the error states' list; the kind's identifier
// (index-out-of-range, ...) is the JSON's.
func TestErrorWording(t *testing.T) {
	f := writeProg(t, "array a[0..2];\nassume i >= 0 and i <= 5 and x >= 0 and x <= 4;\nif x == 0 then fail fi;\nif x == 1 then y = 1 / (x - 1) fi;\nif x == 2 then a[i] = 1 fi;\nassert x != 3;\nwhile x > 3 invariant x != 4 do x = 0 od\n")
	words := map[string]string{"3:16": "fail reached", "4:16": "division by zero", "5:16": "index out of range", "6:1": "assertion violated", "7:13": "loop invariant violated"}
	bugLine := regexp.MustCompile(`(?m)^BUG: (.*) at \S+:(\d+:\d+)\b`)
	for _, args := range [][]string{{"run", f, "--quiet", "--all-bugs"}, {"run", f, "--quiet", "--loop-bound", "2"}} {
		code, out, _ := runText(args...)
		if code != exitBug {
			t.Fatalf("%v: exit %d\n%s", args, code, out)
		}
		found := map[string]bool{}
		for _, m := range bugLine.FindAllStringSubmatch(out, -1) {
			found[m[2]] = true
			if words[m[2]] != m[1] {
				t.Errorf("%v: BUG line %q, want %q at %s", args, m[0], words[m[2]], m[2])
			}
		}
		if len(found) != len(words) {
			t.Errorf("%v: bugs at %v, want one at each of %v\n%s", args, found, words, out)
		}
		for _, id := range []string{"index-out-of-range", "division-by-zero", "[fail at", "[assert at", "[invariant at"} {
			if strings.Contains(out, id) {
				t.Errorf("%v: the text says %q\n%s", args, id, out)
			}
		}
	}
}
