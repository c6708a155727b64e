package verify

import (
	"strings"
)

// primNames renders a claim's primitive claims as KIND@LINE STATUS SUMMARY.
func primNames(cl *Claim) string {
	var out []string
	for _, p := range cl.Prims {
		out = append(out, p.Name()+" "+p.Status.String()+" "+p.Summary.String())
	}
	return strings.Join(out, "; ")
}
