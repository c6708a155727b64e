package proofs

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// tableFile is the page that holds the correspondence table and the table of theorems, relative to
// this package's directory.
const tableFile = "../docs/proofs.md"

// The correspondence table of tableFile starts at the line that begins with tableHeader. Each
// row is: rule or theorem | Coq | Why3 | Go. A cell is "—" (nothing) or groups `name`, `name`
// (file), the file relative to the repository root.
const tableHeader = "| SEMANTICS.md rule or paper |"

// ref is one name the table gives, with the file it must be declared in.
type ref struct {
	row, col int
	name     string
	file     string
}

var (
	groupRE    = regexp.MustCompile("((?:`[^`]+`\\s*,?\\s*)+)\\(([^()`]+)\\)")
	backtickRE = regexp.MustCompile("`([^`]+)`")
)

// parseCell returns the names of a cell, each with its file, or an error if some name has no file.
func parseCell(cell string) ([][2]string, error) {
	cell = strings.TrimSpace(cell)
	if cell == "" || cell == "—" {
		return nil, nil
	}
	var out [][2]string
	for _, m := range groupRE.FindAllStringSubmatch(cell, -1) {
		file := strings.TrimSpace(m[2])
		for _, n := range backtickRE.FindAllStringSubmatch(m[1], -1) {
			out = append(out, [2]string{n[1], file})
		}
	}
	if rest := groupRE.ReplaceAllString(cell, ""); strings.Contains(rest, "`") {
		return nil, fmt.Errorf("a name without its file in %q", cell)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no `name` (file) in %q", cell)
	}
	return out, nil
}

// readTable reads the correspondence table of the page: its rows (first column) and the names of
// its cells.
func readTable(readme string) (rows []string, refs []ref, err error) {
	lines := strings.Split(readme, "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, tableHeader) {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, nil, fmt.Errorf("no line starting with %q", tableHeader)
	}
	for i := start + 2; i < len(lines) && strings.HasPrefix(lines[i], "|"); i++ {
		cells := strings.Split(strings.Trim(strings.TrimSpace(lines[i]), "|"), " | ")
		if len(cells) != 4 {
			return nil, nil, fmt.Errorf("%s:%d: %d cells, want 4 (split on \" | \")", tableFile, i+1, len(cells))
		}
		rows = append(rows, strings.TrimSpace(cells[0]))
		for c := 1; c < 4; c++ {
			names, err := parseCell(cells[c])
			if err != nil {
				return nil, nil, fmt.Errorf("%s:%d: column %d: %v", tableFile, i+1, c+1, err)
			}
			for _, n := range names {
				refs = append(refs, ref{row: i + 1, col: c, name: n[0], file: n[1]})
			}
		}
	}
	return rows, refs, nil
}

// declaredCoq reports whether src declares name: a definition or theorem, or a constructor.
func declaredCoq(src, name string) bool {
	q := regexp.QuoteMeta(name)
	decl := regexp.MustCompile(`(?m)(^|\s)(Theorem|Lemma|Corollary|Definition|Fixpoint|Inductive|Record|Fact|Remark|Proposition)\s+` + q + `(\s|$|:)`)
	// A constructor line: "| name ..." that is not a match arm (no "=>").
	ctor := regexp.MustCompile(`(?m)^\s*\|\s*` + q + `\b(?:[^=\n]|=[^>\n])*$`)
	return decl.MatchString(src) || ctor.MatchString(src)
}

// declaredWhy3 reports whether src declares name: a function, predicate, lemma, goal, val, type
// or inductive, or a constructor (of a type or an inductive predicate).
func declaredWhy3(src, name string) bool {
	q := regexp.QuoteMeta(name)
	decl := regexp.MustCompile(`(?m)\b(let|with|function|predicate|lemma|goal|val|inductive|type|constant)\s+(ghost\s+)?(rec\s+)?(ghost\s+)?(function\s+|predicate\s+|lemma\s+)?` + q + `\b`)
	ctor := regexp.MustCompile(`(?m)^\s*\|\s*` + q + `\s*(:|$|[^>\n:]*$)`)
	return decl.MatchString(src) || ctor.MatchString(src)
}

