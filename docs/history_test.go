package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// historyRE matches the words by which a text speaks of how the code was built rather than of
// the code: issue numbers and work sessions. The product speaks of itself; dated measurements
// belong in docs/performance.md, which states them with their machine.
var historyRE = regexp.MustCompile(`\b[Ii]ssues? #?\d+\b|\b[Tt]his session\b|\b[Ll]ast session\b`)

// historyFiles lists the files the check reads: the Go, Markdown, Coq, WhyML and shell sources
// and the Makefile, relative to root, leaving out testdata.
func historyFiles(t *testing.T) []string {
	t.Helper()
	return repoFiles(t, func(name string) bool {
		switch filepath.Ext(name) {
		case ".go", ".md", ".v", ".mlw", ".sh", ".tmpl":
			return true
		}
		return name == "Makefile"
	}, "testdata")
}

// historyErrors returns a message for each line of src (the file name) that matches historyRE.
func historyErrors(name string, src []byte) []string {
	var out []string
	for i, line := range strings.Split(string(src), "\n") {
		if m := historyRE.FindString(line); m != "" {
			out = append(out, name+":"+strconv.Itoa(i+1)+": "+m)
		}
	}
	return out
}

// TestNoBuildHistory: no source, comment, doc or test name speaks of issues or sessions.
func TestNoBuildHistory(t *testing.T) {
	files := historyFiles(t)
	if len(files) < 100 {
		t.Fatalf("found %d files under %s; expected the whole repository", len(files), root)
	}
	for _, f := range files {
		src, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range historyErrors(f, src) {
			t.Error(e)
		}
	}
}

// TestHistoryCheckFails: the check reports the words it is for, and not their look-alikes.
func TestHistoryCheckFails(t *testing.T) {
	// The samples are put together here so that this file does not hold the words it forbids.
	is, se := "is"+"sue", "ses"+"sion"
	bad := []string{"// as " + is + " 13 added", "(see I" + is[1:] + " 7)", "done in this " + se, is + "s 13 and 14"}
	good := []string{"// an issue with the solver", "tissue 13", "the session of Z3", "reissue"}
	for _, s := range bad {
		if len(historyErrors("x", []byte(s))) == 0 {
			t.Errorf("%q not reported", s)
		}
	}
	for _, s := range good {
		if e := historyErrors("x", []byte(s)); len(e) != 0 {
			t.Errorf("%q reported: %v", s, e)
		}
	}
}
