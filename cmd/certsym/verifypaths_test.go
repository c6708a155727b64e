package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"certsym/internal/testprog"
)

var pathLine = regexp.MustCompile(`(?m)^  Path \d+ \(first at line `)

// TestVerifyPathsListed: verify's text report starts with the overall status, before the claims,
// and lists the first 100 paths (--paths N the first N, --all-paths every one), with the number
// of paths left out and the options that list them; --json and --html list the same paths, and
// --json says how many paths were numbered (path_count).
func TestVerifyPathsListed(t *testing.T) {
	f := writeProg(t, testprog.IndependentIfs(8)) // 256 paths
	code, text, stderr := runText("verify", "--quiet", f)
	if code != exitBug {
		t.Fatalf("exit %d, want 1\n%s%s", code, text, stderr)
	}
	overall, claim, paths := strings.Index(text, "overall status: REFUTED\n"), strings.Index(text, "Claim 1, "), strings.Index(text, "\nPaths, ")
	if overall < 0 || claim < 0 || paths < 0 || !(overall < claim && claim < paths) {
		t.Errorf("the overall status (at %d) is not before the claims (at %d), before the paths (at %d):\n%.2000s", overall, claim, paths, text)
	}
	for _, c := range []struct {
		args   []string
		listed int
	}{{nil, 100}, {[]string{"--paths", "5"}, 5}, {[]string{"--all-paths"}, 256}, {[]string{"--paths", "0"}, 256}, {[]string{"--paths", "300"}, 256}} {
		_, text, _ := runText(append([]string{"verify", "--quiet", f}, c.args...)...)
		if n := len(pathLine.FindAllString(text, -1)); n != c.listed {
			t.Errorf("%v: %d paths listed, want %d", c.args, n, c.listed)
		}
		more := fmt.Sprintf("  … %d more paths not listed (--paths N lists the first N, --all-paths every one)\n", 256-c.listed)
		last := text[strings.LastIndex(strings.TrimSuffix(text, "\n"), "\n")+1:]
		if (c.listed < 256 && last != more) || (c.listed == 256 && (strings.Contains(text, "more paths not listed") || !strings.HasPrefix(last, "    path condition: "))) {
			t.Errorf("%v: the report does not end with its paths and %q:\n%s", c.args, more, text[max(0, len(text)-600):])
		}
		var d struct {
			Version   int               `json:"version"`
			PathCount int               `json:"path_count"`
			Paths     []json.RawMessage `json:"paths"`
		}
		html := filepath.Join(t.TempDir(), "r.html")
		_, js, _ := runText(append([]string{"verify", "--quiet", "--json", "--html", html, f}, c.args...)...)
		if err := json.Unmarshal([]byte(js), &d); err != nil || d.Version != 3 || d.PathCount != 256 || len(d.Paths) != c.listed {
			t.Errorf("%v --json: version %d, path_count %d, %d paths; want 3, 256, %d (%v)", c.args, d.Version, d.PathCount, len(d.Paths), c.listed, err)
		}
		page, err := os.ReadFile(html)
		if err != nil {
			t.Fatal(err)
		}
		if rows := strings.Count(string(page), `class="path" data-path=`); rows != c.listed ||
			strings.Contains(string(page), fmt.Sprintf(`<p id="paths-more">%d more paths not listed`, 256-c.listed)) != (c.listed < 256) {
			t.Errorf("%v --html: %d paths listed, want %d and the count of the others", c.args, rows, c.listed)
		}
	}
}

// TestVerifyNoClaimsStopped: a program without claims is VERIFIED (exit 0) when its exploration
// ended, and VERIFIED? (exit 3, as for a bound reached) when the state bound or the integer
// bound stopped it, in the text and in the JSON, with what the status rests on.
func TestVerifyNoClaimsStopped(t *testing.T) {
	ifs := writeProg(t, "if x > 0 then y = 1 else y = 2 fi;\nif z > 0 then y = y + 1 else skip fi\n")
	square := writeProg(t, "y = 2;\ni = 0;\nwhile i < n do y = y * y; i = i + 1 od\n")
	cases := []struct {
		args    []string
		code    int
		overall string
		note    string
	}{
		{[]string{ifs}, exitSafe, "VERIFIED", "  the program makes no claim: nothing can fail\n"},
		{[]string{ifs, "--max-states", "2"}, exitUnknown, "VERIFIED?",
			"  the program makes no claim, but the exploration was stopped early (state bound reached (2 branch states)): paths were left unexplored\n"},
		{[]string{square, "--loop-bound", "25"}, exitUnknown, "VERIFIED?",
			"  the program makes no claim, but the exploration was stopped early (integer bound reached (a value of more than 1048576 bits assigned at 3:16)): paths were left unexplored\n"},
	}
	for _, c := range cases {
		code, text, stderr := runText(append([]string{"verify", "--quiet"}, c.args...)...)
		if code != c.code || !strings.Contains(text, "\n\noverall status: "+c.overall+"\n"+c.note) {
			t.Errorf("%v: exit %d, want %d, overall %s and %q:\n%s%s", c.args, code, c.code, c.overall, c.note, text, stderr)
		}
		out, code, _, _ := runVerifyJSON(t, append([]string{"--quiet"}, c.args...)...)
		if code != c.code || out.Overall != c.overall {
			t.Errorf("%v --json: exit %d, overall %q; want %d, %s", c.args, code, out.Overall, c.code, c.overall)
		}
	}
}
