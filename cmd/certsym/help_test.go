package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"certsym/cmd/certsym/internal/help"
	"certsym/internal/testprog"
	"certsym/spec/syntax/parser"
)

// TestBadOptionOneLine: a bad option (an unknown one, or a bad value) is reported in one line that
// names the command's help page, without the list of options after it; -h still prints the list.
func TestBadOptionOneLine(t *testing.T) {
	f := writeProg(t, "x = 1\n")
	for name := range commands {
		for _, args := range [][]string{{name, f, "--no-such-option"}, {name, "--workers", "many", f}} {
			code, stdout, stderr := runText(args...)
			want := "certsym " + name + ": "
			if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, want) ||
				!strings.HasSuffix(stderr, "(see certsym help "+name+")\n") {
				t.Errorf("%v: exit %d, stderr:\n%s\nwant exit 2 and one line %q... (see certsym help %s)", args, code, stderr, want, name)
			}
		}
		if code, _, stderr := runText(name, "-h"); code != 0 || !strings.HasPrefix(stderr, "Usage of "+name+":\n") {
			t.Errorf("%s -h: exit %d\n%s", name, code, stderr)
		}
	}
}

// TestHelpPagesNoSelfReference: a command's help page does not send the reader to itself.
func TestHelpPagesNoSelfReference(t *testing.T) {
	for name := range commands {
		_, page, _ := runText("help", name)
		if strings.Contains(page, "certsym help "+name) {
			t.Errorf("help %s refers to itself:\n%s", name, page)
		}
	}
	if _, usage, _ := runText("help"); !strings.Contains(usage, "(certsym help run)") {
		t.Errorf("the usage text no longer points to certsym help run:\n%s", usage)
	}
}

// TestHelpExitCodesInterrupt: help exit-codes says what an interrupt gives, for every command
// that runs the program.
func TestHelpExitCodesInterrupt(t *testing.T) {
	_, page, _ := runText("help", "exit-codes")
	three := page[strings.Index(page, "\n  3  "):strings.Index(page, "\n  4  ")]
	for _, want := range []string{"interrupted", "SIGINT", "SIGTERM", "run,", "verify", "exec", "concolic", "replay", "second signal"} {
		if !strings.Contains(three, want) {
			t.Errorf("help exit-codes, status 3, does not say %q:\n%s", want, three)
		}
	}
}

// TestHelpLanguage: certsym help language gives every production of the parser's grammar and
// an example that parses and in which certsym run finds the bug the page describes; the man page
// carries the same text.
func TestHelpLanguage(t *testing.T) {
	code, page, _ := runText("help", "language")
	if code != 0 {
		t.Fatalf("help language: exit %d", code)
	}
	for _, m := range regexp.MustCompile(`(?m)^([A-Za-z_]+)\s*=`).FindAllStringSubmatch(parser.Grammar, -1) {
		if !regexp.MustCompile(`(?m)^  ` + m[1] + `\s+= `).MatchString(page) {
			t.Errorf("help language lacks the production %s", m[1])
		}
	}
	if !strings.Contains(page, "  "+strings.ReplaceAll(strings.TrimRight(help.LanguageExample, "\n"), "\n", "\n  ")) {
		t.Fatalf("help language does not show the example:\n%s", page)
	}
	f := filepath.Join(t.TempDir(), "max.imp")
	if err := os.WriteFile(f, []byte(help.LanguageExample), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := parser.Parse(f, []byte(help.LanguageExample)); err != nil {
		t.Fatalf("the example does not parse: %v", err)
	}
	m := regexp.MustCompile(`called at line (\d+)`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("help language does not say where the bug is:\n%s", page)
	}
	code, out, stderr := runText("run", f, "--quiet")
	if want := "BUG: assertion violated at " + f + ":" + m[1] + ":"; code != exitBug || !strings.Contains(out, want) {
		t.Errorf("certsym run on the example: exit %d, want 1 and %q\n%s%s", code, want, out, stderr)
	}
	if !regexp.MustCompile(`(?m)^input: .*a=\[(-?\d+), (-?\d+), (-?\d+), (-?\d+), (-?\d+)\]`).MatchString(strings.ReplaceAll(out, "  input:          ", "input: ")) {
		t.Errorf("certsym run on the example gives no input for a:\n%s", out)
	}
	if _, man, _ := runText("help", "--man"); !strings.Contains(man, ".SH LANGUAGE\n") || !strings.Contains(man, "check_max(m)") {
		t.Errorf("the man page lacks the language section")
	}
}

// TestLCOVBranchAdvice: run --lcov's option text says how lcov and genhtml show the tracefile's
// branch records, which both hide by default, and the commands it names do show them.
func TestLCOVBranchAdvice(t *testing.T) {
	_, page, _ := runText("help", "run")
	m := regexp.MustCompile(`lcov (--rc \S+), genhtml (--branch-coverage)\)`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("help run does not say how lcov and genhtml show the branch records:\n%s", page)
	}
	lcov := testprog.NeedTool(t, "lcov", "lcov")
	dir := t.TempDir()
	f, info := writeProg(t, "if x > 0 then y = 1 else y = 2 fi\n"), filepath.Join(dir, "c.info")
	if code, _, stderr := runText("run", f, "--quiet", "--lcov", info); code != exitSafe {
		t.Fatalf("run --lcov: exit %d\n%s", code, stderr)
	}
	plain, _ := exec.Command(lcov, "--summary", info).CombinedOutput()
	asked, err := exec.Command(lcov, append([]string{"--summary", info}, strings.Fields(m[1])...)...).CombinedOutput()
	if err != nil || !strings.Contains(string(asked), "branches...: 100.0% (2 of 2 branches)") {
		t.Errorf("lcov --summary %s: %v\n%s", m[1], err, asked)
	}
	if strings.Contains(string(plain), "2 of 2 branches") {
		t.Logf("this lcov shows branches by default:\n%s", plain)
	}
	html := filepath.Join(dir, "html")
	if out, err := exec.Command(filepath.Join(filepath.Dir(lcov), "genhtml"), m[2], "-q", "-o", html, info).CombinedOutput(); err != nil {
		t.Fatalf("genhtml %s: %v\n%s", m[2], err, out)
	}
	if b, err := os.ReadFile(filepath.Join(html, "index.html")); err != nil || !strings.Contains(string(b), "Branches") {
		t.Errorf("genhtml %s shows no branch coverage (%v)", m[2], err)
	}
}
