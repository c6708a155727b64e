// Package expect reads the answers an IMP test program expects of certsym, written inside the
// program: whole-file facts in its header, and each bug or claim at the end of the line it is
// about, so that editing the program cannot silently shift an expected line (in the manner of
// go/types' ERROR comments and starlark-go's ### annotations).
//
// The header is the comment and blank lines before the program's first line of code:
//
//	# expect: safe | unknown | bug     certsym run's verdict (bug: the bugs are annotated at their lines)
//	# expect: overall STATUS           certsym verify's overall status (the claims are annotated)
//	# options: FLAGS                   flags for the command (the line may repeat)
//
// Its other comment lines are free text. An annotation is a comment at the end of a line of code
// whose first word is BUG, BUG#N or CLAIM; it takes the whole comment. Examples (from different
// files: numbered and unnumbered bugs do not mix in one file):
//
//	fail                        # BUG fail
//	assert 10 / x > 3           # BUG assert division-by-zero
//	assert n != 1               # BUG#1 assert
//	not_one(x); not_one(x - 1)  # BUG#1 assert BUG#2 assert
//	assert 10 / x >= 0          # CLAIM assert FAULTY
//	assert 10 / x >= 0          # CLAIM assert FAULTY PRIM DIVISION R UT PRIM ASSERT R TF
//
// BUG KIND... says that certsym run reports a bug of each KIND (fail, assert, division-by-zero,
// index-out-of-range, invariant) at this line (an invariant clause's line for invariant), the line reports give: for a statement inlined from a macro, the call's line.
// The expected report order is source order (by line, then left to right) unless the bugs are
// numbered: BUG#N KIND is the N-th bug reported (--all-bugs reports in breadth-first order,
// which need not be source order). If one bug of a file is numbered, all are, 1 to n, one KIND
// after each BUG#N. CLAIM KIND STATUS... gives, for each claim of certsym verify at this line in
// the order verify lists them, its kind (assert, division, index, invariant) and status (VERIFIED, REFUTED, ...).
// PRIM KIND TOKEN LETTERS, after a claim, gives one row of that claim's table of primitive claims
// (xSymExe, Section VI): its kind (DIVISION, INDEX_LOWER, INDEX_UPPER, INDEX, ASSERT, INVARIANT), its status
// token (D, V, R, F, R?, F?, U, V?, I) and its collected results as letters (T, F, U, D, F?, U?, C
// in that order; - for none); when a claim has PRIM rows they are all its primitive claims, in
// order.
//
// Read rejects, with file:line and what was expected: a header line that still gives a line
// number, a header line after the program has started, an unknown kind or status, an annotation
// on a line where no statement can err that way (a comment or blank line, a macro body, whose
// statements are reported at the call's line, a line whose statements do not divide), and
// expectations that do not fit together (a bug verdict without bugs, bugs in a safe program,
// numbers missing or repeated).
package expect

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// Bug is a bug certsym run must report: its line and kind.
type Bug struct {
	Line int
	Kind string // fail, assert, division-by-zero, index-out-of-range or invariant
}

// String is the bug as "line L kind K".
func (b Bug) String() string { return fmt.Sprintf("line %d kind %s", b.Line, b.Kind) }

// Claim is a claim certsym verify must report: its line, kind and status.
type Claim struct {
	Line   int
	Kind   string // assert, division, index or invariant
	Status string // one of Statuses
}

// String is the claim as "line L KIND STATUS".
func (c Claim) String() string { return fmt.Sprintf("line %d %s %s", c.Line, c.Kind, c.Status) }

// Prim is a row of a claim's table of primitive claims certsym verify must report: its kind,
// status token and collected letters; Claim is the index of its developer claim in File.Claims.
type Prim struct {
	Claim   int
	Kind    string
	Token   string
	Letters string // "" for none (written -)
}

// PrimKinds are the kinds a PRIM annotation may name.
var PrimKinds = []string{"DIVISION", "INDEX_LOWER", "INDEX_UPPER", "INDEX", "ASSERT", "INVARIANT"}

// Tokens are the status tokens of a PRIM annotation, in the order of Statuses.
var Tokens = []string{"D", "V", "R", "F", "R?", "F?", "U", "V?", "I"}

var lettersRE = regexp.MustCompile(`^T?F?U?D?(F\?)?(U\?)?C?$`)

