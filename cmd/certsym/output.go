package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"certsym/cmd/certsym/internal/report"
	"certsym/spec"
)

// pluralOf is "1 state expanded", "2 states expanded": noun gets the plural, rest follows it.
func pluralOf(n int, noun, rest string) string { return report.Plural(n, noun) + " " + rest }

// loc is a statement position as line:col, the macro call's for an inlined statement.
func loc(l spec.Loc) string {
	p := l.Where()
	return fmt.Sprintf("%d:%d", p.Line, p.Col)
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

// checkOutputFile checks, before the run, that the file path can be written: it is not a
// directory, and its directory exists and lets a file be created in it (tried with a temporary
// file, removed at once). It reports a failure on stderr as certsym cmd: --flag: ... .
func checkOutputFile(cmd, flag, path string, stderr io.Writer) bool {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		fmt.Fprintf(stderr, "certsym %s: --%s: %s is a directory, not a file\n", cmd, flag, path)
		return false
	}
	if err := canCreateIn(filepath.Dir(path)); err != nil {
		fmt.Fprintf(stderr, "certsym %s: --%s: cannot write %s: %v\n", cmd, flag, path, err)
		return false
	}
	return true
}

// checkOutputDir checks, before the run, that the directory dir can receive files: it is a
// directory that lets a file be created in it, or it does not exist yet and its nearest existing
// parent is such a directory (the run creates it). A path that cannot be looked up is taken as
// missing: its parent is looked up instead, and says what is wrong.
func checkOutputDir(cmd, flag, dir string, stderr io.Writer) bool {
	d := dir
	for {
		fi, err := os.Stat(d)
		if err == nil {
			if !fi.IsDir() {
				fmt.Fprintf(stderr, "certsym %s: --%s: %s is not a directory\n", cmd, flag, d)
				return false
			}
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if err := canCreateIn(d); err != nil {
		fmt.Fprintf(stderr, "certsym %s: --%s: cannot write in %s: %v\n", cmd, flag, dir, err)
		return false
	}
	return true
}

// canCreateIn creates and removes a temporary file in dir: nil when that works.
func canCreateIn(dir string) error {
	f, err := os.CreateTemp(dir, ".certsym-check-*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return pe.Err
		}
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// writeFileAtomic writes data to path whole or not at all (report.WriteFile).
func writeFileAtomic(path string, data []byte) error { return report.WriteFile(path, data) }
