#!/bin/bash
# The binaries of rw-40's runs (session 40), as rw-39/build-branch.sh did:
# main's libcacs.a (the lead's build of main f15f53a, copied), and that
# archive with the objects the branch changes (pool_sync.c, and pool_chan.c,
# which includes pool_waiter.h) rebuilt with main's exact flags from
#   v1: 6293c3b (phase-fair rwlock, the in-place rule), and
#   v2: $V2 (default: the worktree's HEAD; v1 plus writers keeping the turn);
# locks_cacs.c built against each by main's bin/clang with that revision's
# headers; the Go and pthread peers from this tree.
set -eu
Q=${Q:-/tmp/l40}; W=$(cd "$(dirname "$0")/../../../.." && pwd); M=/work/main/build
V2=${V2:-HEAD}
mkdir -p $Q/bin/bench $Q/go
cp $M/runtime/x86_64/libcacs.a $Q/libcacs-main.a
FL="-isystem /usr/lib/llvm-19/include -O2 -g -DNDEBUG -fPIC -D_GNU_SOURCE -D__STDC_CONSTANT_MACROS -D__STDC_FORMAT_MACROS -D__STDC_LIMIT_MACROS -O2 -gdwarf-4 -fno-strict-aliasing -fexceptions -fasynchronous-unwind-tables -Wall -std=gnu11"
for v in main:f15f53a v1:6293c3b v2:$V2; do
  n=${v%%:*}; rev=${v#*:}
  rm -rf $Q/src-$n && mkdir -p $Q/src-$n $Q/obj-$n
  git -C $W archive $rev runtime | tar -x -C $Q/src-$n
  if [ $n != main ]; then
    cp $Q/libcacs-main.a $Q/libcacs-$n.a
    for f in pool_sync pool_chan; do
      nice -n 19 /usr/lib/llvm-19/bin/clang -I$Q/src-$n/runtime/include $FL \
        -o $Q/obj-$n/$f.c.o -c $Q/src-$n/runtime/lib/pool/$f.c
    done
    /usr/lib/llvm-19/bin/llvm-ar r $Q/libcacs-$n.a $Q/obj-$n/*.o
  fi
  nice -n 19 $M/bin/clang -O3 -fcoroutine-migration -I$W/bench/common \
    -I$Q/src-$n/runtime/include $W/bench/locks/locks_cacs.c $Q/libcacs-$n.a \
    -lpthread -o $Q/bin/bench/locks_cacs-$n
done
nice -n 19 /usr/lib/llvm-19/bin/clang -O2 -I$W/bench/common \
  $W/bench/locks/locks_pthread.c -lpthread -o $Q/bin/bench/locks_pthread
cd $W/bench/locks/go
env GOFLAGS=-mod=mod GOPROXY=off GOSUMDB=off GOTOOLCHAIN=local \
  GOCACHE=$Q/go/cache GOPATH=$Q/go/path nice -n 19 go build -o $Q/bin/bench/locks_go .
