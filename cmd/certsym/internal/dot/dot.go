// Package dot draws the symbolic execution tree of a run of the bug finder in Graphviz's DOT
// language (certsym run --dot FILE): a node per state up to a node limit, coloured by what became
// of it, and an edge per step labelled with the branch taken and what it adds to the path
// condition.
package dot

import (
	"fmt"
	"io"
	"strings"

	"certsym/cmd/certsym/internal/report"
	"certsym/engine"
	"certsym/pathcond"
	"certsym/spec/syntax"
	"certsym/sym"
)

// Tree is the symbolic execution tree of a run (--dot FILE): a node per state, first seen first
// numbered, up to a node limit; an edge from each expanded state to each of its successors. It is
// an engine.Observer: the engine (or an observer that forwards to it) builds it as it runs.
type Tree struct {
	limit   int
	ids     map[*engine.State]int
	nodes   []*engine.State
	edges   []treeEdge
	omitted int // successors not drawn because of the limit
	pruned  map[*engine.State]bool
	expd    map[*engine.State]bool
}

type treeEdge struct {
	from, to *engine.State
	branch   string // the source condition of the branch taken, "" for a step that does not branch
}

// branchLabel is the condition, in the program's syntax, under which the i-th successor of a
// state about to execute head is taken (the successors in the order of the rules of Expand: the
// normal ones, then the division by zero, then the index out of range), or "" for a step that
// does not branch.
func branchLabel(head syntax.Stmt, i int) string {
	var normal []string // the labels of the successors that do not err
	switch s := head.(type) {
	case *syntax.If:
		normal = []string{syntax.PrintB(s.Cond), "not (" + syntax.PrintB(s.Cond) + ")"}
	case *syntax.Assert:
		normal = []string{syntax.PrintB(s.Cond), "not (" + syntax.PrintB(s.Cond) + ")"}
	case *syntax.Assume:
		normal = []string{"assume " + syntax.PrintB(s.Cond)}
	case *syntax.Assign, *syntax.ArrAssign:
		normal = []string{""} // named below after the errors it escapes, if any
	case *syntax.Skip, *syntax.Fail, *syntax.While, *syntax.Seq:
		return ""
	default:
		panic(fmt.Sprintf("dot: unknown statement %T", head))
	}
	div, idx := syntax.Fails(head)
	var errs, escaped []string
	if div != nil {
		errs, escaped = append(errs, "division by zero"), append(escaped, "no division by zero")
	}
	if idx != nil {
		errs, escaped = append(errs, "index out of range"), append(escaped, "index in range")
	}
	if normal[0] == "" {
		normal[0] = strings.Join(escaped, ", ")
	}
	if labels := append(normal, errs...); i < len(labels) {
		return labels[i]
	}
	return ""
}

// New returns an empty tree that draws at most limit states.
func New(limit int) *Tree {
	return &Tree{limit: limit, ids: map[*engine.State]int{}, pruned: map[*engine.State]bool{}, expd: map[*engine.State]bool{}}
}

// add numbers st, unless the limit is reached; it reports whether st is in the tree.
func (t *Tree) add(st *engine.State) bool {
	if _, ok := t.ids[st]; ok {
		return true
	}
	if len(t.nodes) >= t.limit {
		return false
	}
	t.ids[st] = len(t.nodes)
	t.nodes = append(t.nodes, st)
	return true
}

// Expanded implements engine.Observer: st and its successors are drawn, with an edge to each.
func (t *Tree) Expanded(st *engine.State, succ []*engine.State) {
	if !t.add(st) { // the root is the first state expanded
		t.omitted += len(succ)
		return
	}
	t.expd[st] = true
	head := st.HeadStmt()
	for i, s := range succ {
		if !t.add(s) {
			t.omitted++
			continue
		}
		t.edges = append(t.edges, treeEdge{st, s, branchLabel(head, i)})
	}
}

// Pruned implements engine.Observer: st, if drawn, is marked pruned.
func (t *Tree) Pruned(st *engine.State) {
	if _, drawn := t.ids[st]; drawn {
		t.pruned[st] = true
	}
}

