package main

import (
	"io"

	"certsym/cmd/certsym/internal/shard"
)

// cmdMerge is certsym merge (package shard): the verdict of a sharded run from its shards' reports.
func cmdMerge(args []string, stdout, stderr io.Writer) int {
	return map[string]int{"bug": exitBug, "safe": exitSafe, "unknown": exitUnknown, "help": 0, "": exitUsage}[shard.Command(args, stdout, stderr)]
}
