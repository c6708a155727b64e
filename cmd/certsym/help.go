package main

import (
	"io"

	"certsym/cmd/certsym/internal/help"
	"certsym/spec/syntax/parser"
)

// commands are certsym's subcommands that take options, by name: their help pages and their
// completions are generated from the text their own -h prints (package help).
var commands = map[string]func(args []string, stdout, stderr io.Writer) int{
	"run": cmdRun, "exec": cmdExec, "concolic": cmdConcolic, "parse": cmdParse, "verify": cmdVerify, "replay": cmdReplay,
	"merge": cmdMerge, "prove": cmdProve,
}

// book is certsym's help (package help), from the commands and the build.
func book() help.Book {
	return help.Book{Commands: commands, Version: moduleVersion(), Strategies: strategyNames(), Grammar: parser.Grammar}
}

// cmdHelp is certsym help [TOPIC].
func cmdHelp(args []string, stdout, stderr io.Writer) int {
	if !book().Help(args, stdout, stderr) {
		return exitUsage
	}
	return 0
}

// cmdCompletion is certsym completion bash.
func cmdCompletion(args []string, stdout, stderr io.Writer) int {
	if !book().Completion(args, stdout, stderr) {
		return exitUsage
	}
	return 0
}
