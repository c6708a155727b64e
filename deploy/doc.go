// Package deploy holds the recipes to run certsym on clusters (README.md here): the container
// image (Dockerfile); a distributed run on Kubernetes (broker.yaml, the NATS JetStream broker as a
// Deployment and its Service; workers.yaml, the workers as a Job of N pods at once;
// coordinator.yaml) and on Slurm (slurm.sh); and, in shard/, the static shards of run --shard
// (an Indexed Job with its results volume and merge pod, a Slurm job array). It has no code; its
// tests decode the manifests into k8s.io/api's types and check the Slurm scripts.
package deploy
