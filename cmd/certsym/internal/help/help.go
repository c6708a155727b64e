// Package help is certsym's help: the usage text, the help topics (each command's usage and
// option list, the language, the exit statuses, the test case format), the man page and the bash completion
// script. A command's options are the text its own -h prints (the flag package's list, from the
// definitions the command parses), so the help cannot drift from the flags.
package help

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
)

// Usage is certsym's usage text: one entry per command (its synopsis, then what it does,
// indented), then what every command shares. The help pages and the man page are cut from it.
const Usage = `usage:
  certsym run FILE [--strategy S] [--max-states N] [--timeout D] [--all-bugs] [--json] [--full] [--workers N] [--shard I/N] [--burst K] [--merge]
      find bugs by symbolic execution (exit 1 bug, 0 safe, 3 no verdict, 2 usage/syntax error);
      S: bfs (default), dfs, coverage, random-path [--seed N], generational [--seed-input x=1,y=2]
      artifacts: --tests DIR [--max-tests N], --coverage, --lcov FILE, --sarif FILE, --dot FILE (certsym help run)
  certsym run --loop-bound N FILE [--json] [--full] [--workers N]
      bounded symbolic execution: result states grouped by behaviour
  certsym run FILE --distributed URL [--lease D] [--split N] [--all-bugs] [--json] [--full]
      coordinate a run on the workers of the NATS JetStream broker at URL; prints run --workers's report
  certsym worker URL [--idle D] [--name NAME]
      explore jobs of distributed runs from the broker at URL until SIGINT/SIGTERM (or --idle)
  certsym merge FILE... [--json]
      the verdict of a run from the JSON reports of its N shards (run --shard I/N --json)
  certsym exec FILE [--input x=3,y=-2,a=[5,0,7] | --input-file FILE] [--max-steps N] [--timeout D] [--json]
      run the program on one input with the concrete semantics
  certsym concolic FILE --input x=3,y=-2 (or --input-file FILE) [--max-steps N] [--timeout D] [--json] [--full]
      the path of one input: each branch point, its path condition and the input that flips it
  certsym parse FILE
      print the program in the core language (macros inlined)
  certsym verify FILE [--loop-bound N] [--loops unroll|invariant] [--depth-bound N] [--abstract-nonlinear] [--json] [--html FILE] [--sarif FILE] [--full] [--paths N] [--all-paths] [--workers N]
      a status and its evidence for every claim (exit 0 all VERIFIED/DEAD, 1 REFUTED/FAULTY, 3 otherwise)
  certsym prove FILE [--infer | --no-infer] [--certificate FILE.mlw] [--unroll N] [--reach-states N] [--timeout D] [--json]
      prove every claim for every input, loops by their invariant clauses (exit 0 proved, 1 refuted, 3 unknown)
  certsym replay FILE|DIR [--program FILE] [--outcome-only] [--max-steps N] [--timeout D] [--json]
      rerun the test cases of run --tests on the concrete semantics (exit 1 if one differs)
  certsym help [TOPIC]   certsym completion bash   certsym --version
FILE - reads the program from standard input. Every command that runs the program stops at
--timeout, --max-memory, run's integer bound (values of more than 2^20 bits) and Ctrl-C (SIGINT)
or SIGTERM, with the partial report and exit status 3; a second signal, a second or more after
the first, exits at once.
run certsym COMMAND -h for a command's options.
`

// Book is what the help is made of besides its fixed text.
type Book struct {
	// Commands are certsym's subcommands that take options, by name: each is run with -h to list
	// its options.
	Commands map[string]func(args []string, stdout, stderr io.Writer) int
	// Version is certsym's version, in the man page's header.
	Version string
	// Strategies are the values of run --strategy, completed after it.
	Strategies []string
	// Grammar is the grammar of IMP in EBNF with its comments (spec/syntax/parser/grammar.txt):
	// certsym help language prints its productions.
	Grammar string
}

