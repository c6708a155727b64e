package main

import (
	"io"

	"certsym/cmd/certsym/internal/provecmd"
)

// cmdProve is certsym prove FILE (package provecmd).
func cmdProve(args []string, stdout, stderr io.Writer) int {
	return provecmd.Main(args, stdout, stderr, provecmd.Env{OneFile: oneFile, Load: loadFor})
}
