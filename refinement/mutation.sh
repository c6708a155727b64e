#!/usr/bin/env bash
# Mutation score of the engine's symbolic core with the refinement layer alone as the test
# (make mutation). gremlins (github.com/go-gremlins/gremlins) lists the mutants of the core files
# (a dry run per package of FILES: its coverage run executes the package's test binary
# under the build tag refinementonly with a test file overlaid into the package's folder (go's
# -overlay through GOFLAGS; the command refinement/mutation -overlay writes the files and the
# overlay, from refinement/mutation/layer_test.go.tmpl), which runs only the layer's reduced run,
# so a mutant is "covered" when the layer executes its line; no file of the packages themselves
# imports the layer). Gremlins itself would run `go test` on
# the mutated package under one timeout derived from the coverage run and would count mutants
# that do not compile as killed; this driver applies gremlins' mutants one at a time itself, in
# a copy of the module, with gremlins' token mapping, and classifies each:
#   NOT VIABLE  the mutant does not compile (e.g. + on strings)
#   KILLED      the reduced run of the layer reports a mismatch (exit 1) or a panic
#   TIMED OUT   the reduced run exceeds MUTANT_TIMEOUT (default 240 s)
#   LIVED       the layer finds nothing
# Output: refinement/mutation-run.tsv, or OUT (file, line, column, type, status, first mismatch);
# refinement/mutation-results.tsv is the committed, triaged record of a run (see README.md).
#   FILES="pathcond/bounds.go pathcond/linfacts.go" bash refinement/mutation.sh   # only these core files
#   JOBS=2 MAX=50 bash refinement/mutation.sh                   # 2 copies in parallel, 50 mutants
#   SKIP=old.tsv bash refinement/mutation.sh   # leave out the mutants already run in old.tsv
#                                              # (rows of the results' format, any status but NOT COVERED)
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
GREMLINS=${GREMLINS:-github.com/go-gremlins/gremlins/cmd/gremlins@v0.6.0}
FILES=${FILES:-pathcond/bounds.go pathcond/linfacts.go pathcond/pc.go engine/search.go engine/bugfinder.go engine/expand.go sym/formula.go sym/term.go}
JOBS=${JOBS:-2}
MAX=${MAX:-100000}
MUTANT_TIMEOUT=${MUTANT_TIMEOUT:-240}
export CERTSYM_REF=${CERTSYM_REF:-$ROOT/proofs/ref/_build/certsym-ref}
OUT=${OUT:-$ROOT/refinement/mutation-run.tsv}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$(date +%s)

echo "mutation: listing mutants with gremlins (dry run; its coverage run is the layer's reduced run)"
pkgs=$(for f in $FILES; do dirname "$f"; done | sort -u)
mkdir -p "$work/overlay"
# shellcheck disable=SC2086
overlay=$(go run ./refinement/mutation -overlay "$work/overlay" "$ROOT" $pkgs) || { echo "mutation: cannot write the overlay"; exit 1; }
for pkg in $pkgs; do
  GOFLAGS="-count=1 -overlay=$overlay" go run "$GREMLINS" unleash --dry-run -t refinementonly --coverpkg "certsym/$pkg" \
    -E '_test\.go$' -o "$work/dry-$pkg.json" "./$pkg" > "$work/dry-$pkg.log" 2>&1 || { cat "$work/dry-$pkg.log"; exit 1; }
  tail -3 "$work/dry-$pkg.log"
done

python3 - "$work" "$FILES" > "$work/mutants.tsv" <<'PY'
import glob, json, os, sys
order = sys.argv[2].split()
rows = []
for path in glob.glob(os.path.join(sys.argv[1], "dry-*.json")):
    pkg = os.path.basename(path)[len("dry-"):-len(".json")]
    for f in json.load(open(path))["files"]:
        name = pkg + "/" + f["file_name"].split("/")[-1]
        if name not in order:
            continue
        for m in f["mutations"]:
            rows.append((order.index(name), name, m["line"], m["column"], m["type"], m["status"]))
rows.sort()
for _, name, line, col, typ, st in rows:
    print(f"{name}\t{line}\t{col}\t{typ}\t{st}")
PY
echo "mutation: $(grep -c RUNNABLE "$work/mutants.tsv") runnable, $(grep -c 'NOT COVERED' "$work/mutants.tsv") not covered in: $FILES"

# one copy of the module per job (the reference binary is shared)
for j in $(seq 1 "$JOBS"); do
  mkdir -p "$work/m$j"
  tar --exclude=.git --exclude='proofs/*/_build' --exclude='*.vo' -cf - . | tar -C "$work/m$j" -xf -
done

