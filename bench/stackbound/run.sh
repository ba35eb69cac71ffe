#!/bin/sh
# Exact stacks (issue 34) against guarded 64 KiB private stacks and shared
# stacks: bench/stackbound/exact.c, built with -fcacs-stack-bounds, each
# mode in REPS processes pinned to one CPU, interleaved. Not part of
# scripts/bench: its lines go to a report, with the load average.
#
#   bench/stackbound/run.sh [N] [REPS] [--build DIR]
#
# 64 KiB private stacks take about 4 KiB of RSS each: N = 1,000,000 of them
# is about 4 GB.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build="$root/build"
n=1000000
reps=3
[ $# -gt 0 ] && [ "$1" != --build ] && { n=$1; shift; }
[ $# -gt 0 ] && [ "$1" != --build ] && { reps=$1; shift; }
[ $# -gt 1 ] && [ "$1" = --build ] && build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/bin/clang" -O2 -fcacs-stack-bounds -I"$root/runtime/include" \
  "$here/exact.c" "$build/runtime/x86_64/libcacs.a" -lpthread -o "$work/exact"
uptime
i=0
while [ $i -lt "$reps" ]; do
  for mode in exact private64k shared; do
    taskset -c 1 "$work/exact" "$mode" "$n"
  done
  i=$((i + 1))
done
uptime
