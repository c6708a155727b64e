package pathcond

// Verdict is an analysis' answer about a program's errors: the bug finder's (package engine,
// Fig. 10 extended with unknown) and the bounded interpreter's (package bounded). It sits here,
// below both, because the two sit side by side and share it; each names it as its own Verdict.
type Verdict uint8

// Bug: a confirmed bug. Safe: every path the analysis must explore was explored and none reaches
// an error. Unknown: a bound, an undecided solver query or (for the bounded interpreter) the loop
// bound left paths unexplored, before any bug was confirmed.
const (
	VerdictSafe Verdict = iota
	VerdictBug
	VerdictUnknown
)

// String names the verdict: "safe", "bug" or "unknown".
func (v Verdict) String() string { return [...]string{"safe", "bug", "unknown"}[v] }
