#!/bin/sh
# Redraws every chart in docs/plots from the release binary, with the defaults (seed 1) that
# docs/EXPERIMENTS.md's tables were run with. Run from anywhere: ./docs/plots/regenerate.sh
set -eu
cd "$(dirname "$0")/../.."
cargo build --release --locked
for name in $(target/release/prune experiment --list | awk '{print $1}'); do
    echo "$name" >&2
    target/release/prune experiment "$name" --seed 1 --plot "docs/plots/$name.svg" >/dev/null
done
