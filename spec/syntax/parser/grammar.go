package parser

import _ "embed" // Grammar

// Grammar is the text of grammar.txt, the grammar of IMP this parser accepts in EBNF with its
// comments (certsym help language prints its productions).
//
//go:embed grammar.txt
var Grammar string