apply() { # dir file line col type: rewrite the token at line:col as gremlins does
  python3 - "$@" <<'PY'
import sys
d, f, line, col, typ = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
maps = {
 "ARITHMETIC_BASE": {"+": "-", "-": "+", "*": "/", "/": "*", "%": "*"},
 "CONDITIONALS_BOUNDARY": {">=": ">", ">": ">=", "<=": "<", "<": "<="},
 "CONDITIONALS_NEGATION": {"==": "!=", "!=": "==", ">=": "<", ">": "<=", "<=": ">", "<": ">="},
 "INCREMENT_DECREMENT": {"++": "--", "--": "++"},
 "INVERT_NEGATIVES": {"-": "+"},
 "INVERT_LOGICAL": {"&&": "||", "||": "&&"},
 "INVERT_LOOPCTRL": {"break": "continue", "continue": "break"},
}
p = d + "/" + f
src = open(p, encoding="utf-8").read().split("\n")
b = src[line - 1].encode()
i = col - 1
m = maps[typ]
for tok in sorted(m, key=len, reverse=True):
    if b[i:i + len(tok)].decode(errors="replace") == tok:
        src[line - 1] = (b[:i] + m[tok].encode() + b[i + len(tok):]).decode()
        break
else:
    sys.exit("no token for %s at %s:%d:%d: %r" % (typ, f, line, col, b[i:i + 3]))
open(p, "w", encoding="utf-8").write("\n".join(src))
PY
}

run_one() { # job file line col type
  local j=$1 f=$2 line=$3 col=$4 typ=$5 dir=$work/m$1 status first
  cp "$dir/$f" "$work/orig$j.go"
  if ! apply "$dir" "$f" "$line" "$col" "$typ" 2> "$work/apply$j.txt"; then
    status="ERROR"; first=$(head -1 "$work/apply$j.txt")
  elif ! (cd "$dir" && go build -o "$work/bin$j" ./refinement/mutation) > "$work/build$j.txt" 2>&1; then
    status="NOT VIABLE"; first=$(grep -m1 "\.go:" "$work/build$j.txt" | tr '\t' ' ')
  else
    (cd "$dir" && timeout "$MUTANT_TIMEOUT" "$work/bin$j" "$dir") > "$work/run$j.txt" 2>&1
    case $? in
      0) status="LIVED"; first="" ;;
      1) status="KILLED"; first=$(grep -m1 -o "MISMATCH \[[^]]*\]" "$work/run$j.txt") ;;
      124) status="TIMED OUT"; first="" ;;
      *) status="KILLED"; first="exit $(tail -1 "$work/run$j.txt" | cut -c1-120)" ;;
    esac
  fi
  cp "$work/orig$j.go" "$dir/$f"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$f" "$line" "$col" "$typ" "$status" "$first"
}

echo "mutation: clean run of the reduced layer (must pass)"
(cd "$work/m1" && go build -o "$work/bin0" ./refinement/mutation && "$work/bin0" "$work/m1") || { echo "mutation: the unmutated engine fails the reduced run"; exit 1; }

printf 'file\tline\tcolumn\ttype\tstatus\tfirst mismatch\n' > "$OUT"
: > "$OUT.partial" # results as they come (kept if the run is stopped)
grep 'NOT COVERED' "$work/mutants.tsv" | awk -F'\t' '{printf "%s\t%s\t%s\t%s\tNOT COVERED\t\n", $1, $2, $3, $4}' >> "$OUT"
n=0
grep RUNNABLE "$work/mutants.tsv" > "$work/runnable.all"
if [ -n "${SKIP:-}" ]; then
  awk -F'\t' 'NR==FNR { if ($5 != "NOT COVERED" && $5 != "status") done[$1 FS $2 FS $3 FS $4] = 1; next }
               !(($1 FS $2 FS $3 FS $4) in done)' "$SKIP" "$work/runnable.all" > "$work/runnable.left"
  echo "mutation: skipping $(( $(wc -l < "$work/runnable.all") - $(wc -l < "$work/runnable.left") )) mutants already run in $SKIP"
  mv "$work/runnable.left" "$work/runnable.all"
fi
head -n "$MAX" "$work/runnable.all" > "$work/runnable.tsv"
total=$(wc -l < "$work/runnable.tsv")
# JOBS queues: mutant k goes to job (k mod JOBS)+1; each job runs its mutants in order
for j in $(seq 1 "$JOBS"); do
  (
    k=0
    while IFS=$'\t' read -r f line col typ st; do
      if [ $(( k % JOBS + 1 )) -eq "$j" ]; then
        run_one "$j" "$f" "$line" "$col" "$typ" | tee -a "$OUT.partial" >> "$work/res$j.tsv"
        echo "mutation: job $j: $(wc -l < "$work/res$j.tsv") done: $(tail -1 "$work/res$j.tsv" | cut -f1-5 | tr '\t' ' ')"
      fi
      k=$((k + 1))
    done < "$work/runnable.tsv"
  ) &
done
wait
cat "$work"/res*.tsv | sort -t$'\t' -k1,1 -k2,2n -k3,3n >> "$OUT"
killed=$(grep -c $'\tKILLED\t' "$OUT"); lived=$(grep -c $'\tLIVED\t' "$OUT"); timed=$(grep -c $'\tTIMED OUT\t' "$OUT")
nv=$(grep -c $'\tNOT VIABLE\t' "$OUT"); nc=$(grep -c $'\tNOT COVERED\t' "$OUT")
echo "mutation: $total runnable mutants run: killed $killed, timed out $timed, lived $lived, not viable $nv; not covered $nc"
echo "mutation: score (killed + timed out) / (killed + timed out + lived + not covered) = $(( 100 * (killed + timed) / (killed + timed + lived + nc > 0 ? killed + timed + lived + nc : 1) ))% before triage"
echo "mutation: results in $OUT; $(( $(date +%s) - start ))s"
