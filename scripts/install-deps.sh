#!/usr/bin/env bash
# install-deps.sh [GROUP...]: installs the Debian packages certsym needs, only those missing.
# Groups: core (libz3-dev, for the Go engine through cgo), proofs (Coq, OCaml, zarith, yojson for
# certsym-ref's JSON protocol, Why3 and its provers), browser (chromium, for the HTML report test),
# graphviz (dot, for the execution tree test), lcov (lcov, which reads run --lcov files in a test),
# man (groff, which renders certsym help --man in a test). No group means core.
# It runs `apt-get update` once before installing, and does nothing at all when every package is present.
set -euo pipefail

groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=(core)

pkgs=()
for g in "${groups[@]}"; do
  case "$g" in
    core)    pkgs+=(libz3-dev pkg-config) ;;
    proofs)  pkgs+=(coq ocaml ocaml-findlib libzarith-ocaml-dev libyojson-ocaml-dev why3 cvc4 z3 eprover) ;;
    browser) pkgs+=(chromium) ;;
    graphviz) pkgs+=(graphviz) ;;
    lcov)    pkgs+=(lcov) ;;
    man)     pkgs+=(groff-base) ;;
    *) echo "install-deps.sh: unknown group '$g' (expected core, proofs, browser, graphviz, lcov or man)" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${pkgs[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps.sh: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
