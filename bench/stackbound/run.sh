#!/bin/sh
# Exact stacks (issue 34) against guarded 64 KiB private stacks and shared
# stacks: bench/stackbound/exact.c, built with -fcacs-stack-bounds, each
# mode in REPS processes pinned to one CPU, interleaved. With `pool`
# first, bench/stackbound/pool.c: pool coroutines parked in a wait for a
# descriptor, on exact stacks and on the pool's guarded ones (its workers
# share the CPU); with `pool-sem`, parked on a pool semaphore instead.
# With `pool-scale`, the pool's exact mode at 10,000, 100,000 and
# 1,000,000 coroutines, REPS rounds (5) of the three interleaved, and the
# median per N of each figure: the cost per coroutine of releasing and
# joining all of them should not grow with N (it did, 25 us at 1M: the
# handles' table, pool_handles.c). `--base DIR` runs the same program
# built on another build's runtime in each round, beside this one.
# With `ring`, the ring of yields (exact.c built as exact_ring): N
# coroutines, ROUNDS rounds of the shape each, a yield in each, on exact,
# guarded 64 KiB and shared stacks, and libaco's (exact_aco_ring) when
# LIBACO_DIR names its source tree, interleaved REPS times (N 10,000,
# ROUNDS 1,000, REPS 3).
# Its lines go to a report, with the load average. `build OUT` only
# builds the programs into OUT (exact, exact_ring, pool; exact_aco and
# exact_aco_ring, libaco's, when LIBACO_DIR names libaco's source tree):
# scripts/bench's workload stackbound (bench/cacs_bench/suite/stackbound.py)
# runs them.
#
#   bench/stackbound/run.sh [pool | pool-sem] [N] [REPS] [--build DIR]
#   bench/stackbound/run.sh ring [N] [ROUNDS] [REPS] [--build DIR]
#   bench/stackbound/run.sh pool-scale [REPS] [--build DIR] [--base DIR]
#   bench/stackbound/run.sh build OUT [--build DIR]
#   bench/stackbound/run.sh build-call OUT [--build DIR]
#   bench/stackbound/run.sh split-stack-missing CC [FLAGS...]
#
# `build` also builds call.c (the cost of a call from a coroutine) as
# call and, where the compiler and libgcc have split stacks (x86-64),
# call_split; `build-call` builds only those. `split-stack-missing` says
# why CC with FLAGS cannot build split-stack code (status 0), or nothing
# (status 1) when it can.
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
# build_prog BUILD SOURCE OUT [FLAGS...]: bench/stackbound/SOURCE.c built
# by BUILD's driver against its libcacs, with a proven bound for its entry.
build_prog() {
  bp_build=$1 bp_src=$2 bp_out=$3
  shift 3
  "$bp_build/bin/clang" -O2 -fcacs-stack-bounds "$@" \
    -I"$root/runtime/include" "$here/$bp_src.c" \
    "$bp_build/runtime/x86_64/libcacs_io.a" \
    "$bp_build/runtime/x86_64/libcacs.a" \
    $(pkg-config --libs liburing 2>/dev/null) -lpthread -o "$bp_out"
}
# build_rings BUILD OUT: the ring of yields, exact.c as OUT/exact_ring and,
# with LIBACO_DIR, exact_aco.c as OUT/exact_aco_ring.
build_rings() {
  build_prog "$1" exact "$2/exact_ring" -DSHAPE_RING
  rm -f "$2/exact_aco_ring"
  if [ -n "${LIBACO_DIR:-}" ]; then
    . "$root/bench/common/libaco.sh"
    libaco_build "$1/bin/clang" "$2/exact_aco_ring" "$here/exact_aco.c" \
      -DSHAPE_RING
  fi
}
# split_stack_missing CC [FLAGS...]: why CC (with FLAGS, e.g. a target)
# cannot build split-stack code, or nothing and status 1 when it can: a
# function with a frame must call __morestack in its prologue, and a
# program of it must link (libgcc's __morestack) with gold, which gives
# the calls into code built without split stacks their room.
split_stack_missing() {
  ss_cc=$1
  shift
  ss_dir=$(mktemp -d)
  printf '%s\n' \
    '__attribute__((noinline)) int g(volatile char *b) { return b[1]; }' \
    'int f(int i) { volatile char b[64]; b[i & 63] = 1; return g(b); }' \
    'int main(int c, char **v) { (void)v; return f(c) - 1; }' >"$ss_dir/s.c"
  ss_why=
  if ! "$ss_cc" "$@" -O1 -fsplit-stack -S "$ss_dir/s.c" -o "$ss_dir/s.s" \
    2>"$ss_dir/err"; then
    ss_why="-fsplit-stack does not compile: $(head -c 200 "$ss_dir/err")"
  elif ! grep -q __morestack "$ss_dir/s.s"; then
    ss_why="$ss_cc $* -fsplit-stack emits no split-stack prologue (no call of __morestack)"
  elif ! "$ss_cc" "$@" -O1 -fsplit-stack -fuse-ld=gold "$ss_dir/s.c" \
    -o "$ss_dir/s" 2>"$ss_dir/err"; then
    ss_why="split-stack code does not link: $(head -c 200 "$ss_dir/err")"
  fi
  rm -rf "$ss_dir"
  [ -n "$ss_why" ] && echo "$ss_why"
}
# build_call BUILD OUT: call.c, the cost of a call from a coroutine, as
# OUT/call (plain calls and calls on the system stack) and OUT/call_split
# (-fsplit-stack, linked with gold); where split stacks are missing, not
# call_split but OUT/call_split.skipped, which says why.
build_call() {
  build_prog "$1" call "$2/call"
  rm -f "$2/call_split" "$2/call_split.skipped"
  if bc_why=$(split_stack_missing "$1/bin/clang"); then
    echo "call_split not built on $(uname -m): $bc_why" |
      tee "$2/call_split.skipped" >&2
  else
    build_prog "$1" call "$2/call_split" -DCALL_SPLIT -fsplit-stack \
      -fuse-ld=gold
  fi
}
if [ $# -gt 1 ] && [ "$1" = split-stack-missing ]; then
  shift
  split_stack_missing "$@"
  exit $?
fi
if [ $# -gt 1 ] && { [ "$1" = build ] || [ "$1" = build-call ]; }; then
  what=$1
  out=$2
  shift 2
  [ $# -gt 1 ] && [ "$1" = --build ] && build=$2
  mkdir -p "$out"
  build_call "$build" "$out"
  [ "$what" = build-call ] && exit 0
  build_prog "$build" exact "$out/exact"
  build_prog "$build" pool "$out/pool"
  build_rings "$build" "$out"
  rm -f "$out/exact_aco"
  if [ -n "${LIBACO_DIR:-}" ]; then
    . "$root/bench/common/libaco.sh"
    libaco_build "$build/bin/clang" "$out/exact_aco" "$here/exact_aco.c"
  fi
  exit 0
fi
if [ $# -gt 0 ] && [ "$1" = ring ]; then
  shift
  n=10000 rounds=1000 reps=3
  [ $# -gt 0 ] && [ "$1" != --build ] && { n=$1; shift; }
  [ $# -gt 0 ] && [ "$1" != --build ] && { rounds=$1; shift; }
  [ $# -gt 0 ] && [ "$1" != --build ] && { reps=$1; shift; }
  [ $# -gt 1 ] && [ "$1" = --build ] && build=$2
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  build_rings "$build" "$work"
  uptime
  i=0
  while [ $i -lt "$reps" ]; do
    for mode in $modes; do
      env CACS_IO_ENGINE=epoll taskset -c 1 "$work/exact_ring" "$mode" "$n" \
        "$rounds"
    done
    [ -x "$work/exact_aco_ring" ] &&
      taskset -c 1 "$work/exact_aco_ring" "$n" "$rounds"
    i=$((i + 1))
  done
  uptime
  exit 0
fi
if [ $# -gt 0 ] && [ "$1" = pool-scale ]; then
  shift
  reps=5
  base=
  [ $# -gt 0 ] && [ "${1#--}" = "$1" ] && { reps=$1; shift; }
  while [ $# -gt 1 ]; do
    case $1 in
    --build) build=$2 ;;
    --base) base=$2 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift 2
  done
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  builds="this"
  [ -n "$base" ] && builds="base this"
  for b in $builds; do
    dir=$build
    [ "$b" = base ] && dir=$base
    build_prog "$dir" pool "$work/pool-$b"
  done
  uptime
  i=0
  while [ $i -lt "$reps" ]; do
    for n in 10000 100000 1000000; do
      for b in $builds; do
        env CACS_IO_ENGINE=epoll taskset -c 1 "$work/pool-$b" exact $n |
          sed "s/^/build=$b /" | tee -a "$work/lines"
      done
    done
    i=$((i + 1))
  done
  uptime
  # The median of each figure per build and N.
  for b in $builds; do
    for n in 10000 100000 1000000; do
      printf 'scale build=%s n=%s' "$b" "$n"
      for f in rss_per_coro spawn_park_ns release_join_ns spawn_join_ns; do
        grep "^build=$b .* n=$n " "$work/lines" |
          sed -n "s/.* $f=\([0-9.]*\).*/\1/p" | sort -n |
          awk -v f=$f '{v[NR] = $1} END {
            m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
            printf " %s=%.0f", f, m }'
      done
      echo " (medians of $reps)"
    done
  done
  exit 0
fi
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
build_prog "$build" "$prog" "$work/$prog" $defs
uptime
i=0
while [ $i -lt "$reps" ]; do
  for mode in $modes; do
    env CACS_IO_ENGINE=epoll taskset -c 1 "$work/$prog" "$mode" "$n"
  done
  i=$((i + 1))
done
uptime
