package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestOverlay: the overlay of the layer tests of sym, pathcond, engine and bounded places one test file in
// each package's folder, of the package's external test package, and the three packages' tests
// build with it under the tag refinementonly (go vet type-checks them): the file make mutation
// hands gremlins compiles against the packages as they are, though none of their folders holds it.
func TestOverlay(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pkgs := []string{"sym", "pathcond", "engine", "bounded"}
	path, err := writeOverlay(dir, root, pkgs...)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		if _, err := os.Stat(filepath.Join(root, p, layerTestName)); err == nil {
			t.Fatalf("%s/%s exists: the overlay is meant to add it", p, layerTestName)
		}
		src, err := os.ReadFile(filepath.Join(dir, p+"_"+layerTestName))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(src), "\npackage "+p+"_test\n") {
			t.Fatalf("the test file of %s is not of package %s_test:\n%s", p, p, src)
		}
	}
	if _, err := writeOverlay(dir, root, "no-such-package"); err == nil {
		t.Fatal("an overlay for a folder that does not exist was written")
	}
	if testing.Short() {
		t.Skip("go vet of the overlaid packages skipped in -short mode")
	}
	cmd := exec.Command("go", "vet", "-tags", "refinementonly", "-overlay", path, "./sym", "./pathcond", "./engine", "./bounded")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet with the overlay: %v\n%s", err, out)
	}
	// and without the overlay, the tag adds no test file to the packages
	cmd = exec.Command("go", "list", "-tags", "refinementonly", "-f", "{{.TestGoFiles}}{{.XTestGoFiles}}", "./sym", "./pathcond", "./engine", "./bounded")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	if strings.Contains(string(out), layerTestName) {
		t.Fatalf("a package folder holds %s: %s", layerTestName, out)
	}
}
