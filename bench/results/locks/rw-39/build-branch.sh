#!/bin/bash
# The branch's libcacs for the bench: main's archive (frozen copy) with the
# objects whose code the branch changes rebuilt from the worktree's HEAD
# with main's exact flags: pool_sync.c (the rwlock, wait group) and every
# pool object that inlines pool_spin.h's spin_lock.
set -eu
Q=/work/q39/locks39; W=/work/wt/locks39; M=/work/main/build
cd $Q; rm -rf src-branch obj-branch; mkdir -p src-branch obj-branch bin/bench
git -C $W archive HEAD runtime | tar -x -C src-branch
git -C $W rev-parse HEAD > libcacs-branch.commit
FL="-I$Q/src-branch/runtime/include -isystem /usr/lib/llvm-19/include -O2 -g -DNDEBUG -fPIC -D_GNU_SOURCE -D__STDC_CONSTANT_MACROS -D__STDC_FORMAT_MACROS -D__STDC_LIMIT_MACROS -O2 -gdwarf-4 -fno-strict-aliasing -fexceptions -fasynchronous-unwind-tables -Wall -std=gnu11"
cp libcacs-main.a libcacs-branch.a
for f in pool_sync pool_chan pool_worker pool_io pool_handles; do
  nice /usr/lib/llvm-19/bin/clang $FL -o obj-branch/$f.c.o -c src-branch/runtime/lib/pool/$f.c
done
/usr/lib/llvm-19/bin/llvm-ar r libcacs-branch.a obj-branch/*.o
for v in main branch; do
  nice $M/bin/clang -O3 -fcoroutine-migration -I$W/bench/common -I$W/runtime/include \
    $W/bench/locks/locks_cacs.c $Q/libcacs-$v.a -lpthread -o $Q/bin/locks_cacs-$v
done
# peers: built from the worktree (see README of rw-39)