// languageIntro is what certsym help language says before the grammar: the language in a few
// lines (docs/language.md is the whole reader's guide, spec/SEMANTICS.md the rules).
const languageIntro = `The IMP language (the reader's guide: docs/language.md; the semantics: spec/SEMANTICS.md)
  A program is array declarations and macro definitions, then statements separated by ';'.
  '#' starts a comment that runs to the end of the line.
  - Values are mathematical integers: no overflow. / and % truncate toward zero.
  - Every variable read before it is assigned, and every array element, is an input.
  - Errors (the bugs certsym run finds): fail reached, an assert whose condition is false, a
    division or remainder by zero, an array index outside the array's bounds, a loop invariant
    that is false.
  - while b invariant I1 invariant I2 do ... od: each clause is checked, in order, at every
    arrival at the loop's head (on entry and after each iteration), before b is evaluated; a
    false one is an error of kind invariant, an undefined one the error of its evaluation.
  - assume b ends the run without error when b is false (an infeasible path, not a bug).
  - and, or and quantifiers evaluate every operand and instance: no short-circuit.
  - forall k in lo..hi: b and exists k in lo..hi: b range over the integers lo to hi; the body
    extends as far right as possible.
  - A macro call is replaced by the macro's body, the arguments substituted for the parameters
    (call by name); a parameter the body assigns takes a variable, one it indexes an array.
  Precedence, loosest first: or, and, not, the comparisons (which do not chain), + and -, * / and
  %, unary minus. Keywords are not identifiers.

Grammar (EBNF: | separates alternatives, ( ) groups, [ ] is optional, { } repeats; the lower-case
productions are lexical):
`

// LanguageExample is the example program of certsym help language; a test parses it and runs it
// through certsym run, which must find the bug the page describes.
const LanguageExample = `# The largest element of the array a, checked by a macro with a quantifier.
array a[0..4];
macro check_max(m) begin
  assert forall k in 0..4: a[k] <= m
end
m = a[0];
i = 1;
while i < 4 do  # the bug: i <= 4 would visit a[4]
  if a[i] > m then m = a[i] fi;
  i = i + 1
od;
check_max(m)
`

// languageOutro follows the example in certsym help language.
const languageOutro = `
certsym run finds the bug: the assert of check_max, called at line 12, is violated on an
input whose a[4] is the largest element. certsym parse prints a program with its macros inlined.
`

// productions are the productions of an EBNF grammar text without its comments: the lines that
// do not start with //, indented, with one blank line between groups.
func productions(grammar string) string {
	var b strings.Builder
	blank := false
	for _, l := range strings.Split(grammar, "\n") {
		switch {
		case strings.HasPrefix(l, "//"):
		case strings.TrimSpace(l) == "":
			blank = b.Len() > 0
		default:
			if blank {
				b.WriteString("\n")
				blank = false
			}
			b.WriteString("  " + l + "\n")
		}
	}
	return b.String()
}

// language is the text of certsym help language.
func (bk Book) language() string {
	var b strings.Builder
	b.WriteString(languageIntro)
	b.WriteString(productions(bk.Grammar))
	b.WriteString("\nAn example (save it as max.imp and run certsym run max.imp):\n")
	for _, l := range strings.SplitAfter(LanguageExample, "\n") {
		if l != "" {
			b.WriteString("  " + l)
		}
	}
	b.WriteString(languageOutro)
	return b.String()
}

// topics are the help pages that are not a command's.
var topics = map[string]string{
	"exit-codes": `Exit statuses of certsym:
  0  run: no bug (the exploration finished); exec, concolic: the run finished or stopped at a
     false assume; verify: every claim VERIFIED or DEAD; replay: every test case behaves as recorded
  1  run: a confirmed bug (also when a bound or an interrupt stopped run --all-bugs after it);
     exec, concolic: the run reached an error; verify: a claim REFUTED or FAULTY; replay: a test
     case no longer behaves as recorded
  2  usage error, syntax error, unreadable file, an output file (--tests, --sarif, --lcov, --dot,
     --html) that cannot be written (checked before the run)
  3  no verdict: a bound was reached (--max-states, --max-steps, --timeout, --max-memory, the
     integer bound), a phase was cut short (the partial report says which), or the solver
     answered unknown; replay: a test case stopped by a bound;
     interrupted: SIGINT (Ctrl-C) or SIGTERM stops every command that runs the program (run,
     verify, exec, concolic, replay) with its partial report and status 3, verify's even when a
     claim is REFUTED or FAULTY; a second signal, a second or more after the first, or a run that
     does not stop within 2 s of the first, exits at once with status 3 and no report
  4  internal error of certsym (a bug or a flip input that does not replay, a crash)
`,
	"tests": `Test case files (certsym run --tests DIR, read by certsym replay):
  one JSON object per explored terminal path of the run, DIR/test000001.json, ...:
    certsym_test    the format version (2; replay also reads 1, whose program path starts from
                    the working directory of the run)
    program         the program file, relative to the test case's directory unless absolute;
                    program_sha256 the hash of its bytes then
    input           a value for every variable (JSON numbers with all their digits), and for
                    every array the list of its elements from lo to hi
    expected        outcome: "normal" (finished), "bug" (kind, line, col of the error) or
                    "infeasible" (line, col of the assume no input on the path gets past);
                    steps: the number of steps of the concrete semantics to that end
    path_condition  the path condition of the path, in IMP syntax
  Paths with the same input and expected end are written once; run --max-tests N writes the first
  N. certsym replay FILE|DIR runs each input on the concrete semantics and compares its end with
  the recorded one (--outcome-only: not the number of steps).
`,
}

