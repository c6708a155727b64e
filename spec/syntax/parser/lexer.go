package parser

import (
	"fmt"
	"unicode/utf8"

	"certsym/spec/syntax"
)

// SyntaxError is a syntax error: where in which file, and what was expected.
type SyntaxError struct {
	File string
	Pos  syntax.Pos
	Msg  string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
}

type tokKind uint8

const (
	tEOF tokKind = iota
	tInt
	tIdent
	tKeyword
	tSym
)

type token struct {
	kind tokKind
	text string
	pos  syntax.Pos
}

func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tInt:
		return "integer " + t.text
	case tIdent:
		return "identifier '" + t.text + "'"
	}
	return "'" + t.text + "'"
}

var keywords = map[string]bool{
	"skip": true, "fail": true, "assert": true, "assume": true, "if": true, "then": true,
	"else": true, "fi": true, "while": true, "do": true, "od": true, "macro": true, "begin": true,
	"end": true, "true": true, "false": true, "not": true, "and": true, "or": true,
	"array": true, "forall": true, "exists": true, "in": true, "invariant": true,
}

// keywordText maps each keyword to itself: the token's text without allocating a string.
var keywordText = func() map[string]string {
	m := make(map[string]string, len(keywords))
	for k := range keywords {
		m[k] = k
	}
	return m
}()

// twoText maps each two-character symbol to itself.
var twoText = map[string]string{"==": "==", "!=": "!=", "<=": "<=", ">=": ">=", "..": ".."}

// symText is the text of each one-character symbol.
var symText = func() (t [256]string) {
	for _, c := range "=<>+-*/%(),;[]:" {
		t[c] = string(c)
	}
	return t
}()

// lex splits src into tokens. Comments run from '#' to the end of the line.
func lex(file string, src []byte) ([]token, error) {
	// About one token per four bytes of a typical program: one allocation for most files.
	toks := make([]token, 0, len(src)/4+16)
	line, col := 1, 1
	i := 0
	adv := func(n int) {
		for k := 0; k < n; k++ {
			if src[i] == '\n' {
				line++
				col = 1
			} else {
				col++
			}
			i++
		}
	}
	for i < len(src) {
		c := src[i]
		pos := syntax.Pos{Line: line, Col: col}
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			adv(1)
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				adv(1)
			}
		case c >= '0' && c <= '9':
			j := i
			for j < len(src) && src[j] >= '0' && src[j] <= '9' {
				j++
			}
			if j < len(src) && isIdentChar(src[j]) {
				return nil, &SyntaxError{file, syntax.Pos{Line: line, Col: col + j - i}, fmt.Sprintf("malformed number: unexpected %q after digits", src[j])}
			}
			toks = append(toks, token{tInt, string(src[i:j]), pos})
			adv(j - i)
		case isIdentStart(c):
			j := i
			for j < len(src) && isIdentChar(src[j]) {
				j++
			}
			// A keyword's text is the map's own key (no allocation); an identifier's is a copy.
			k, w := tIdent, ""
			if kw, ok := keywordText[string(src[i:j])]; ok {
				k, w = tKeyword, kw
			} else {
				w = string(src[i:j])
			}
			toks = append(toks, token{k, w, pos})
			adv(j - i)
		default:
			if i+1 < len(src) {
				if two, ok := twoText[string(src[i:i+2])]; ok {
					toks = append(toks, token{tSym, two, pos})
					adv(2)
					continue
				}
			}
			switch c {
			case '=', '<', '>', '+', '-', '*', '/', '%', '(', ')', ',', ';', '[', ']', ':':
				toks = append(toks, token{tSym, symText[c], pos})
				adv(1)
			case '.':
				return nil, &SyntaxError{file, pos, "unexpected '.': expected '..' (a range lo..hi)"}
			case '!':
				return nil, &SyntaxError{file, pos, "unexpected '!': expected '!=' (negation is 'not')"}
			default:
				r, _ := utf8.DecodeRune(src[i:])
				return nil, &SyntaxError{file, pos, fmt.Sprintf("unexpected character %q", r)}
			}
		}
	}
	toks = append(toks, token{tEOF, "", syntax.Pos{Line: line, Col: col}})
	return toks, nil
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isIdentChar(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }
