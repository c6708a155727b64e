// Package deploy holds the recipes to run certsym's sharded runs on existing batch schedulers
// (README.md here): a Kubernetes Indexed Job (job.yaml, with results-pvc.yaml and
// merge-pod.yaml), the container image (Dockerfile) and a Slurm job array (slurm.sh). It has no
// code; its test decodes the Job into k8s.io/api's batch/v1 type and checks the Slurm script.
package deploy
