// Command certsym finds bugs in IMP programs by symbolic execution, runs them concretely, and
// pretty-prints them. Run certsym help for usage.
package main

import (
	"certsym/cmd/certsym/internal/flags"
	"certsym/cmd/certsym/internal/help"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

// Exit statuses.
const (
	exitSafe     = 0 // run: the exploration finished without a bug; exec: the run finished
	exitBug      = 1 // a confirmed bug (run) or the run reached an error (exec)
	exitUsage    = 2 // usage or syntax error
	exitUnknown  = 3 // a bound was reached, the run was interrupted or the solver answered unknown: no verdict
	exitInternal = 4 // certsym's own defect (a bug that does not replay, a crash)
)

// stdin is where FILE - is read from (a variable so that tests can set it).
var stdin io.Reader = os.Stdin

func main() {
	// A Go stack trace is never what a user should see: an unexpected panic is reported in one
	// line by run; for the runtime's fatal errors this keeps the goroutine dump out (a developer
	// gets it back with GOTRACEBACK=single or higher).
	debug.SetTraceback("none")
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole command; it returns the exit status. A panic is certsym's own defect: it is
// reported as an internal error in one line, without a Go stack trace.
func run(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			msg := strings.Join(strings.Fields(fmt.Sprint(r)), " ")
			fmt.Fprintf(stderr, "certsym: internal error: %s\n", msg)
			code = exitInternal
		}
	}()
	if len(args) == 0 {
		fmt.Fprint(stderr, help.Usage)
		return exitUsage
	}
	switch args[0] {
	case "run":
		return cmdRun(args[1:], stdout, stderr)
	case "exec":
		return cmdExec(args[1:], stdout, stderr)
	case "concolic":
		return cmdConcolic(args[1:], stdout, stderr)
	case "parse":
		return cmdParse(args[1:], stdout, stderr)
	case "verify":
		return cmdVerify(args[1:], stdout, stderr)
	case "prove":
		return cmdProve(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		return cmdHelp(args[1:], stdout, stderr)
	case "replay":
		return cmdReplay(args[1:], stdout, stderr)
	case "merge":
		return cmdMerge(args[1:], stdout, stderr)
	case "completion":
		return cmdCompletion(args[1:], stdout, stderr)
	case "version", "--version":
		writeVersion(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "certsym: unknown command %q\n%s", args[0], help.Usage)
	return exitUsage
}

// oneFile parses the flags of a command that takes one FILE (flags.Parse). When it returns ok
// false, the command ends with status code: 0 after -h (the options were printed), 2 otherwise.
func oneFile(fs *flag.FlagSet, args []string, stderr io.Writer) (file string, code int, ok bool) {
	pos, err := flags.Parse(fs, args, stderr)
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

// setFlags returns the names of the flags given on the command line.
func setFlags(fs *flag.FlagSet) map[string]bool {
	m := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { m[f.Name] = true })
	return m
}
