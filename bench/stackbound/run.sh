#!/bin/sh
# Exact stacks (issue 34) against guarded 64 KiB private stacks and shared
# stacks: bench/stackbound/exact.c, built with -fcacs-stack-bounds, each
# mode in REPS processes pinned to one CPU, interleaved. With `pool`
# first, bench/stackbound/pool.c: pool coroutines parked in a wait for a
# descriptor, on exact stacks and on the pool's guarded ones (its workers
# share the CPU); with `pool-sem`, parked on a pool semaphore instead.
# Not part of scripts/bench: its lines go to a report, with the load
# average.
#
#   bench/stackbound/run.sh [pool | pool-sem] [N] [REPS] [--build DIR]
#
# 64 KiB private stacks take about 4 KiB of RSS each, a parked pool
# coroutine's about 8 KiB: N = 1,000,000 of them is 4 or 8 GB (N defaults
# to 1,000,000, 100,000 with `pool`).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build="$root/build"
prog=exact
modes="exact private64k shared"
n=1000000
defs=
if [ $# -gt 0 ] && { [ "$1" = pool ] || [ "$1" = pool-sem ]; }; then
  [ "$1" = pool-sem ] && defs=-DPOOL_WAIT_SEM
  prog=pool
  modes="exact guarded"
  n=100000
  shift
fi
reps=3
[ $# -gt 0 ] && [ "$1" != --build ] && { n=$1; shift; }
[ $# -gt 0 ] && [ "$1" != --build ] && { reps=$1; shift; }
[ $# -gt 1 ] && [ "$1" = --build ] && build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/bin/clang" -O2 -fcacs-stack-bounds $defs -I"$root/runtime/include" \
  "$here/$prog.c" "$build/runtime/x86_64/libcacs_io.a" \
  "$build/runtime/x86_64/libcacs.a" $(pkg-config --libs liburing 2>/dev/null) \
  -lpthread -o "$work/$prog"
uptime
i=0
while [ $i -lt "$reps" ]; do
  for mode in $modes; do
    env CACS_IO_ENGINE=epoll taskset -c 1 "$work/$prog" "$mode" "$n"
  done
  i=$((i + 1))
done
uptime
