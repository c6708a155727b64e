package main

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
)

// commands are certsym's subcommands that take options, by name: their help pages and their
// completions are generated from the text their own -h prints (the flag package's list of the
// options, from the same definitions the command parses).
var commands = map[string]func(args []string, stdout, stderr io.Writer) int{
	"run": cmdRun, "exec": cmdExec, "concolic": cmdConcolic, "parse": cmdParse, "verify": cmdVerify, "replay": cmdReplay,
	"merge": cmdMerge,
}

// otherTopics are the help pages that are not a command's.
var otherTopics = map[string]string{
	"exit-codes": `Exit statuses of certsym:
  0  run: no bug (the exploration finished); exec, concolic: the run finished or stopped at a
     false assume; verify: every claim VERIFIED or DEAD; replay: every test case behaves as recorded
  1  run: a confirmed bug; exec, concolic: the run reached an error; verify: a claim REFUTED or
     FAULTY; replay: a test case no longer behaves as recorded
  2  usage error, syntax error, unreadable file, an output file (--tests, --sarif, --lcov, --dot,
     --html) that cannot be written (checked before the run)
  3  no verdict: a bound was reached (--max-states, --max-steps, --timeout, --max-memory, the
     integer bound), the run was interrupted (SIGINT, SIGTERM), a phase was cut short (the partial
     report says which), or the solver answered unknown; replay: a test case stopped by a bound
  4  internal error of certsym (a bug or a flip input that does not replay, a crash)
`,
	"tests": `Test case files (certsym run --tests DIR, read by certsym replay):
  one JSON object per explored terminal path of the run, DIR/test000001.json, ...:
    certsym_test    the format version (1)
    program         the program file as given to run; program_sha256 the hash of its bytes then
    input           a value for every variable (JSON numbers with all their digits), and for
                    every array the list of its elements from lo to hi
    expected        outcome: "normal" (finished), "bug" (kind, line, col of the error) or
                    "infeasible" (line, col of the assume no input on the path gets past);
                    steps: the number of steps of the concrete semantics to that end
    path_condition  the path condition of the path, in IMP syntax
  Paths with the same input and expected end are written once. certsym replay FILE|DIR runs each
  input on the concrete semantics and compares its end with the recorded one.
`,
}

// commandUsage is the part of the usage text about one command.
func commandUsage(name string) string {
	var b strings.Builder
	in := false
	for _, l := range strings.Split(usage, "\n") {
		switch {
		case strings.HasPrefix(l, "  certsym "):
			in = strings.HasPrefix(l, "  certsym "+name+" ") || l == "  certsym "+name
		case !strings.HasPrefix(l, "      "):
			in = false
		}
		if in {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// commandOptions is the list of a command's options as its -h prints it.
func commandOptions(name string) string {
	var stderr bytes.Buffer
	commands[name]([]string{"-h"}, io.Discard, &stderr)
	lines := strings.SplitAfter(stderr.String(), "\n")
	if len(lines) > 0 && strings.HasPrefix(lines[0], "Usage of ") {
		lines = lines[1:]
	}
	return strings.Join(lines, "")
}

func topicNames() []string {
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	for n := range otherTopics {
		names = append(names, n)
	}
	names = append(names, "completion")
	sort.Strings(names)
	return names
}

// cmdHelp is certsym help [TOPIC].
func cmdHelp(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stdout, usage)
		fmt.Fprintf(stdout, "help topics (certsym help TOPIC): %s\ncertsym help --man prints all of them as a man page: certsym help --man | man -l -\n", strings.Join(topicNames(), ", "))
		return 0
	}
	if len(args) > 1 {
		fmt.Fprintf(stderr, "certsym help: expected one TOPIC, found %d arguments\n", len(args))
		return exitUsage
	}
	topic := args[0]
	switch {
	case topic == "--man":
		writeMan(stdout)
	case commands[topic] != nil:
		fmt.Fprintf(stdout, "%s\noptions (-name and --name are the same):\n%s", commandUsage(topic), commandOptions(topic))
	case otherTopics[topic] != "":
		fmt.Fprint(stdout, otherTopics[topic])
	case topic == "completion":
		fmt.Fprint(stdout, "certsym completion bash\n      print a bash completion script; load it with\n      source <(certsym completion bash)\n")
	default:
		fmt.Fprintf(stderr, "certsym help: unknown topic %q (topics: %s)\n", topic, strings.Join(topicNames(), ", "))
		return exitUsage
	}
	return 0
}

// flagLine is a line of the flag package's list of options: -name, then the placeholder of its
// value unless it is a boolean flag.
var flagLine = regexp.MustCompile(`^  -([a-z0-9-]+)(?: ([A-Za-z]+))?`)

// cmdCompletion is certsym completion bash: a bash completion script generated from the
// commands' own option lists.
func cmdCompletion(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 || args[0] != "bash" {
		fmt.Fprintf(stderr, "certsym completion: expected one shell: bash\n")
		return exitUsage
	}
	var names []string
	for n := range commands {
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
		for _, l := range strings.Split(commandOptions(n), "\n") {
			m := flagLine.FindStringSubmatch(l)
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
	fmt.Fprintf(&b, "    help) COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n", strings.Join(topicNames(), " "))
	b.WriteString("    completion) COMPREPLY=($(compgen -W \"bash\" -- \"$cur\")); return ;;\n")
	b.WriteString("    *) COMPREPLY=(); return ;;\n  esac\n")
	b.WriteString(`  if [[ "$valued" == *" $prev "* ]]; then
    if [[ "$prev" == "--strategy" ]]; then
      COMPREPLY=($(compgen -W "` + strings.Join(strategyNames(), " ") + `" -- "$cur"))
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
	return 0
}
