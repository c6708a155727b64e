package deploy

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// decodeStrict decodes a manifest into v, rejecting unknown and duplicate fields.
func decodeStrict(t *testing.T, file string, v any) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.UnmarshalStrict(data, v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}

// TestJobManifest decodes job.yaml into the real batch/v1 Job type (unknown fields disallowed)
// and checks what the recipe relies on: an Indexed Job with as many pods at once as
// completions, whose container runs shard $(JOB_COMPLETION_INDEX)/N with N the completions, the
// index declared in its environment (so that Kubernetes expands it), and the results volume.
func TestJobManifest(t *testing.T) {
	var job batchv1.Job
	decodeStrict(t, "shard/job.yaml", &job)
	if job.APIVersion != "batch/v1" || job.Kind != "Job" {
		t.Fatalf("job.yaml is %s %s, want batch/v1 Job", job.APIVersion, job.Kind)
	}
	s := job.Spec
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion {
		t.Fatalf("completionMode %v, want Indexed", s.CompletionMode)
	}
	if s.Completions == nil || s.Parallelism == nil || *s.Completions != *s.Parallelism || *s.Completions < 1 {
		t.Fatalf("completions %v, parallelism %v: want them equal (one pod per shard, all at once)", s.Completions, s.Parallelism)
	}
	n := int(*s.Completions)
	if s.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
		t.Errorf("restartPolicy %q, want Never (podFailurePolicy needs it)", s.Template.Spec.RestartPolicy)
	}
	if len(s.Template.Spec.Containers) != 1 {
		t.Fatalf("%d containers, want 1", len(s.Template.Spec.Containers))
	}
	c := s.Template.Spec.Containers[0]
	cmd := strings.Join(append(append([]string{}, c.Command...), c.Args...), " ")
	re := regexp.MustCompile(`certsym run \S+\.imp --shard \$\(JOB_COMPLETION_INDEX\)/(\d+) --json`)
	m := re.FindStringSubmatch(cmd)
	if m == nil {
		t.Fatalf("the container's command %q does not run certsym run FILE --shard $(JOB_COMPLETION_INDEX)/N --json", cmd)
	}
	if m[1] != fmt.Sprint(n) {
		t.Errorf("the command runs shards of %s, the Job has %d completions", m[1], n)
	}
	if !strings.Contains(cmd, "> /results/shard-$(JOB_COMPLETION_INDEX).json") {
		t.Errorf("the command %q does not write its report to /results/shard-$(JOB_COMPLETION_INDEX).json", cmd)
	}
	declared := false
	for _, e := range c.Env {
		if e.Name == "JOB_COMPLETION_INDEX" && e.ValueFrom != nil && e.ValueFrom.FieldRef != nil &&
			e.ValueFrom.FieldRef.FieldPath == "metadata.annotations['batch.kubernetes.io/job-completion-index']" {
			declared = true
		}
	}
	if !declared {
		t.Errorf("JOB_COMPLETION_INDEX is not declared in the container's env from the completion-index annotation")
	}
	mounted := false
	for _, v := range c.VolumeMounts {
		mounted = mounted || v.MountPath == "/results"
	}
	if !mounted {
		t.Errorf("no volume mounted at /results")
	}
	if p := s.PodFailurePolicy; p == nil || len(p.Rules) == 0 || p.Rules[0].Action != batchv1.PodFailurePolicyActionFailJob {
		t.Errorf("podFailurePolicy %+v: want a FailJob rule for exit codes 2 and 4", p)
	}

	var pvc corev1.PersistentVolumeClaim
	decodeStrict(t, "shard/results-pvc.yaml", &pvc)
	if len(pvc.Spec.AccessModes) != 1 || pvc.Spec.AccessModes[0] != corev1.ReadWriteMany {
		t.Errorf("results-pvc.yaml: access modes %v, want ReadWriteMany (the pods may run on several nodes)", pvc.Spec.AccessModes)
	}
	var pod corev1.Pod
	decodeStrict(t, "shard/merge-pod.yaml", &pod)
	if args := strings.Join(pod.Spec.Containers[0].Args, " "); !strings.Contains(args, "certsym merge /results/shard-*.json") {
		t.Errorf("merge-pod.yaml runs %q, want certsym merge /results/shard-*.json", args)
	}
}

// TestJobManifestStrict checks that the decoding of TestJobManifest does reject a misspelt field.
func TestJobManifestStrict(t *testing.T) {
	data, err := os.ReadFile("shard/job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(data), "completionMode:", "completionMod:", 1)
	var job batchv1.Job
	if err := yaml.UnmarshalStrict([]byte(bad), &job); err == nil || !strings.Contains(err.Error(), "completionMod") {
		t.Errorf("a misspelt field decodes: %v", err)
	}
}

// TestSlurmScript checks the Slurm job array script's syntax with bash -n, and that it takes
// the shard from SLURM_ARRAY_TASK_ID.
func TestSlurmScript(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed: the syntax of slurm.sh is not checked")
	}
	if out, err := exec.Command(bash, "-n", "shard/slurm-array.sh").CombinedOutput(); err != nil {
		t.Fatalf("bash -n slurm.sh: %v\n%s", err, out)
	}
	src, err := os.ReadFile("shard/slurm-array.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"SLURM_ARRAY_TASK_ID", `--shard "$I/$N"`, "#SBATCH"} {
		if !strings.Contains(string(src), want) {
			t.Errorf("slurm.sh does not contain %q", want)
		}
	}
	// Outside a job array it says how to run it, with status 2.
	cmd := exec.Command(bash, "shard/slurm-array.sh", "x.imp", t.TempDir())
	cmd.Env = append(os.Environ(), "SLURM_ARRAY_TASK_ID=", "SLURM_ARRAY_TASK_COUNT=")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "sbatch --array") {
		t.Errorf("slurm.sh outside a job array: %v, %s", err, out)
	}
}

// TestSlurmScriptRuns runs the script as task 1 of an array of 2 with a stand-in for certsym
// that records its arguments: it must run shard 1/2 and write shard-1.json.
func TestSlurmScriptRuns(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	dir := t.TempDir()
	fake := dir + "/certsym"
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho \"$*\"\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bash, "shard/slurm-array.sh", "p.imp", dir+"/results", "--all-bugs")
	cmd.Env = append(os.Environ(), "SLURM_ARRAY_TASK_ID=1", "SLURM_ARRAY_TASK_COUNT=2", "CERTSYM="+fake)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("slurm.sh: %v\n%s", err, out)
	}
	got, err := os.ReadFile(dir + "/results/shard-1.json")
	if err != nil {
		t.Fatal(err)
	}
	if want := "run p.imp --shard 1/2 --json --quiet --all-bugs\n"; string(got) != want {
		t.Errorf("certsym was run with %q, want %q", got, want)
	}
}
