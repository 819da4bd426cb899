#!/usr/bin/env bash
# Load cost against a plain tokenizer pass (issue 15's goal: at most 3x), in CPU time, the
# minimum over RUNS runs of each, interleaved:
#   benches/reference/load-vs-tokenizer.sh FILE...        (RUNS=7 PRUNE=target/release/prune)
# "load" is the whole `prune info FILE` process: reading, parsing, checking and laying out the
# tree, then its one-page summary. The tokenizer is tokenize.c beside this script, built with cc.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
prune="${PRUNE:-$here/../../target/release/prune}"
runs="${RUNS:-7}"
tok="${TMPDIR:-/tmp}/prune-tokenize"
cc -O2 -o "$tok" "$here/tokenize.c"
[ -x "$prune" ] || { echo "no $prune: cargo build --release first" >&2; exit 2; }
TIMEFORMAT='%3U %3S'
cpu_ms() { { time "$@" >/dev/null 2>&1; } 2>&1 | awk '{ printf "%d", ($1 + $2) * 1000 }'; }
printf '%-40s %10s %10s %8s %7s\n' file MB tokenize load ratio
for f in "$@"; do
  best_tok=999999999; best_load=999999999
  for _ in $(seq "$runs"); do
    t=$(cpu_ms "$tok" "$f"); (( t < best_tok )) && best_tok=$t
    l=$(cpu_ms "$prune" info "$f"); (( l < best_load )) && best_load=$l
  done
  awk -v f="$f" -v b="$(stat -c %s "$f")" -v t="$best_tok" -v l="$best_load" 'BEGIN {
    printf "%-40s %10.1f %8d ms %5d ms %6.2fx\n", f, b / 1e6, t, l, (t > 0 ? l / t : 0) }'
done
