package arch

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The switch check: a type switch over IMP's syntax nodes (statements, arithmetic and boolean
// expressions) names the node types it handles, and a node type added to the language later (as
// the element assignment was) must not fall through such a switch unnoticed. So every type switch
// whose cases name a node type has a default clause that panics with the node's type (a format
// with %T); outside the syntax packages, a switch that means to handle only some nodes may
// instead be a visitor passed to Inspect, which walks every node and lets the visitor ignore the
// others (inside them too: the packages' own walks are visitors as well).
//
// The check is syntactic (go/parser, no type checking). The node types are the types with an
// unexported (marker) method that a syntax interface (Node, Stmt, AExpr, BExpr) declares, in the packages that define
// the syntax (spec, and spec/syntax once the syntax is a package of its own); a case names one
// when it is such a type, pointer or not, qualified by the name under which the file imports one
// of those packages, or unqualified in a file of one of them.

// syntaxPkgs are the module-relative paths of the packages that define (or re-export) the syntax.
var syntaxPkgs = []string{"spec", "spec/syntax"}

// syntaxIfaces are the interfaces whose own (marker) methods make a type a syntax node.
var syntaxIfaces = map[string]bool{"Node": true, "Stmt": true, "AExpr": true, "BExpr": true}

// nodeTypes parses the non-test files of the syntax packages under dir and returns the names of
// their node types: the receiver types of the methods that the syntax interfaces declare.
func nodeTypes(t *testing.T, dir string) map[string]bool {
	t.Helper()
	files := map[string]*ast.File{}
	for _, rel := range syntaxPkgs {
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, filepath.Join(dir, filepath.FromSlash(rel)), func(fi fs.FileInfo) bool {
			return !strings.HasSuffix(fi.Name(), "_test.go")
		}, 0)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pkgs {
			for name, f := range p.Files {
				files[name] = f
			}
		}
	}
	return markedTypes(files)
}

// markedTypes returns the receiver types of the methods, in files, named like an unexported
// (marker) method that a syntax interface declares in files.
func markedTypes(files map[string]*ast.File) map[string]bool {
	markers := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, s := range g.Specs {
				ts := s.(*ast.TypeSpec)
				it, ok := ts.Type.(*ast.InterfaceType)
				if !ok || !syntaxIfaces[ts.Name.Name] {
					continue
				}
				for _, m := range it.Methods.List {
					for _, n := range m.Names {
						if !n.IsExported() { // a marker, not a method such as Pos that other types have too
							markers[n.Name] = true
						}
					}
				}
			}
		}
	}
	types := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 || !markers[fd.Name.Name] {
				continue
			}
			if id, ok := unstar(fd.Recv.List[0].Type).(*ast.Ident); ok {
				types[id.Name] = true
			}
		}
	}
	return types
}

// unstar is the type a pointer type points to, or e itself when it is no pointer type.
func unstar(e ast.Expr) ast.Expr {
	if s, ok := e.(*ast.StarExpr); ok {
		return s.X
	}
	return e
}

// switchViolations returns the type switches of file f that name a node type and have no
// default that panics with the node's type, each as "file:line:col: ...". rel is the
// module-relative directory of the file; nodes are the names of the node types (nodeTypes).
func switchViolations(fset *token.FileSet, f *ast.File, rel string, nodes map[string]bool) []string {
	// The qualifiers under which the file imports a syntax package, and whether it may name the
	// node types unqualified (a file of a syntax package, or one that dot-imports it).
	qual := map[string]bool{}
	local := false
	for _, im := range f.Imports {
		ip, _ := strconv.Unquote(im.Path.Value)
		if !slices.Contains(syntaxPkgs, strings.TrimPrefix(ip, module+"/")) {
			continue
		}
		name := ip[strings.LastIndex(ip, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		qual[name] = true
		local = local || name == "."
	}
	if slices.Contains(syntaxPkgs, rel) && !strings.HasSuffix(f.Name.Name, "_test") {
		local = true
	}
	isNode := func(e ast.Expr) bool {
		switch e := unstar(e).(type) {
		case *ast.Ident:
			return local && nodes[e.Name]
		case *ast.SelectorExpr:
			x, ok := e.X.(*ast.Ident)
			return ok && qual[x.Name] && nodes[e.Sel.Name]
		}
		return false
	}
	// isInspect reports whether a call is Inspect of a syntax package.
	isInspect := func(c *ast.CallExpr) bool {
		switch fn := c.Fun.(type) {
		case *ast.Ident:
			return local && fn.Name == "Inspect"
		case *ast.SelectorExpr:
			x, ok := fn.X.(*ast.Ident)
			return ok && qual[x.Name] && fn.Sel.Name == "Inspect"
		}
		return false
	}
	var out []string
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		sw, ok := n.(*ast.TypeSwitchStmt)
		if !ok || visitor(stack, isInspect) {
			return true
		}
		var named []string
		panics := false
		for _, c := range sw.Body.List {
			cc := c.(*ast.CaseClause)
			if cc.List == nil {
				panics = panicsWithType(cc.Body)
			}
			for _, e := range cc.List {
				if isNode(e) {
					named = append(named, typeText(e))
				}
			}
		}
		if len(named) > 0 && !panics {
			out = append(out, fmt.Sprintf("%s: a type switch over syntax nodes (%s) without a default that panics with the node's type (%%T)",
				fset.Position(sw.Pos()), strings.Join(named, ", ")))
		}
		return true
	})
	return out
}