// commandUsage is the part of the usage text about one command, without the usage text's pointers
// to the command's own help page.
func commandUsage(name string) string {
	var b strings.Builder
	in := false
	for _, l := range strings.Split(Usage, "\n") {
		switch {
		case strings.HasPrefix(l, "  certsym "):
			in = strings.HasPrefix(l, "  certsym "+name+" ") || l == "  certsym "+name
		case !strings.HasPrefix(l, "      "):
			in = false
		}
		if in {
			b.WriteString(strings.Replace(l, " (certsym help "+name+")", "", 1) + "\n")
		}
	}
	return b.String()
}

// Options is the list of the options of command name as its -h prints it.
func (bk Book) Options(name string) string {
	var stderr bytes.Buffer
	bk.Commands[name]([]string{"-h"}, io.Discard, &stderr)
	lines := strings.SplitAfter(stderr.String(), "\n")
	if len(lines) > 0 && strings.HasPrefix(lines[0], "Usage of ") {
		lines = lines[1:]
	}
	return strings.Join(lines, "")
}

// topicNames are the topics of certsym help TOPIC, sorted.
func (bk Book) topicNames() []string {
	var names []string
	for n := range bk.Commands {
		names = append(names, n)
	}
	for n := range topics {
		names = append(names, n)
	}
	names = append(names, "completion", "language")
	sort.Strings(names)
	return names
}

// Help is certsym help [TOPIC]; it returns false after a usage error (reported on stderr).
func (bk Book) Help(args []string, stdout, stderr io.Writer) bool {
	if len(args) == 0 {
		fmt.Fprint(stdout, Usage)
		fmt.Fprintf(stdout, "help topics (certsym help TOPIC): %s\ncertsym help --man prints all of them as a man page: certsym help --man | man -l -\n", strings.Join(bk.topicNames(), ", "))
		return true
	}
	if len(args) > 1 {
		fmt.Fprintf(stderr, "certsym help: expected one TOPIC, found %d arguments\n", len(args))
		return false
	}
	topic := args[0]
	switch {
	case topic == "--man":
		bk.Man(stdout)
	case bk.Commands[topic] != nil:
		fmt.Fprintf(stdout, "%s\noptions (-name and --name are the same):\n%s", commandUsage(topic), bk.Options(topic))
	case topics[topic] != "":
		fmt.Fprint(stdout, topics[topic])
	case topic == "completion":
		fmt.Fprint(stdout, "certsym completion bash\n      print a bash completion script; load it with\n      source <(certsym completion bash)\n")
	case topic == "language":
		fmt.Fprint(stdout, bk.language())
	default:
		fmt.Fprintf(stderr, "certsym help: unknown topic %q (topics: %s)\n", topic, strings.Join(bk.topicNames(), ", "))
		return false
	}
	return true
}

// FlagLine matches a line of the flag package's list of options: -name, then the placeholder of its
// value unless it is a boolean flag.
var FlagLine = regexp.MustCompile(`^  -([a-z0-9-]+)(?: ([A-Za-z]+))?`)

