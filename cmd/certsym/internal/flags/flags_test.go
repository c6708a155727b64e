package flags

import (
	"bytes"
	"errors"
	"flag"
	"strings"
	"testing"
)

// TestParse: options before and after the positional arguments, "-" positional; a bad option is
// one line naming the help page; -h lists the options.
func TestParse(t *testing.T) {
	newFS := func() (*flag.FlagSet, *int) {
		fs := flag.NewFlagSet("run", flag.ContinueOnError)
		return fs, Count(fs, "max-states", 7, "stop after `N` states")
	}
	fs, n := newFS()
	var stderr bytes.Buffer
	pos, err := Parse(fs, []string{"--max-states", "3", "a.imp", "-", "-max-states=4"}, &stderr)
	if err != nil || strings.Join(pos, " ") != "a.imp -" || *n != 4 || stderr.Len() != 0 {
		t.Errorf("Parse: %v %q %d %q", err, pos, *n, stderr.String())
	}
	for _, args := range [][]string{{"a.imp", "--bogus"}, {"--max-states", "-1", "a.imp"}, {"--max-states"}} {
		fs, _ := newFS()
		stderr.Reset()
		if _, err := Parse(fs, args, &stderr); err == nil || errors.Is(err, flag.ErrHelp) ||
			strings.Count(stderr.String(), "\n") != 1 || !strings.HasPrefix(stderr.String(), "certsym run: ") ||
			!strings.HasSuffix(stderr.String(), " (see certsym help run)\n") {
			t.Errorf("Parse %q: %v, stderr %q", args, err, stderr.String())
		}
	}
	fs, _ = newFS()
	stderr.Reset()
	if _, err := Parse(fs, []string{"-h"}, &stderr); !errors.Is(err, flag.ErrHelp) ||
		stderr.String() != "Usage of run:\n  -max-states N\n    \tstop after N states (default 7)\n" {
		t.Errorf("Parse -h: %v %q", err, stderr.String())
	}
}