// declaredGo reports whether the Go file declares name: a function F, a method (*T).M or T.M, a
// type, a constant or a variable.
func declaredGo(path, name string) (bool, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		return false, err
	}
	recv, fn, ptr := "", name, false
	if i := strings.LastIndex(name, "."); i >= 0 {
		recv, fn = name[:i], name[i+1:]
		if strings.HasPrefix(recv, "(*") && strings.HasSuffix(recv, ")") {
			recv, ptr = recv[2:len(recv)-1], true
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.Name != fn {
				continue
			}
			if d.Recv == nil {
				if recv == "" {
					return true, nil
				}
				continue
			}
			t := d.Recv.List[0].Type
			star := false
			if s, ok := t.(*ast.StarExpr); ok {
				t, star = s.X, true
			}
			if id, ok := t.(*ast.Ident); ok && id.Name == recv && star == ptr {
				return true, nil
			}
		case *ast.GenDecl:
			if recv != "" {
				continue
			}
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.Name == name {
						return true, nil
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.Name == name {
							return true, nil
						}
					}
				}
			}
		}
	}
	return false, nil
}

// check returns an error unless name is declared in file (relative to root), in the language
// of column col (1 Coq, 2 Why3, 3 Go).
func check(root string, col int, name, file string) error {
	ext := map[int]string{1: ".v", 2: ".mlw", 3: ".go"}[col]
	if filepath.Ext(file) != ext {
		return fmt.Errorf("%s: column %d names files %s", file, col+1, ext)
	}
	path := filepath.Join(root, filepath.FromSlash(file))
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	ok := false
	switch col {
	case 1:
		ok = declaredCoq(string(src), name)
	case 2:
		ok = declaredWhy3(string(src), name)
	case 3:
		if ok, err = declaredGo(path, name); err != nil {
			return err
		}
	}
	if !ok {
		return fmt.Errorf("%s does not declare %s", file, name)
	}
	return nil
}

// TestTable checks every name of the correspondence table against the file it names, and that
// every rule of spec/SEMANTICS.md has its row.
func TestTable(t *testing.T) {
	readme, err := os.ReadFile(tableFile)
	if err != nil {
		t.Fatal(err)
	}
	rows, refs, err := readTable(string(readme))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 30 || len(refs) < 100 {
		t.Fatalf("the table has %d rows and %d names; expected at least 30 and 100", len(rows), len(refs))
	}
	for _, r := range refs {
		if err := check("..", r.col, r.name, r.file); err != nil {
			t.Errorf("%s:%d: %v", tableFile, r.row, err)
		}
	}
	// Every Coq theorem the table names is in theorems.txt, so the assumption check covers it.
	listed, err := os.ReadFile("coq/theorems.txt")
	if err != nil {
		t.Fatal(err)
	}
	inList := map[string]bool{}
	for _, l := range strings.Split(string(listed), "\n") {
		if f := strings.Fields(l); len(f) > 0 && !strings.HasPrefix(f[0], "#") {
			inList[f[0]] = true
		}
	}
	for _, r := range refs {
		if r.col != 1 {
			continue
		}
		src, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(r.file)))
		if err != nil {
			continue // reported above
		}
		thm := regexp.MustCompile(`(?m)(^|\s)(Theorem|Lemma|Corollary)\s+` + regexp.QuoteMeta(r.name) + `(\s|$|:)`)
		qual := strings.TrimSuffix(filepath.Base(r.file), ".v") + "." + r.name
		if thm.Match(src) && !inList[qual] {
			t.Errorf("%s:%d: theorem %s is not listed in coq/theorems.txt", tableFile, r.row, qual)
		}
	}
	sem, err := os.ReadFile("../spec/SEMANTICS.md")
	if err != nil {
		t.Fatal(err)
	}
	firsts := strings.Join(rows, "\n")
	rules := regexp.MustCompile(`(?m)^\| (\[[SE]-[A-Za-z]+\])`).FindAllStringSubmatch(string(sem), -1)
	if len(rules) < 15 {
		t.Fatalf("found %d rules in spec/SEMANTICS.md, expected at least 15", len(rules))
	}
	for _, m := range rules {
		if !strings.Contains(firsts, m[1]) {
			t.Errorf("rule %s of spec/SEMANTICS.md has no row in the table of %s", m[1], tableFile)
		}
	}
}

