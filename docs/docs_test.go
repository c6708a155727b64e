// Package docs holds certsym's documentation and tests that it stays true: every relative link of
// the repository's Markdown files leads to a file (and heading) that exists, every repository
// path the Markdown names in code exists, and every command shown with a "$ " prompt in README.md
// and docs/ prints, when run now, the output the page shows.
package docs

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// root is the repository root, relative to this package's directory.
const root = ".."

// page is one parsed Markdown file.
type page struct {
	path    string // relative to root, with forward slashes
	src     []byte
	doc     ast.Node
	anchors map[string]bool // the heading ids GitHub gives the page's headings
}

var markdown = goldmark.New(goldmark.WithExtensions(extension.GFM))

// parse reads and parses the Markdown file at path (relative to root).
func parse(t *testing.T, path string) *page {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	p := &page{path: path, src: src, doc: markdown.Parser().Parse(text.NewReader(src)), anchors: map[string]bool{}}
	seen := map[string]int{}
	_ = ast.Walk(p.doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*ast.Heading); ok && entering {
			id := slug(plain(h, src))
			if k := seen[id]; k > 0 {
				p.anchors[fmt.Sprintf("%s-%d", id, k)] = true
			} else {
				p.anchors[id] = true
			}
			seen[id]++
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return p
}

// plain is the text of n's inline content, without markup (code spans keep their text).
func plain(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(src))
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// slug is the anchor GitHub gives a heading: its text in lower case, without the characters that
// are not letters, digits, marks, '_', '-' or spaces, and each space a '-'.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// repoFiles lists the repository's files (relative to root) whose names keep accepts, leaving out
// hidden directories, build output and the directories skip names.
func repoFiles(t *testing.T, keep func(name string) bool, skip ...string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && path != root && (strings.HasPrefix(name, ".") || name == "_build" || name == "bin" || slices.Contains(skip, name)) {
			return filepath.SkipDir
		}
		if !d.IsDir() && keep(name) {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// markdownFiles lists the repository's Markdown files (relative to root).
func markdownFiles(t *testing.T) []string {
	t.Helper()
	out := repoFiles(t, func(name string) bool { return strings.HasSuffix(name, ".md") })
	if len(out) < 10 {
		t.Fatalf("found %d Markdown files under %s; expected README.md, docs/ and the READMEs beside the code", len(out), root)
	}
	return out
}

// linkErrors checks every link and image of p whose destination is relative: the file it names
// must exist, and an anchor must be a heading of the Markdown file it names. load parses another
// page (relative to root).
func linkErrors(p *page, load func(string) *page) []string {
	var errs []string
	_ = ast.Walk(p.doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var dest string
		switch n := n.(type) {
		case *ast.Link:
			dest = string(n.Destination)
		case *ast.Image:
			dest = string(n.Destination)
		default:
			return ast.WalkContinue, nil
		}
		u, err := url.Parse(dest)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: link %q: %v", p.path, dest, err))
			return ast.WalkContinue, nil
		}
		if u.Scheme != "" || u.Host != "" {
			return ast.WalkContinue, nil // an absolute URL: not checked here
		}
		target := p.path
		if u.Path != "" {
			if strings.HasPrefix(u.Path, "/") {
				errs = append(errs, fmt.Sprintf("%s: link %q: absolute path (links are relative to the page)", p.path, dest))
				return ast.WalkContinue, nil
			}
			target = filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(p.path), u.Path)))
			if target == ".." || strings.HasPrefix(target, "../") {
				errs = append(errs, fmt.Sprintf("%s: link %q leaves the repository", p.path, dest))
				return ast.WalkContinue, nil
			}
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(target))); err != nil {
				errs = append(errs, fmt.Sprintf("%s: link %q: %s does not exist", p.path, dest, target))
				return ast.WalkContinue, nil
			}
		}
		if u.Fragment != "" && strings.HasSuffix(target, ".md") {
			if tp := load(target); !tp.anchors[u.Fragment] {
				errs = append(errs, fmt.Sprintf("%s: link %q: %s has no heading with the anchor #%s", p.path, dest, target, u.Fragment))
			}
		}
		return ast.WalkContinue, nil
	})
	return errs
}