// Node kinds and their colors.
const (
	nodeError    = "error"
	nodePruned   = "pruned"
	nodeFinished = "finished"
	nodePending  = "pending"
	nodeInner    = "explored"
)

var nodeColor = map[string]string{nodeError: "#f4a6a6", nodePruned: "#d0d0d0", nodeFinished: "#a8e0a0",
	nodePending: "#ffe08a", nodeInner: "#ffffff"}

// kind classifies a node: a pruned state (no input follows its path), an error state, a finished
// program, a state never expanded (pending when the run stopped), or an explored inner state.
func (t *Tree) kind(st *engine.State) string {
	switch {
	case t.pruned[st] || st.PC.Status == pathcond.Unsat:
		return nodePruned
	case st.ErrorOf() != nil:
		return nodeError
	case st.IsFinal():
		return nodeFinished
	case !t.expd[st]:
		return nodePending
	}
	return nodeInner
}

// stmtLabel describes the statement a state is about to execute.
func stmtLabel(s syntax.Stmt) string {
	p := s.Pos()
	at := fmt.Sprintf("%d:%d ", p.Line, p.Col)
	switch s := s.(type) {
	case *syntax.Skip:
		return "skip"
	case *syntax.Fail:
		return at + report.DescribeFail(s)
	case *syntax.Assign:
		return at + s.X.Name + " = ..."
	case *syntax.ArrAssign:
		return at + s.Arr.Name + "[" + syntax.PrintA(s.I) + "] = ..."
	case *syntax.If:
		return at + "if"
	case *syntax.While:
		return at + "while"
	case *syntax.Assume:
		return at + "assume"
	case *syntax.Assert:
		if s.Violation != nil && s.Violation.Kind == syntax.FailInvariant {
			return at + "invariant"
		}
		return at + "assert"
	default:
		panic(fmt.Sprintf("dot: unknown statement %T", s))
	}
}

// nodeStmt describes what a state is about to do: end for a finished program.
func nodeStmt(st *engine.State) string {
	if st.IsFinal() {
		return "end"
	}
	return stmtLabel(st.HeadStmt())
}

// dotString quotes s as a DOT string.
func dotString(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, `"`, `\"`)
	s = strings.ReplaceAll(s, "\n", `\n`)
	return `"` + s + `"`
}

// Write writes the tree in Graphviz's DOT language. Each node shows its number, its depth and
// the statement about to execute; each edge that adds to the path condition is labelled with
// what it adds (the branch condition).
func (t *Tree) Write(w io.Writer, names []string) error {
	var b strings.Builder
	b.WriteString("digraph certsym {\n  node [shape=box, style=filled, fontname=\"monospace\"];\n  edge [fontname=\"monospace\"];\n")
	for i, st := range t.nodes {
		k := t.kind(st)
		fmt.Fprintf(&b, "  n%d [label=%s, fillcolor=%s, tooltip=%s];\n", i,
			dotString(fmt.Sprintf("#%d depth %d\n%s\n(%s)", i, st.Depth, nodeStmt(st), k)),
			dotString(nodeColor[k]), dotString(report.PCText(st.PC, names, 5000)))
	}
	for _, e := range t.edges {
		var conds []string
		for _, f := range engine.Added(e.from, e.to) {
			if report.PrintSize([]*sym.Formula{f}, 2000) > 2000 {
				conds = append(conds, "(a condition too large to print)")
			} else {
				conds = append(conds, f.String(names))
			}
		}
		text := e.branch
		if len(conds) > 0 {
			text += "\npath condition += " + strings.Join(conds, " and ")
		}
		label := ""
		if text != "" {
			label = fmt.Sprintf(" [label=%s]", dotString(strings.TrimPrefix(text, "\n")))
		}
		fmt.Fprintf(&b, "  n%d -> n%d%s;\n", t.ids[e.from], t.ids[e.to], label)
	}
	if t.omitted > 0 {
		fmt.Fprintf(&b, "  omitted [shape=note, style=\"\", label=%s];\n",
			dotString(fmt.Sprintf("node limit %d reached: %d more states not drawn", t.limit, t.omitted)))
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}
