package docs

import (
	"io/fs"
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
// and the Makefile, relative to root, leaving out hidden directories and build output.
func historyFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && path != root && (strings.HasPrefix(name, ".") || name == "_build" || name == "bin" || name == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		switch filepath.Ext(name) {
		case ".go", ".md", ".v", ".mlw", ".sh", ".tmpl":
		default:
			if name != "Makefile" {
				return nil
			}
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
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
		if f == "docs/history_test.go" {
			continue // this file names the words it looks for
		}
		for _, e := range historyErrors(f, src) {
			t.Error(e)
		}
	}
}

// TestHistoryCheckFails: the check reports the words it is for, and not their look-alikes.
func TestHistoryCheckFails(t *testing.T) {
	bad := []string{"// as issue 13 added", "(see Issue 7)", "done in this session", "issues 13 and 14"}
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