// File is what a test program expects.
type File struct {
	Path    string
	Verdict string   // certsym run's verdict: safe, unknown, bug, or "" when the header gives none
	Overall string   // certsym verify's overall status, or "" when the header gives none
	Options []string // the flags of the header's options lines, in order
	Bugs    []Bug    // in the expected report order
	Claims  []Claim  // in source order
	Prims   []Prim   // the annotated primitive claims, by claim (Prim.Claim) then in order
}

// BugKinds are the kinds a BUG annotation may name (the kinds of certsym run's report).
var BugKinds = []string{"fail", "assert", "division-by-zero", "index-out-of-range", "invariant"}

// ClaimKinds are the kinds a CLAIM annotation may name.
var ClaimKinds = []string{"assert", "division", "index", "invariant"}

// Statuses are the statuses of verify's claims (xSymExe, Section III-B5).
var Statuses = []string{"DEAD", "VERIFIED", "REFUTED", "FAULTY", "REFUTED?", "FAULTY?", "UNCOVERED", "VERIFIED?", "INDETERMINATE"}

// Error is a malformed expectation: where it is and what was expected.
type Error struct {
	Path string
	Line int
	Msg  string
}

// Error is the message as file:line: what was expected.
func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg) }

// Read reads the expectations of the IMP program in path (see the package comment).
func Read(path string) (*File, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, src)
}

var (
	bugWord   = regexp.MustCompile(`^BUG(?:#([0-9]+))?$`)
	oldBug    = regexp.MustCompile(`^bug line (\d+) kind (\S+)$`)
	oldClaim  = regexp.MustCompile(`^line (\d+) (\S+) (\S+)$`)
	overallRe = regexp.MustCompile(`^overall (\S+)$`)
)

// lineFacts says what can happen at a line, from the statements reports place there.
type lineFacts struct {
	stmt, fail, assert, invariant, divides, indexes bool
}

// facts returns, for each line, what the statements reported at that line can do.
func facts(prog *syntax.Program) map[int]*lineFacts {
	m := map[int]*lineFacts{}
	syntax.Inspect(prog.Body, func(n syntax.Node) bool {
		s, ok := n.(syntax.Stmt)
		if !ok {
			return false // an expression: nothing below it is a statement
		}
		l := s.Pos().Line
		if l == 0 {
			return true // a sequence
		}
		f := m[l]
		if f == nil {
			f = &lineFacts{}
			m[l] = f
		}
		f.stmt = true
		switch s := s.(type) {
		case *syntax.Fail:
			f.fail = true
		case *syntax.Assign:
			f.divides = f.divides || syntax.HasDivA(s.A)
			f.indexes = f.indexes || syntax.HasIndex(s.A)
		case *syntax.ArrAssign:
			f.divides = f.divides || syntax.HasDivA(s.I) || syntax.HasDivA(s.A)
			f.indexes = true
		case *syntax.If:
			f.divides = f.divides || syntax.HasDivB(s.Cond)
			f.indexes = f.indexes || syntax.HasIndex(s.Cond)
		case *syntax.While:
			f.divides = f.divides || syntax.HasDivB(s.Cond)
			f.indexes = f.indexes || syntax.HasIndex(s.Cond)
		case *syntax.Assume:
			f.divides = f.divides || syntax.HasDivB(s.Cond)
			f.indexes = f.indexes || syntax.HasIndex(s.Cond)
		case *syntax.Assert:
			if s.Violation != nil && s.Violation.Kind == syntax.FailInvariant {
				f.invariant = true // an invariant clause of a loop
			} else {
				f.assert = true
			}
			f.divides = f.divides || syntax.HasDivB(s.Cond)
			f.indexes = f.indexes || syntax.HasIndex(s.Cond)
		}
		return true
	})
	return m
}

// numbered is a bug with its number (0 when unnumbered) and its place in the source order.
type numbered struct {
	Bug
	n, at int
}