// numberingHeader starts the table of theorems by paper number; its third column names Coq
// identifiers only (in backquotes), each of which must also be in the Coq column of the
// correspondence table, where its file is checked.
const numberingHeader = "| paper | statement (informally) | Coq |"

// TestNumberingTable checks that every Coq name of the table of theorems is checked by TestTable.
func TestNumberingTable(t *testing.T) {
	readme, err := os.ReadFile(tableFile)
	if err != nil {
		t.Fatal(err)
	}
	_, refs, err := readTable(string(readme))
	if err != nil {
		t.Fatal(err)
	}
	checked := map[string]bool{}
	for _, r := range refs {
		if r.col == 1 {
			checked[r.name] = true
		}
	}
	lines := strings.Split(string(readme), "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, numberingHeader) {
			start = i
		}
	}
	if start < 0 {
		t.Fatalf("no line starting with %q in %s", numberingHeader, tableFile)
	}
	count := 0
	for i := start + 2; i < len(lines) && strings.HasPrefix(lines[i], "|"); i++ {
		cells := strings.Split(strings.Trim(strings.TrimSpace(lines[i]), "|"), " | ")
		if len(cells) != 3 {
			t.Fatalf("%s:%d: %d cells, want 3", tableFile, i+1, len(cells))
		}
		for _, m := range backtickRE.FindAllStringSubmatch(cells[2], -1) {
			count++
			if !checked[m[1]] {
				t.Errorf("%s:%d: %s is not in the Coq column of the correspondence table", tableFile, i+1, m[1])
			}
		}
	}
	if count < 60 {
		t.Errorf("the table of theorems names %d Coq identifiers, expected at least 60", count)
	}
}

// TestTableCheckFails makes sure the check can fail: wrong names, a wrong file, a name without a
// file, a match arm taken for a constructor.
func TestTableCheckFails(t *testing.T) {
	bad := []struct {
		col        int
		name, file string
	}{
		{1, "no_such_theorem", "proofs/coq/Runproof.v"},
		{1, "run_sound", "proofs/coq/Bugfinderproof.v"}, // declared, but elsewhere
		{1, "Some", "proofs/coq/Bugfinder.v"},           // only in match arms there
		{2, "no_such_lemma", "proofs/why3/interp.mlw"},
		{3, "NoSuchFunc", "spec/step.go"},
		{3, "(*Engine).Step", "engine/expand.go"},
		{3, "Engine.Expand", "engine/expand.go"}, // the receiver is *Engine
		{3, "Step", "proofs/coq/Concrete.v"},     // Go name in a Coq file
	}
	for _, b := range bad {
		if err := check("..", b.col, b.name, b.file); err == nil {
			t.Errorf("check accepted %s in %s (column %d)", b.name, b.file, b.col+1)
		}
	}
	good := []struct {
		col        int
		name, file string
	}{
		{1, "run_sound", "proofs/coq/Runproof.v"},
		{1, "S_Assign", "proofs/coq/Concrete.v"},
		{3, "(*Engine).Expand", "engine/expand.go"},
		{3, "Step", "spec/step.go"},
	}
	for _, g := range good {
		if err := check("..", g.col, g.name, g.file); err != nil {
			t.Errorf("check rejected %s in %s: %v", g.name, g.file, err)
		}
	}
	if _, err := parseCell("`run_sound` (proofs/coq/Runproof.v), `orphan`"); err == nil {
		t.Error("parseCell accepted a name without a file")
	}
	if _, _, err := readTable("| rule | Coq |\n"); err == nil {
		t.Error("readTable accepted a page without the table")
	}
}