// pages parses Markdown files on demand, each once.
func pages(t *testing.T) func(string) *page {
	cache := map[string]*page{}
	return func(path string) *page {
		if p, ok := cache[path]; ok {
			return p
		}
		p := parse(t, path)
		cache[path] = p
		return p
	}
}

// TestLinks checks every relative link of every Markdown file of the repository.
func TestLinks(t *testing.T) {
	load := pages(t)
	links := 0
	for _, f := range markdownFiles(t) {
		p := load(f)
		for _, e := range linkErrors(p, load) {
			t.Error(e)
		}
		_ = ast.Walk(p.doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if _, ok := n.(*ast.Link); ok && entering {
				links++
			}
			return ast.WalkContinue, nil
		})
	}
	if links < 50 {
		t.Errorf("found %d links in the Markdown files; expected the README's and docs/' cross references", links)
	}
}

// TestLinkCheckFails makes sure the link check can fail: a missing file, a missing anchor, an
// anchor of the page itself, an absolute path, a link out of the repository.
func TestLinkCheckFails(t *testing.T) {
	src := []byte("# Title\n\n## A section: with `code`\n\n" +
		"[ok](#a-section-with-code) [ok](../README.md#certsym) [ok](https://example.org/x.md) [ok](example/sum.imp)\n" +
		"[bad](no-such-file.md) [bad](../README.md#no-such-heading) [bad](#nowhere) [bad](/etc/passwd) [bad](../../x.md)\n")
	p := &page{path: "docs/x.md", src: src, doc: markdown.Parser().Parse(text.NewReader(src)), anchors: map[string]bool{"title": true, "a-section-with-code": true}}
	load := pages(t)
	errs := linkErrors(p, func(path string) *page {
		if path == p.path {
			return p
		}
		return load(path)
	})
	if len(errs) != 5 {
		t.Fatalf("linkErrors found %d errors, want 5 (one per [bad] link):\n%s", len(errs), strings.Join(errs, "\n"))
	}
	for _, want := range []string{"no-such-file.md", "#no-such-heading", "#nowhere", "absolute path", "leaves the repository"} {
		if !strings.Contains(strings.Join(errs, "\n"), want) {
			t.Errorf("no error mentions %q:\n%s", want, strings.Join(errs, "\n"))
		}
	}
	if got := slug("The concrete fast path: run --burst K"); got != "the-concrete-fast-path-run---burst-k" {
		t.Errorf("slug = %q", got)
	}
}

// pathRE is what a repository path in a code span looks like: segments of ordinary characters
// separated by '/', ending in a file name with one of the project's extensions.
var pathRE = regexp.MustCompile(`^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*\.(go|v|mlw|ml|imp|md|sh|txt|tsv|yaml|json|html)$`)

// TestCodePaths checks that every repository path the Markdown names in a code span (such as
// `engine/search.go`) exists, relative to the page or to the repository root. A span is taken
// for a repository path when it looks like one and its first segment is an entry of the
// repository root or of the page's directory; others (`out/tests/test000001.json`) are examples.
// Files the root .gitignore names (outputs such as `refinement/summary.json`) need not exist.
func TestCodePaths(t *testing.T) {
	ignored := gitignored(t)
	top := map[string]bool{}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") && e.Name() != "bin" {
			top[e.Name()] = true
		}
	}
	exists := func(p string) bool {
		_, err := os.Stat(filepath.Join(root, filepath.FromSlash(p)))
		return err == nil
	}
	checked := 0
	for _, f := range markdownFiles(t) {
		p := parse(t, f)
		dir := filepath.ToSlash(filepath.Dir(f))
		_ = ast.Walk(p.doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			cs, ok := n.(*ast.CodeSpan)
			if !ok || !entering {
				return ast.WalkContinue, nil
			}
			s := plain(cs, p.src)
			if !pathRE.MatchString(s) || !strings.Contains(s, "/") {
				return ast.WalkSkipChildren, nil
			}
			first := strings.SplitN(s, "/", 2)[0]
			local := filepath.ToSlash(filepath.Join(dir, s))
			if !top[first] && !exists(filepath.ToSlash(filepath.Join(dir, first))) {
				return ast.WalkSkipChildren, nil
			}
			checked++
			if !exists(s) && !exists(local) && !ignored(s) {
				t.Errorf("%s: `%s` names no file of the repository", f, s)
			}
			return ast.WalkSkipChildren, nil
		})
	}
	if checked < 100 {
		t.Errorf("checked %d repository paths in code spans; expected the docs' many references", checked)
	}
}

