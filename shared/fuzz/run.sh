#!/usr/bin/env bash
# Builds every fuzz target of tabula-shared and runs each for SECONDS
# (default 60) on its corpus, so that the targets keep building and the
# corpora keep being exercised. Needs the nightly toolchain and cargo-fuzz
# (installed from crates.io when missing).
#
#   bash shared/fuzz/run.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi
for target in client_frame notation import rules; do
    mkdir -p "fuzz/corpus/$target"
    cargo +nightly fuzz run "$target" "fuzz/corpus/$target" -- \
        -max_total_time="$secs" -rss_limit_mb=2048 -print_final_stats=1
done
