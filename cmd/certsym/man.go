package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// roff escapes text for a man page line: backslashes, hyphens (as minus signs, so options can
// be searched and copied), and a leading dot or quote.
func roff(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "-", `\-`)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}

// writeMan prints certsym(1), a man page made of the same text as certsym help: the usage,
// each command's usage and option list (its own -h), the exit statuses and the test case format.
func writeMan(w io.Writer) {
	var b strings.Builder
	b.WriteString(".TH CERTSYM 1 \"\" \"certsym " + roff(moduleVersion()) + "\" \"User Commands\"\n")
	b.WriteString(".SH NAME\ncertsym \\- find bugs in and verify claims of IMP programs by symbolic execution\n")
	b.WriteString(".SH SYNOPSIS\n.nf\n")
	for _, l := range strings.Split(strings.TrimSpace(usage), "\n") {
		if strings.HasPrefix(l, "  certsym ") {
			b.WriteString(roff(strings.TrimSpace(l)) + "\n")
		}
	}
	b.WriteString(".fi\n.SH COMMANDS\n")
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, ".SS %s\n.nf\n", n)
		for _, l := range strings.Split(strings.TrimRight(commandUsage(n), "\n"), "\n") {
			b.WriteString(roff(strings.TrimPrefix(l, "  ")) + "\n")
		}
		b.WriteString(".fi\n")
		opts := strings.Split(strings.TrimRight(commandOptions(n), "\n"), "\n")
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
	b.WriteString(".SH EXIT STATUS\n.nf\n")
	for _, l := range strings.Split(strings.TrimRight(otherTopics["exit-codes"], "\n"), "\n")[1:] {
		b.WriteString(roff(strings.TrimPrefix(l, "  ")) + "\n")
	}
	b.WriteString(".fi\n.SH FILES\n.nf\n")
	for _, l := range strings.Split(strings.TrimRight(otherTopics["tests"], "\n"), "\n") {
		b.WriteString(roff(l) + "\n")
	}
	b.WriteString(".fi\n.SH SEE ALSO\ncertsym help TOPIC, the README of the certsym repository\n")
	io.WriteString(w, b.String())
}
