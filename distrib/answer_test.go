package distrib_test

import (
	"encoding/json"
	"testing"

	"certsym/distrib"
	"certsym/engine/job"
	"certsym/internal/budget"
	"certsym/spec/syntax/parser"
)

// TestSplitOffJobsCarryTheirRootAnswers: a job's split-off jobs carry the answers its solver gave
// on their roots' path conditions, through the broker's JSON, and the job that takes one
// explores under it where its own solver answers otherwise: its root, an error state, is
// classified by the carried answer (here an answer unknown, carried with its reason, where its
// own solver finds the bug).
func TestSplitOffJobsCarryTheirRootAnswers(t *testing.T) {
	src := "if x * y == 12 then fail fi\n"
	prog, err := parser.Parse("t.imp", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	spec := &distrib.Spec{Run: "t", File: "t.imp", Source: src, Budget: 1}
	top, err := distrib.Explore(prog, spec, job.Root, nil, budget.NewMonitor(), bugText)
	if err != nil {
		t.Fatal(err)
	}
	subs, err := top.SplitOff()
	if err != nil {
		t.Fatal(err)
	}
	if len(subs) != 2 || len(top.Roots) != 2 {
		t.Fatalf("split off %v with answers %v, want the two successors of the branching with theirs", top.Jobs, top.Roots)
	}
	var msg distrib.JobMsg
	data, _ := json.Marshal(distrib.JobMsg{Run: "t", Job: top.Jobs[0], Root: top.Roots[0]})
	if err := json.Unmarshal(data, &msg); err != nil || msg.Root == nil || msg.Root.Status != "sat" || len(msg.Root.Witness) != 2 {
		t.Fatalf("the first job's message %s reads back as %+v (%v), want the root's sat answer and its model", data, msg.Root, err)
	}
	found, err := distrib.Explore(prog, spec, subs[0].Job, msg.Root, budget.NewMonitor(), bugText)
	if err != nil || len(found.Events) != 1 || found.Events[0].Outcome != distrib.OutcomeBug {
		t.Fatalf("under its carried sat answer, job %v found %+v (%v), want the bug", subs[0].Job, found, err)
	}
	unknown := &distrib.Answer{Status: "unknown", Reason: "the carried reason"}
	got, err := distrib.Explore(prog, spec, subs[0].Job, unknown, budget.NewMonitor(), bugText)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Events) != 1 || got.Events[0].Outcome != distrib.OutcomeUnknown || got.Events[0].Reason != "the carried reason" {
		t.Fatalf("under a carried unknown answer, job %v gave events %+v, want the error unknown with the carried reason", subs[0].Job, got.Events)
	}
	bad := &distrib.Answer{Status: "maybe"}
	if r, err := distrib.Explore(prog, spec, subs[0].Job, bad, budget.NewMonitor(), bugText); err != nil || r.Status != distrib.StatusFailed {
		t.Fatalf("a job with an unreadable answer gave %+v (%v), want a failed result", r, err)
	}
}
