package parser

// RoundTrip is roundTrip for the tests of package parser_test (FuzzParse, which also runs the
// programs it parses with package spec).
var RoundTrip = roundTrip
