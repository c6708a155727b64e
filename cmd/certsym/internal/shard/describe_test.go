package shard

import (
	"testing"

	"certsym/cmd/certsym/internal/report"
	"certsym/spec/syntax"
)

// TestDescribeEveryKind: the merged report names each kind of error in run's words.
func TestDescribeEveryKind(t *testing.T) {
	for k := syntax.FailExplicit; k <= syntax.FailInvariant; k++ {
		if got, want := describe[k.String()], report.DescribeFail(&syntax.Fail{Kind: k}); got != want {
			t.Errorf("kind %s: the merged report says %q, run %q", k, got, want)
		}
	}
}