// Completion is certsym completion bash: a bash completion script generated from the commands'
// own option lists. It returns false after a usage error (reported on stderr).
func (bk Book) Completion(args []string, stdout, stderr io.Writer) bool {
	if len(args) != 1 || args[0] != "bash" {
		fmt.Fprintf(stderr, "certsym completion: expected one shell: bash\n")
		return false
	}
	var names []string
	for n := range bk.Commands {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("# bash completion for certsym, generated by certsym completion bash.\n# Load it with: source <(certsym completion bash)\n")
	b.WriteString("_certsym() {\n  local cur prev cmd flags valued files\n  cur=\"${COMP_WORDS[COMP_CWORD]}\"\n  prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n")
	fmt.Fprintf(&b, "  if [[ $COMP_CWORD -eq 1 ]]; then\n    COMPREPLY=($(compgen -W %q -- \"$cur\"))\n    return\n  fi\n",
		strings.Join(names, " ")+" help completion --version --help")
	b.WriteString("  cmd=\"${COMP_WORDS[1]}\"\n  case \"$cmd\" in\n")
	for _, n := range names {
		var flags, valued, files []string
		for _, l := range strings.Split(bk.Options(n), "\n") {
			m := FlagLine.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			flags = append(flags, "--"+m[1])
			if m[2] != "" {
				valued = append(valued, "--"+m[1])
			}
			if m[2] == "FILE" || m[2] == "DIR" {
				files = append(files, "--"+m[1])
			}
		}
		fmt.Fprintf(&b, "    %s) flags=%q; valued=%q; files=%q ;;\n", n, strings.Join(flags, " "),
			" "+strings.Join(valued, " ")+" ", " "+strings.Join(files, " ")+" ")
	}
	fmt.Fprintf(&b, "    help) COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n", strings.Join(bk.topicNames(), " "))
	b.WriteString("    completion) COMPREPLY=($(compgen -W \"bash\" -- \"$cur\")); return ;;\n")
	b.WriteString("    *) COMPREPLY=(); return ;;\n  esac\n")
	b.WriteString(`  if [[ "$valued" == *" $prev "* ]]; then
    if [[ "$prev" == "--strategy" ]]; then
      COMPREPLY=($(compgen -W "` + strings.Join(bk.Strategies, " ") + `" -- "$cur"))
    elif [[ "$files" == *" $prev "* ]]; then
      COMPREPLY=($(compgen -f -- "$cur"))
    else
      COMPREPLY=()
    fi
    return
  fi
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
    return
  fi
  COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o filenames -F _certsym certsym
`)
	fmt.Fprint(stdout, b.String())
	return true
}

// roff escapes text for a man page line: backslashes, hyphens (as minus signs, so options can
// be searched and copied), and a leading dot or quote; the grammar's ellipsis is written in ASCII.
func roff(s string) string {
	s = strings.ReplaceAll(s, "…", "...")
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "-", `\-`)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}

// Man prints certsym(1), a man page made of the same text as certsym help: the usage,
// each command's usage and option list (its own -h), the language, the exit statuses and the
// test case format.
func (bk Book) Man(w io.Writer) {
	var b strings.Builder
	b.WriteString(".TH CERTSYM 1 \"\" \"certsym " + roff(bk.Version) + "\" \"User Commands\"\n")
	b.WriteString(".SH NAME\ncertsym \\- find bugs in and verify claims of IMP programs by symbolic execution\n")
	b.WriteString(".SH SYNOPSIS\n.nf\n")
	for _, l := range strings.Split(strings.TrimSpace(Usage), "\n") {
		if strings.HasPrefix(l, "  certsym ") {
			b.WriteString(roff(strings.TrimSpace(l)) + "\n")
		}
	}
	b.WriteString(".fi\n.SH COMMANDS\n")
	var names []string
	for n := range bk.Commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, ".SS %s\n.nf\n", n)
		for _, l := range strings.Split(strings.TrimRight(commandUsage(n), "\n"), "\n") {
			b.WriteString(roff(strings.TrimPrefix(l, "  ")) + "\n")
		}
		b.WriteString(".fi\n")
		opts := strings.Split(strings.TrimRight(bk.Options(n), "\n"), "\n")
		for i := 0; i < len(opts); i++ {
			l := opts[i]
			if !strings.HasPrefix(l, "  -") {
				continue
			}
			b.WriteString(".TP\n.B " + roff("-"+strings.TrimSpace(l)) + "\n")
			for i+1 < len(opts) && strings.HasPrefix(opts[i+1], "    \t") {
				i++
				b.WriteString(roff(strings.TrimSpace(opts[i])) + "\n")
			}
		}
	}
	b.WriteString(".SH LANGUAGE\n.nf\n")
	for _, l := range strings.Split(strings.TrimRight(bk.language(), "\n"), "\n") {
		b.WriteString(roff(l) + "\n")
	}
	b.WriteString(".fi\n.SH EXIT STATUS\n.nf\n")
	for _, l := range strings.Split(strings.TrimRight(topics["exit-codes"], "\n"), "\n")[1:] {
		b.WriteString(roff(strings.TrimPrefix(l, "  ")) + "\n")
	}
	b.WriteString(".fi\n.SH FILES\n.nf\n")
	for _, l := range strings.Split(strings.TrimRight(topics["tests"], "\n"), "\n") {
		b.WriteString(roff(l) + "\n")
	}
	b.WriteString(".fi\n.SH SEE ALSO\ncertsym help TOPIC, the README of the certsym repository\n")
	io.WriteString(w, b.String())
}
