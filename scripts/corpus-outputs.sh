#!/usr/bin/env bash
# corpus-outputs.sh [OUT]: prints what certsym answers on every corpus program (run: verdict, bug
# lines and kinds; verify: every claim's status), one line per program and command, to OUT or
# stdout. A change that claims not to alter behaviour must leave this output unchanged:
#   bash scripts/corpus-outputs.sh | diff scripts/corpus-outputs.txt -
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh core
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/certsym" ./cmd/certsym
go build -o "$tmp/corpusout" ./scripts/corpusout
if [ $# -ge 1 ]; then
  "$tmp/corpusout" "$tmp/certsym" . >"$1"
else
  "$tmp/corpusout" "$tmp/certsym" .
fi