// gitignored returns a test of whether the root .gitignore names a path (relative to the root): a
// pattern with a '/' matches the path, one without matches its file name.
func gitignored(t *testing.T) func(string) bool {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, ".gitignore"))
	if err != nil {
		t.Fatal(err)
	}
	var patterns []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "!") {
			patterns = append(patterns, strings.Trim(l, "/"))
		}
	}
	return func(path string) bool {
		for _, pat := range patterns {
			subject := path
			if !strings.Contains(pat, "/") {
				subject = filepath.Base(path)
			}
			if ok, _ := filepath.Match(pat, subject); ok {
				return true
			}
		}
		return false
	}
}

// step is one command of an example and the output the page shows for it.
type step struct {
	line    int // the command's line in the page
	command string
	want    string
}

// examples returns the commands of the page's code blocks that show a "$ " prompt on their first
// line: each line that starts with "$ " is a command, and the lines after it, to the next command
// or the end of the block, its standard output.
func examples(p *page) [][]step {
	var out [][]step
	_ = ast.Walk(p.doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		fb, ok := n.(*ast.FencedCodeBlock)
		if !ok || !entering {
			return ast.WalkContinue, nil
		}
		lines := fb.Lines()
		if lines.Len() == 0 {
			return ast.WalkSkipChildren, nil
		}
		if first := lines.At(0); !bytes.HasPrefix(first.Value(p.src), []byte("$ ")) {
			return ast.WalkSkipChildren, nil
		}
		var block []step
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			l := string(seg.Value(p.src))
			if c, ok := strings.CutPrefix(l, "$ "); ok {
				line := 1 + bytes.Count(p.src[:seg.Start], []byte("\n"))
				block = append(block, step{line: line, command: strings.TrimSpace(c)})
				continue
			}
			block[len(block)-1].want += l
		}
		out = append(out, block)
		return ast.WalkSkipChildren, nil
	})
	return out
}

// timeRE matches a duration as certsym prints it (0.08s, 5s, 12ms, 3.2µs).
var timeRE = regexp.MustCompile(`\b[0-9]+(\.[0-9]+)?(ns|µs|us|ms|s)\b`)

// mask replaces what may differ from one run to the next: the durations.
func mask(s string) string { return timeRE.ReplaceAllString(s, "<time>") }

// runner runs the commands of examples: certsym (the binary built for the test), cat, and
// echo $? (the exit status of the command before).
type runner struct {
	bin    string
	status int
}

// run runs one command from the repository root and returns its standard output.
func (r *runner) run(command string) (string, error) {
	if strings.ContainsAny(command, "'\"|<>;&`*") {
		return "", fmt.Errorf("unsupported shell syntax in %q", command)
	}
	args := strings.Fields(command)
	switch {
	case len(args) == 2 && args[0] == "echo" && args[1] == "$?":
		return strconv.Itoa(r.status) + "\n", nil
	case len(args) == 2 && args[0] == "cat":
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(args[1])))
		r.status = 0
		return string(b), err
	case len(args) >= 1 && args[0] == "certsym":
		cmd := exec.Command(r.bin, args[1:]...)
		cmd.Dir = root
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		r.status = 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			r.status, err = exit.ExitCode(), nil
		}
		if err != nil {
			return "", fmt.Errorf("%s: %v (stderr: %s)", command, err, stderr.String())
		}
		return stdout.String(), nil
	}
	return "", fmt.Errorf("unsupported command %q (the examples run certsym, cat and echo $?)", command)
}

// check runs the steps of one example and returns a message for each step whose output differs
// from what the page shows (durations masked).
func (r *runner) check(path string, block []step) []string {
	var errs []string
	r.status = 0
	for _, s := range block {
		got, err := r.run(s.command)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s:%d: %v", path, s.line, err))
			continue
		}
		if mask(got) != mask(s.want) {
			errs = append(errs, fmt.Sprintf("%s:%d: $ %s prints\n%s\nbut the page shows\n%s", path, s.line, s.command, got, s.want))
		}
	}
	return errs
}

// build compiles certsym into a temporary directory.
func build(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "certsym")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/certsym")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/certsym: %v\n%s", err, out)
	}
	return bin
}

// examplePages are the pages whose "$ " examples are run: README.md and docs/*.md.
func examplePages(t *testing.T) []*page {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	ps := []*page{parse(t, "README.md")}
	for _, n := range names {
		ps = append(ps, parse(t, "docs/"+filepath.Base(n)))
	}
	return ps
}

// TestExamples runs every "$ " example of README.md and docs/ and compares the output with the
// page. It also requires the README's worked example: a bug found by certsym run, reproduced by
// the certsym exec command of its reproduce: line, and a certsym verify.
func TestExamples(t *testing.T) {
	r := &runner{bin: build(t)}
	ran := 0
	for _, p := range examplePages(t) {
		for _, block := range examples(p) {
			for _, e := range r.check(p.path, block) {
				t.Error(e)
			}
			ran += len(block)
		}
	}
	if ran < 10 {
		t.Errorf("ran %d example commands; expected the README's worked example and the docs' examples", ran)
	}

	var commands []string
	reproduce := ""
	for _, block := range examples(parse(t, "README.md")) {
		for _, s := range block {
			commands = append(commands, s.command)
			for _, l := range strings.Split(s.want, "\n") {
				if c, ok := strings.CutPrefix(strings.TrimSpace(l), "reproduce:"); ok && strings.HasPrefix(s.command, "certsym run ") {
					reproduce = strings.TrimSpace(c)
				}
			}
		}
	}
	all := "\n" + strings.Join(commands, "\n") + "\n"
	if reproduce == "" {
		t.Errorf("the README's example has no certsym run that prints a bug's reproduce: line")
	} else if !strings.Contains(all, "\n"+reproduce+"\n") {
		t.Errorf("the README's example does not run the bug's reproduce: command %q", reproduce)
	}
	if !strings.Contains(all, "certsym verify ") {
		t.Errorf("the README's example has no certsym verify")
	}
}

// TestExampleCheckFails makes sure the example check can fail: the README's first example with one
// line of its output changed, and a command of an unsupported kind.
func TestExampleCheckFails(t *testing.T) {
	blocks := examples(parse(t, "README.md"))
	var block []step
	for _, b := range blocks {
		for _, s := range b {
			if strings.HasPrefix(s.command, "certsym run ") {
				block = b
			}
		}
	}
	if block == nil {
		t.Fatal("the README has no example that runs certsym run")
	}
	r := &runner{bin: build(t)}
	if errs := r.check("README.md", block); len(errs) != 0 {
		t.Fatalf("the unchanged example fails: %s", strings.Join(errs, "\n"))
	}
	edited := append([]step(nil), block...)
	for i, s := range edited {
		if strings.HasPrefix(s.command, "certsym run ") {
			edited[i].want = strings.Replace(s.want, "verdict: bug", "verdict: safe", 1)
			if edited[i].want == s.want {
				t.Fatalf("the README's certsym run example prints no verdict: bug")
			}
		}
	}
	if errs := r.check("README.md", edited); len(errs) != 1 {
		t.Errorf("the example with its verdict changed gives %d errors, want 1", len(errs))
	}
	if errs := r.check("x.md", []step{{command: "rm -rf docs"}}); len(errs) != 1 {
		t.Errorf("an unsupported command gives %d errors, want 1", len(errs))
	}
	if mask("0.08s, 12ms, 3.5µs and 10 steps") != "<time>, <time>, <time> and 10 steps" {
		t.Errorf("mask = %q", mask("0.08s, 12ms, 3.5µs and 10 steps"))
	}
}
