package deploy

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// TestDistributedManifests decodes the distributed run's manifests strictly into k8s.io/api's
// types and checks what the recipe relies on: the broker is a Deployment running nats-server with
// JetStream on port 4222, behind a Service named certsym-broker on that port; the workers are a
// Job of N pods at once (parallelism, no completions: the work-queue pattern) running certsym
// worker on that Service with an idle time, so that the Job completes; the coordinator runs
// certsym run --distributed on the Service.
func TestDistributedManifests(t *testing.T) {
	data, err := os.ReadFile("broker.yaml")
	if err != nil {
		t.Fatal(err)
	}
	docs := bytes.Split(data, []byte("\n---\n"))
	if len(docs) != 2 {
		t.Fatalf("broker.yaml has %d documents, want the Deployment and the Service", len(docs))
	}
	var dep appsv1.Deployment
	if err := yaml.UnmarshalStrict(docs[0], &dep); err != nil {
		t.Fatalf("broker.yaml (Deployment): %v", err)
	}
	var svc corev1.Service
	if err := yaml.UnmarshalStrict(docs[1], &svc); err != nil {
		t.Fatalf("broker.yaml (Service): %v", err)
	}
	if dep.Kind != "Deployment" || svc.Kind != "Service" || svc.Name != "certsym-broker" {
		t.Fatalf("broker.yaml: %s and %s %q", dep.Kind, svc.Kind, svc.Name)
	}
	c := dep.Spec.Template.Spec.Containers[0]
	if cmd := strings.Join(c.Command, " "); !strings.HasPrefix(cmd, "nats-server -js") || !strings.Contains(cmd, "-p 4222") {
		t.Errorf("the broker runs %q, want nats-server -js -p 4222", cmd)
	}
	for k, v := range svc.Spec.Selector {
		if dep.Spec.Template.Labels[k] != v {
			t.Errorf("the Service selects %s=%s, the broker's pods are labelled %v", k, v, dep.Spec.Template.Labels)
		}
	}
	if len(svc.Spec.Ports) != 1 || svc.Spec.Ports[0].Port != 4222 || svc.Spec.Ports[0].TargetPort.String() != c.Ports[0].Name {
		t.Errorf("the Service's ports %v do not reach the container's %v", svc.Spec.Ports, c.Ports)
	}
	url := "nats://" + svc.Name + ":4222"

	var workers batchv1.Job
	decodeStrict(t, "workers.yaml", &workers)
	if workers.Spec.Parallelism == nil || *workers.Spec.Parallelism < 1 || workers.Spec.Completions != nil {
		t.Errorf("workers.yaml: parallelism %v, completions %v; want N pods at once and no completions", workers.Spec.Parallelism, workers.Spec.Completions)
	}
	if cmd := strings.Join(workers.Spec.Template.Spec.Containers[0].Command, " "); !strings.HasPrefix(cmd, "certsym worker "+url) || !strings.Contains(cmd, "--idle") {
		t.Errorf("the workers run %q, want certsym worker %s --idle D", cmd, url)
	}

	var coord batchv1.Job
	decodeStrict(t, "coordinator.yaml", &coord)
	if args := strings.Join(coord.Spec.Template.Spec.Containers[0].Args, " "); !strings.Contains(args, "certsym run /program/program.imp --distributed "+url) {
		t.Errorf("the coordinator runs %q, want certsym run /program/program.imp --distributed %s", args, url)
	}
}

// TestDistributedSlurmScript checks slurm.sh's syntax, that it runs the workers with srun and
// the coordinator with run --distributed, and that outside a job it says how to submit it.
// TestSlurm (package distrib, make check-slurm) runs it on a real Slurm.
func TestDistributedSlurmScript(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed: the syntax of slurm.sh is not checked")
	}
	if out, err := exec.Command(bash, "-n", "slurm.sh").CombinedOutput(); err != nil {
		t.Fatalf("bash -n slurm.sh: %v\n%s", err, out)
	}
	src, err := os.ReadFile("slurm.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"#SBATCH --ntasks", `srun --ntasks="${SLURM_NTASKS:-1}"`, `worker "$URL"`, `--distributed "$URL"`} {
		if !strings.Contains(string(src), want) {
			t.Errorf("slurm.sh does not contain %q", want)
		}
	}
	cmd := exec.Command(bash, "slurm.sh", "nats://x:4222", "p.imp")
	cmd.Env = append(os.Environ(), "SLURM_JOB_ID=")
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "sbatch") {
		t.Errorf("slurm.sh outside a job: %v, %s", err, out)
	}
}
