#!/usr/bin/env bash
# smoke_test.sh BINARY: sends the requests of smoke_cases.txt to certsym-ref and compares
# every answer with the expected line.  Format of smoke_cases.txt: a request line starting
# with "> ", then the expected answer line starting with "< "; other lines are comments.
set -euo pipefail
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
cases="$here/smoke_cases.txt"
reqs=$(grep '^> ' "$cases" | sed 's/^> //')
want=$(grep '^< ' "$cases" | sed 's/^< //')
got=$(printf '%s\n' "$reqs" | "$bin")
if [ "$got" != "$want" ]; then
  diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") >&2 || true
  echo "smoke_test: certsym-ref answers differ from smoke_cases.txt (< expected, > got)" >&2
  exit 1
fi
echo "smoke_test: $(printf '%s\n' "$want" | wc -l) answers as expected"
