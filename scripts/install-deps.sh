#!/usr/bin/env bash
# install-deps.sh [GROUP...]: installs the Debian packages certsym needs, only those missing.
# Groups: core (what building certsym needs besides Go: gcc and libc6-dev for cgo, libz3-dev for
# Z3, pkg-config, which cgo runs for Z3's flags; scripts/check-deps.sh checks them without
# installing), proofs (Coq, OCaml, zarith, yojson for certsym-ref's JSON protocol, Why3 and its
# provers), browser (chromium, for the HTML report test), graphviz (dot, for the execution tree
# test), lcov (lcov, which reads run --lcov files in a test), man (groff, which renders certsym
# help --man in a test), nats (nats-server, the NATS JetStream broker the distributed runs' tests
# start), slurm (slurmctld, slurmd, slurm-client and munge, for the single-node Slurm test of make
# check-slurm), framac (frama-c-base, the Frama-C analyser whose Eva plugin scripts/bench-invariants.sh
# compares with certsym prove --infer). No group means core.
# It runs `apt-get update` once before installing, and does nothing at all when every package is
# present. Installing needs root: it uses sudo when run as another user.
set -euo pipefail

groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=(core)

pkgs=()
for g in "${groups[@]}"; do
  case "$g" in
    core)    pkgs+=(gcc libc6-dev libz3-dev pkg-config) ;;
    proofs)  pkgs+=(coq ocaml ocaml-findlib libzarith-ocaml-dev libyojson-ocaml-dev why3 cvc4 z3 eprover) ;;
    browser) pkgs+=(chromium) ;;
    graphviz) pkgs+=(graphviz) ;;
    lcov)    pkgs+=(lcov) ;;
    man)     pkgs+=(groff-base) ;;
    nats)    pkgs+=(nats-server) ;;
    slurm)   pkgs+=(slurmctld slurmd slurm-client munge) ;;
    framac)  pkgs+=(frama-c-base) ;;
    *) echo "install-deps.sh: unknown group '$g' (expected core, proofs, browser, graphviz, lcov, man, nats, slurm or framac)" >&2; exit 2 ;;
  esac
done

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-deps.sh: not a Debian system (no dpkg-query or apt-get): install the equivalents of ${pkgs[*]} by hand" >&2
  exit 1
fi

missing=()
for p in "${pkgs[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps.sh: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "install-deps.sh: not root and no sudo: as root, run apt-get install ${missing[*]}" >&2
    exit 1
  fi
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