// Parse reads the expectations of the IMP program src; path names it in errors. The program must
// parse: its statements say which lines an annotation may stand on.
func Parse(path string, src []byte) (*File, error) {
	prog, err := parser.Parse(path, src)
	if err != nil {
		return nil, fmt.Errorf("the program does not parse: %w", err)
	}
	at := facts(prog)
	src = bytes.TrimPrefix(src, []byte("\xEF\xBB\xBF"))
	f := &File{Path: path}
	var errs []error
	bad := func(line int, format string, a ...any) {
		errs = append(errs, &Error{path, line, fmt.Sprintf(format, a...)})
	}
	var bugs []numbered
	verdictLine, overallLine, numberedBugs, plainBugs := 0, 0, 0, 0
	inHeader := true
	for i, text := range strings.Split(string(src), "\n") {
		n := i + 1
		code, comment, hasComment := strings.Cut(text, "#")
		code = strings.TrimSpace(code)
		if code != "" {
			inHeader = false
		}
		if !hasComment {
			continue
		}
		comment = strings.TrimSpace(comment)
		if rest, ok := strings.CutPrefix(comment, "expect:"); ok {
			if !inHeader {
				bad(n, "'# expect:' after the program's first line of code: the header is the comment lines before it")
				continue
			}
			v := strings.Join(strings.Fields(rest), " ")
			switch {
			case v == "safe" || v == "unknown" || v == "bug":
				if verdictLine != 0 {
					bad(n, "a second verdict (the first is at line %d)", verdictLine)
				}
				f.Verdict, verdictLine = v, n
			case oldBug.MatchString(v):
				m := oldBug.FindStringSubmatch(v)
				bad(n, "the header gives a line number: write '# expect: bug' here and '# BUG %s' at the end of line %s", m[2], m[1])
			case oldClaim.MatchString(v):
				m := oldClaim.FindStringSubmatch(v)
				bad(n, "the header gives a line number: write '# CLAIM %s %s' at the end of line %s", m[2], m[3], m[1])
			case overallRe.MatchString(v):
				s := overallRe.FindStringSubmatch(v)[1]
				if !member(s, Statuses) {
					bad(n, "unknown overall status %q: want one of %s", s, strings.Join(Statuses, ", "))
				}
				if overallLine != 0 {
					bad(n, "a second overall status (the first is at line %d)", overallLine)
				}
				f.Overall, overallLine = s, n
			default:
				bad(n, "malformed expectation %q: want '# expect: safe', 'unknown', 'bug' or 'overall STATUS'", v)
			}
			continue
		}
		if rest, ok := strings.CutPrefix(comment, "options:"); ok {
			if !inHeader {
				bad(n, "'# options:' after the program's first line of code: the header is the comment lines before it")
				continue
			}
			f.Options = append(f.Options, strings.Fields(rest)...)
			continue
		}
		words := strings.Fields(comment)
		if len(words) == 0 || !(strings.HasPrefix(words[0], "BUG") || strings.HasPrefix(words[0], "CLAIM")) {
			continue // free text
		}
		lf := at[n]
		if lf == nil {
			where := "no statement"
			if code == "" {
				where = "no code"
			}
			bad(n, "%s annotation on a line with %s: put it at the end of the line of the statement it is about (for a macro's statement, the line of the call)", words[0], where)
			continue
		}
		// The annotation: groups BUG[#N] KIND... and CLAIM (KIND STATUS)...
		for k := 0; k < len(words); {
			w := words[k]
			k++
			var args []string
			for k < len(words) && !bugWord.MatchString(words[k]) && words[k] != "CLAIM" && words[k] != "PRIM" {
				args = append(args, words[k])
				k++
			}
			switch {
			case w == "PRIM":
				switch {
				case len(f.Claims) == 0 || f.Claims[len(f.Claims)-1].Line != n:
					bad(n, "PRIM without a CLAIM before it on the line")
				case len(args) != 3:
					bad(n, "PRIM %s: want PRIM KIND TOKEN LETTERS", strings.Join(args, " "))
				case !member(args[0], PrimKinds):
					bad(n, "unknown primitive claim kind %q: want %s", args[0], strings.Join(PrimKinds, ", "))
				case !member(args[1], Tokens):
					bad(n, "unknown status token %q: want %s", args[1], strings.Join(Tokens, ", "))
				case args[2] != "-" && (args[2] == "" || !lettersRE.MatchString(args[2])):
					bad(n, "collected letters %q: want some of T F U D F? U? C, in that order, or - for none", args[2])
				default:
					f.Prims = append(f.Prims, Prim{len(f.Claims) - 1, args[0], args[1], strings.TrimPrefix(args[2], "-")})
				}
			case w == "CLAIM":
				if len(args) == 0 || len(args)%2 != 0 {
					bad(n, "CLAIM %s: want CLAIM followed by KIND STATUS pairs (KIND %s)", strings.Join(args, " "), strings.Join(ClaimKinds, " or "))
					continue
				}
				for j := 0; j < len(args); j += 2 {
					kind, status := args[j], args[j+1]
					switch {
					case !member(kind, ClaimKinds):
						bad(n, "unknown claim kind %q: want %s", kind, strings.Join(ClaimKinds, " or "))
					case !member(status, Statuses):
						bad(n, "unknown claim status %q: want one of %s", status, strings.Join(Statuses, ", "))
					case kind == "assert" && !lf.assert && !lf.fail:
						bad(n, "CLAIM assert on a line with no assert or fail statement")
					case kind == "invariant" && !lf.invariant:
						bad(n, "CLAIM invariant on a line with no invariant clause")
					case kind == "division" && !lf.divides:
						bad(n, "CLAIM division on a line whose statements do not divide")
					default:
						f.Claims = append(f.Claims, Claim{n, kind, status})
					}
				}
			case bugWord.MatchString(w):
				num := 0
				if s := bugWord.FindStringSubmatch(w)[1]; s != "" {
					num, _ = strconv.Atoi(s)
					if num < 1 {
						bad(n, "%s: bugs are numbered from 1", w)
						continue
					}
					if len(args) != 1 {
						bad(n, "%s %s: a numbered bug names exactly one kind (several bugs on a line: %s KIND BUG#M KIND)", w, strings.Join(args, " "), w)
						continue
					}
					numberedBugs++
				} else {
					plainBugs += len(args)
				}
				if len(args) == 0 {
					bad(n, "%s without a kind: want %s", w, strings.Join(BugKinds, ", "))
				}
				for _, kind := range args {
					switch {
					case !member(kind, BugKinds):
						bad(n, "unknown bug kind %q: want %s", kind, strings.Join(BugKinds, ", "))
					case kind == "fail" && !lf.fail:
						bad(n, "BUG fail on a line with no fail statement")
					case kind == "assert" && !lf.assert:
						bad(n, "BUG assert on a line with no assert")
					case kind == "invariant" && !lf.invariant:
						bad(n, "BUG invariant on a line with no invariant clause")
					case kind == "division-by-zero" && !lf.divides:
						bad(n, "BUG division-by-zero on a line whose statements do not divide")
					case kind == "index-out-of-range" && !lf.indexes:
						bad(n, "BUG index-out-of-range on a line whose statements access no array element")
					default:
						bugs = append(bugs, numbered{Bug{n, kind}, num, len(bugs)})
					}
				}
			default:
				bad(n, "malformed annotation word %q: want BUG, BUG#N or CLAIM", w)
			}
		}
	}
	// The bugs fit together: numbered all or none, 1..n once each; and with the verdict.
	if numberedBugs > 0 && plainBugs > 0 {
		bad(firstLine(bugs, func(b numbered) bool { return b.n == 0 }), "an unnumbered BUG in a file whose bugs are numbered: number every bug (BUG#N KIND)")
	}
	if numberedBugs > 0 && plainBugs == 0 {
		seen := map[int]int{}
		for _, b := range bugs {
			if l, dup := seen[b.n]; dup {
				bad(b.Line, "BUG#%d again (also at line %d)", b.n, l)
			}
			seen[b.n] = b.Line
		}
		for k := 1; k <= len(bugs); k++ {
			if _, ok := seen[k]; !ok && len(errs) == 0 {
				bad(bugs[0].Line, "the bugs are numbered, but BUG#%d is missing: number them 1 to %d in report order", k, len(bugs))
			}
		}
		sort.SliceStable(bugs, func(i, j int) bool { return bugs[i].n < bugs[j].n })
	}
	for _, b := range bugs {
		f.Bugs = append(f.Bugs, b.Bug)
	}
	switch {
	case f.Verdict == "bug" && len(bugs) == 0 && len(errs) == 0:
		bad(verdictLine, "'# expect: bug' but no BUG annotation: write '# BUG KIND' at the end of each bug's line")
	case (f.Verdict == "safe" || f.Verdict == "unknown") && len(bugs) > 0:
		bad(bugs[0].Line, "BUG annotation in a program whose header expects %s", f.Verdict)
	case f.Verdict == "" && len(bugs) > 0:
		bad(bugs[0].Line, "BUG annotation but no '# expect: bug' in the header")
	}
	if f.Overall == "" && len(f.Claims) > 0 {
		bad(f.Claims[0].Line, "CLAIM annotation but no '# expect: overall STATUS' in the header")
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return f, nil
}

func firstLine(bugs []numbered, p func(numbered) bool) int {
	for _, b := range bugs {
		if p(b) {
			return b.Line
		}
	}
	return 0
}

func member(s string, set []string) bool {
	for _, x := range set {
		if s == x {
			return true
		}
	}
	return false
}
