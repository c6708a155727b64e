// Package corpusgolden holds no code: its test (golden_test.go) builds certsym, asks it about
// every program of the corpus (testdata/*.imp, engine/testdata/*.imp, testdata/verify/*.imp)
// and compares the answers, one line per program and command, with the golden file
// testdata/corpus-outputs.txt. A change that claims not to alter certsym's behaviour leaves the
// file byte for byte the same; a change that does alter it rewrites the file with
//
//	go test ./internal/corpusgolden -run TestCorpusGolden -update
//
// and the file's diff shows the new answers for review.
package corpusgolden
