package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMakeBuildStampsVersion builds certsym with the command make build runs (make -n prints
// it) and checks that --version and the SARIF log's tool version name the git revision, not
// "(devel)": the Go toolchain stamps nothing in a git worktree or with -buildvcs=false, so the
// Makefile stamps the version itself.
func TestMakeBuildStampsVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: builds the binary; make check runs it")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	describe, err := exec.Command("git", "-C", root, "describe", "--tags", "--always", "--dirty").Output()
	if err != nil {
		t.Skipf("not a git repository, or no git: %v", err)
	}
	make, err := exec.LookPath("make")
	if err != nil {
		t.Skip("make is not installed")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "certsym")
	dry := exec.Command(make, "-n", "build", "BIN="+bin)
	dry.Dir = root
	recipe, err := dry.Output()
	if err != nil {
		t.Fatalf("make -n build: %v", err)
	}
	var build string
	for _, l := range strings.Split(string(recipe), "\n") {
		if strings.HasPrefix(l, "go build ") {
			build = l
		}
	}
	if build == "" {
		t.Fatalf("make -n build runs no go build:\n%s", recipe)
	}
	sh := exec.Command("sh", "-c", build)
	sh.Dir = root
	if out, err := sh.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", build, err, out)
	}
	want := strings.TrimSpace(string(describe))
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), "certsym "+want+"\n") || strings.Contains(string(out), "revision: unknown") {
		t.Errorf("--version of make build's binary:\n%s\nwant the version %s and a revision", out, want)
	}
	prog, sarif := filepath.Join(dir, "p.imp"), filepath.Join(dir, "p.sarif")
	if err := os.WriteFile(prog, []byte("assert x != 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	exec.Command(bin, "run", prog, "--quiet", "--sarif", sarif).Run() // exit 1: the bug
	b, err := os.ReadFile(sarif)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Version string `json:"version"`
				} `json:"driver"`
			} `json:"tool"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b, &log); err != nil || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Version != want {
		t.Errorf("the SARIF log's tool version (%v):\n%s\nwant %s", err, b, want)
	}
}
