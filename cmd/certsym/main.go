// Command certsym finds bugs in IMP programs by symbolic execution, runs them concretely, and
// pretty-prints them. Run certsym help for usage.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// Exit statuses.
const (
	exitSafe     = 0 // run: the exploration finished without a bug; exec: the run finished
	exitBug      = 1 // a confirmed bug (run) or the run reached an error (exec)
	exitUsage    = 2 // usage or syntax error
	exitUnknown  = 3 // a bound was reached or the solver answered unknown, no verdict
	exitInternal = 4 // certsym's own defect (a bug that does not replay, a crash)
)

const usage = `usage:
  certsym run FILE [--strategy bfs|dfs] [--max-states N] [--timeout D] [--all-bugs] [--json]
      find bugs by symbolic execution (exit 1 bug, 0 safe, 3 no verdict, 2 usage/syntax error)
      artifacts: --tests DIR, --coverage, --lcov FILE, --sarif FILE, --dot FILE (certsym help run)
  certsym run --loop-bound N FILE [--json]
      bounded symbolic execution: result states grouped by behaviour
  certsym exec FILE [--input x=3,y=-2] [--max-steps N] [--json]
      run the program on one input with the concrete semantics
  certsym parse FILE
      print the program in the core language (macros inlined)
  certsym verify FILE [--loop-bound N] [--depth-bound N] [--abstract-nonlinear] [--json] [--html FILE] [--sarif FILE]
      a status and its evidence for every claim (exit 0 all VERIFIED/DEAD, 1 REFUTED/FAULTY, 3 otherwise)
  certsym replay FILE|DIR [--program FILE] [--json]
      rerun the test cases of run --tests on the concrete semantics (exit 1 if one differs)
  certsym help [TOPIC]   certsym completion bash   certsym --version
run certsym COMMAND -h for a command's options.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole command; it returns the exit status. A panic is certsym's own defect: it is
// reported as an internal error, without a Go stack trace.
func run(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "certsym: internal error: %v\n", r)
			code = exitInternal
		}
	}()
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "run":
		return cmdRun(args[1:], stdout, stderr)
	case "exec":
		return cmdExec(args[1:], stdout, stderr)
	case "parse":
		return cmdParse(args[1:], stdout, stderr)
	case "verify":
		return cmdVerify(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		return cmdHelp(args[1:], stdout, stderr)
	case "replay":
		return cmdReplay(args[1:], stdout, stderr)
	case "completion":
		return cmdCompletion(args[1:], stdout, stderr)
	case "version", "--version":
		writeVersion(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "certsym: unknown command %q\n%s", args[0], usage)
	return exitUsage
}

// parseArgs parses flags placed before or after the positional arguments and returns the
// positional ones.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// oneFile parses the flags of a command that takes one FILE. When it returns ok false, the
// command ends with status code: 0 after -h (the flag package printed the options), 2 otherwise.
func oneFile(fs *flag.FlagSet, args []string, stderr io.Writer) (file string, code int, ok bool) {
	fs.SetOutput(stderr)
	pos, err := parseArgs(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return "", 0, false
	}
	if err != nil {
		return "", exitUsage, false
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "certsym %s: expected one FILE, found %d argument(s)%s\n", fs.Name(), len(pos), listArgs(pos))
		return "", exitUsage, false
	}
	return pos[0], 0, true
}

func listArgs(pos []string) string {
	if len(pos) == 0 {
		return ""
	}
	return ": " + strings.Join(pos, " ")
}