// visitor reports whether the innermost function around the top of stack is a function literal
// passed to Inspect: a visitor, which sees every node and may ignore most.
func visitor(stack []ast.Node, isInspect func(*ast.CallExpr) bool) bool {
	for i := len(stack) - 1; i > 0; i-- {
		switch fn := stack[i].(type) {
		case *ast.FuncDecl:
			return false
		case *ast.FuncLit:
			call, ok := stack[i-1].(*ast.CallExpr)
			if !ok || !isInspect(call) {
				return false
			}
			for _, a := range call.Args {
				if a == fn {
					return true
				}
			}
			return false
		}
	}
	return false
}

// panicsWithType reports whether a default clause's body calls panic with an argument that
// formats the node's type: a format string with %T (fmt.Sprintf("...%T", n), fmt.Errorf, ...).
func panicsWithType(body []ast.Stmt) bool {
	for _, s := range body {
		es, ok := s.(*ast.ExprStmt)
		if !ok {
			continue
		}
		call, ok := es.X.(*ast.CallExpr)
		if !ok {
			continue
		}
		if fn, ok := call.Fun.(*ast.Ident); !ok || fn.Name != "panic" {
			continue
		}
		found := false
		ast.Inspect(call, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && strings.Contains(lit.Value, "%T") {
				found = true
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// typeText is a case's type as written.
func typeText(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return "*" + typeText(e.X)
	case *ast.SelectorExpr:
		return typeText(e.X) + "." + e.Sel.Name
	case *ast.Ident:
		return e.Name
	}
	return "?"
}

// TestSyntaxSwitches: no type switch over syntax nodes in the module's Go files (tests included)
// lacks a default that panics with the node's type.
func TestSyntaxSwitches(t *testing.T) {
	dir := root(t)
	nodes := nodeTypes(t, dir)
	if !nodes["Assign"] || !nodes["ArrAssign"] || !nodes["If"] {
		t.Fatalf("the node types found in %v (%v) lack Assign, ArrAssign or If: the check is broken", syntaxPkgs, nodes)
	}
	var out []string
	switches := 0
	fset := token.NewFileSet()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != dir && (strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if _, ok := n.(*ast.TypeSwitchStmt); ok {
				switches++
			}
			return true
		})
		rel, _ := filepath.Rel(dir, filepath.Dir(path))
		out = append(out, switchViolations(fset, f, filepath.ToSlash(rel), nodes)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if switches == 0 {
		t.Fatal("no type switch found: the walk is broken")
	}
	sort.Strings(out)
	for _, v := range out {
		t.Error(v)
	}
}

// TestSwitchCheck: the check rejects the type switches over syntax nodes that could let a node
// type through unnoticed, under every way a file can name the node types, and accepts the
// others: panicking defaults, visitors passed to Inspect, switches over other types.
func TestSwitchCheck(t *testing.T) {
	nodes := markedTypes(map[string]*ast.File{"ast.go": parseSnippet(t, `package spec
type Node interface {
	node()
	Pos() Pos
}
type Stmt interface {
	Node
	stmt()
}
type Assign struct{}
type If struct{}
type Num struct{}
type Array struct{}
type Loc struct{}
func (*Assign) node() {}
func (*If) stmt() {}
func (Num) node() {}
func (*Array) Size() int { return 0 }
func (Loc) Pos() Pos { return Pos{} }
`)})
	if want := map[string]bool{"Assign": true, "If": true, "Num": true}; !maps.Equal(nodes, want) {
		t.Fatalf("node types %v, want %v", nodes, want)
	}
	const imp = "package p\nimport (\n\t\"fmt\"\n\t\"certsym/spec/syntax\"\n)\nvar _ = fmt.Sprint\n"
	for _, c := range []struct {
		name, rel, src string
		reject         bool
	}{
		{"no default", "p", imp + `func f(s syntax.Stmt) int {
	switch s.(type) {
	case *syntax.Assign:
		return 1
	}
	return 0
}`, true},
		{"a default that does not panic", "p", imp + `func f(s syntax.Stmt) int {
	switch s.(type) {
	case *syntax.If:
		return 1
	default:
		return 0
	}
}`, true},
		{"a default that panics without the type", "p", imp + `func f(s syntax.Stmt) int {
	switch s.(type) {
	case *syntax.If:
		return 1
	default:
		panic("unknown statement")
	}
}`, true},
		{"a panic after the switch", "p", imp + `func f(s syntax.Stmt) int {
	switch s.(type) {
	case *syntax.If:
		return 1
	}
	panic(fmt.Sprintf("unknown statement %T", s))
}`, true},
		{"a value type, renamed import", "p", "package p\nimport sp \"certsym/spec\"\n" + `func f(n sp.Node) {
	switch n.(type) {
	case sp.Num:
	}
}`, true},
		{"the syntax package", "p", "package p\nimport \"certsym/spec/syntax\"\n" + `func f(n syntax.Node) {
	switch n.(type) {
	case *syntax.Assign, *syntax.If:
	}
}`, true},
		{"dot import", "p", "package p\nimport . \"certsym/spec/syntax\"\n" + `func f(n Node) {
	switch n.(type) {
	case *If:
	}
}`, true},
		{"unqualified in spec", "spec", `package spec
func f(n Node) {
	switch n.(type) {
	case *Assign:
	}
}`, true},
		{"unqualified in spec/syntax", "spec/syntax", `package syntax
func f(n Node) {
	switch n.(type) {
	case *If:
	}
}`, true},
		{"in a function literal not given to Inspect", "p", imp + `func f(ss []syntax.Stmt) {
	each(ss, func(s syntax.Stmt) {
		switch s.(type) {
		case *syntax.Assign:
		}
	})
}`, true},
		{"in a function literal inside a visitor", "p", imp + `func f(s syntax.Stmt) {
	syntax.Inspect(s, func(n syntax.Node) bool {
		each(nil, func(s syntax.Stmt) {
			switch s.(type) {
			case *syntax.Assign:
			}
		})
		return true
	})
}`, true},
		{"a default that panics with the type", "p", imp + `func f(s syntax.Stmt) int {
	switch s.(type) {
	case *syntax.Assign:
		return 1
	default:
		panic(fmt.Sprintf("unknown statement %T", s))
	}
}`, false},
		{"a visitor", "p", imp + `func f(s syntax.Stmt) (n int) {
	syntax.Inspect(s, func(m syntax.Node) bool {
		switch m.(type) {
		case *syntax.Assign:
			n++
		}
		return true
	})
	return
}`, false},
		{"a visitor inside spec", "spec", `package spec
func f(s Stmt) {
	Inspect(s, func(m Node) bool {
		switch m.(type) {
		case *If:
		}
		return true
	})
}`, false},
		{"not a node type", "p", imp + `func f(x any) {
	switch x.(type) {
	case *syntax.Array, int:
	}
}`, false},
		{"another package's type of a node's name", "p", "package p\nimport \"certsym/sym\"\n" + `func f(x any) {
	switch x.(type) {
	case *sym.Assign:
	}
}`, false},
		{"a type of its own named like a node", "p", `package p
type If struct{}
func f(x any) {
	switch x.(type) {
	case *If:
	}
}`, false},
		{"an external test of spec", "spec", `package spec_test
type Assign struct{}
func f(x any) {
	switch x.(type) {
	case *Assign:
	}
}`, false},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "x.go", c.src, 0)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := switchViolations(fset, f, c.rel, nodes)
		if len(got) > 1 || (len(got) == 1) != c.reject {
			t.Errorf("%s: reported %q, want a report: %v", c.name, got, c.reject)
		}
	}
}

// parseSnippet parses the source of one file.
func parseSnippet(t *testing.T, src string) *ast.File {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
