#!/usr/bin/env bash
# timed.sh LABEL COMMAND...: runs COMMAND, then prints how long it took and how it ended, so that
# a log of make check says where its time went.
label=$1; shift
start=$(date +%s)
"$@"; rc=$?
echo "make check: $label took $(( $(date +%s) - start )) s (exit $rc)"
exit $rc
