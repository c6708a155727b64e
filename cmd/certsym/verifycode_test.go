package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// verifyCodeProg has, by line: a macro whose body has a dead branch (2); a call that enters it
// (4); a call in a dead branch (5); on line 7, a dead and a covered statement side by side; a
// loop the loop bound cuts (8); a call after it (9); an assert after it (10).
const verifyCodeProg = `macro m begin
  if x > 0 then if x < 0 then y = 1 fi fi
end
m;
if x > 5 then if x < 2 then m fi fi;
i = 0;
if i > 9 then z = 1 else z = 2 fi;
while i < 5 do i = i + 1 od;
m;
assert i == 5`

// TestVerifyCodeCoverage: certsym verify reports coverage statement by statement (line:col, with
// the place in the macro body for inlined statements), DEAD apart from UNCOVERED with the cutoff
// and its chop, and judges a macro call by its expansion: the call at line 4 is covered though its
// expansion has a dead statement, so line 4 is not a never-executed line.
func TestVerifyCodeCoverage(t *testing.T) {
	f := writeProg(t, verifyCodeProg)
	_, stdout, stderr := runText("verify", f, "--quiet", "--loop-bound", "3")
	for _, want := range []string{
		"(never executed: line 5, 7, 9, 10)\n",
		"dead code (no execution reaches it): 4:1 (macro call; body 2:31), 5:29 (macro call; body 2:3), 5:29 (macro call; body 2:17), 5:29 (macro call; body 2:31), 7:15\n",
		"uncovered, reached by the cutoff at line 8 (loop bound 3: iteration 4 not explored): 9:1 (macro call; body 2:3), 9:1 (macro call; body 2:17), 9:1 (macro call; body 2:31), 10:1; chop from the cutoff: lines 8, 9, 10\n",
		"macro calls (covered when their expansion was entered): 4:1 COVERED, 5:29 DEAD, 9:1 UNCOVERED\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("text report lacks %q:\n%s%s", want, stdout, stderr)
		}
	}
	_, stdout, _ = runText("verify", f, "--quiet", "--json", "--loop-bound", "3")
	var j struct {
		Lines []int `json:"uncovered_lines"`
		Code  []struct {
			Line, Column int
			InMacro      string `json:"in_macro_body"`
			Status       string
			CutLine      int `json:"cutoff_line"`
		} `json:"code"`
		Calls []struct {
			Line, Column, Statements, Covered int
			Status                            string
		} `json:"macro_calls"`
		Chops []struct {
			CutLine    int `json:"cutoff_line"`
			Statements int
			Chop       []int
		} `json:"uncovered_chops"`
	}
	if err := json.Unmarshal([]byte(stdout), &j); err != nil {
		t.Fatal(err)
	}
	if len(j.Code) != 9 || j.Code[0].Line != 4 || j.Code[0].InMacro != "2:31" || j.Code[0].Status != "DEAD" ||
		j.Code[4].Line != 7 || j.Code[4].Column != 15 || j.Code[4].Status != "DEAD" || j.Code[4].InMacro != "" ||
		j.Code[8].Line != 10 || j.Code[8].Column != 1 || j.Code[8].Status != "UNCOVERED" || j.Code[8].CutLine != 8 {
		t.Errorf("code: %+v", j.Code)
	}
	if len(j.Calls) != 3 || j.Calls[0].Status != "COVERED" || j.Calls[0].Covered != 2 || j.Calls[1].Status != "DEAD" || j.Calls[2].Status != "UNCOVERED" {
		t.Errorf("macro calls: %+v", j.Calls)
	}
	if len(j.Chops) != 1 || j.Chops[0].CutLine != 8 || j.Chops[0].Statements != 4 || jsonInts(j.Chops[0].Chop) != "[8,9,10]" {
		t.Errorf("chops: %+v", j.Chops)
	}
	if got := jsonInts(j.Lines); got != "[5,7,9,10]" {
		t.Errorf("uncovered lines %s", got)
	}
}

func jsonInts(xs []int) string {
	b, _ := json.Marshal(xs)
	return string(b)
}
