// Command mutation runs the refinement layer's reduced run (refinement.ReducedRun) once and exits
// 1 when it finds a mismatch, 0 otherwise: the test that refinement/mutation.sh runs against each
// mutant of the engine that gremlins lists.
//
//	mutation MODULE_ROOT                      # the reduced run
//	mutation -overlay DIR MODULE_ROOT PKG...  # write the overlay of the packages' layer tests
//
// With -overlay it writes into DIR, for each package folder PKG of the module (sym, engine,
// bounded), a test file that makes the layer's reduced run the package's only test under the
// build tag refinementonly (layer_test.go.tmpl with the package's name; it calls
// internal/layertest), and the JSON overlay (go's -overlay) that places each file in its
// package's folder; it prints the overlay's path. The packages' own folders hold no such file:
// their tests import nothing above them, and gremlins' coverage run (refinement/mutation.sh)
// gets the files through GOFLAGS=-overlay=PATH.
package main

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"certsym/refinement"
)

// testFile is the overlaid test file, package clause "package PACKAGE_test".
//
//go:embed layer_test.go.tmpl
var testFile string

// layerTestName is the name of the overlaid test file in each package's folder.
const layerTestName = "refinement_layer_test.go"

func main() {
	if len(os.Args) >= 4 && os.Args[1] == "-overlay" {
		path, err := writeOverlay(os.Args[2], os.Args[3], os.Args[4:]...)
		if err != nil {
			fmt.Fprintln(os.Stderr, "mutation:", err)
			os.Exit(2)
		}
		fmt.Println(path)
		return
	}
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: mutation MODULE_ROOT | mutation -overlay DIR MODULE_ROOT PKG...")
		os.Exit(2)
	}
	sum, err := refinement.ReducedRun(os.Args[1], os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "refinement layer:", err)
		os.Exit(2)
	}
	if sum.Mismatches > 0 {
		os.Exit(1)
	}
}

// writeOverlay writes into dir the layer test file of each package folder pkgs of the module at
// root, and the overlay that places them there; it returns the overlay's path.
func writeOverlay(dir, root string, pkgs ...string) (string, error) {
	if len(pkgs) == 0 {
		return "", fmt.Errorf("-overlay: no package")
	}
	replace := map[string]string{}
	for _, p := range pkgs {
		pdir, err := filepath.Abs(filepath.Join(root, p))
		if err != nil {
			return "", err
		}
		if st, err := os.Stat(pdir); err != nil || !st.IsDir() {
			return "", fmt.Errorf("-overlay: %s is not a package folder of %s", p, root)
		}
		name := filepath.Base(pdir)
		file, err := filepath.Abs(filepath.Join(dir, name+"_"+layerTestName))
		if err != nil {
			return "", err
		}
		src := strings.Replace(testFile, "package PACKAGE_test", "package "+name+"_test", 1)
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			return "", err
		}
		replace[filepath.Join(pdir, layerTestName)] = file
	}
	data, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		return "", err
	}
	out, err := filepath.Abs(filepath.Join(dir, "overlay.json"))
	if err != nil {
		return "", err
	}
	return out, os.WriteFile(out, data, 0o644)
}
