// Full LTO: a block whose call reaches a switch only in another unit
// compiles, each unit alone seeing no switch, and the link is an error
// naming the path; not when the unit with the block was compiled with
// -fno-sync-block-check. A program whose blocks switch nowhere links.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -O2 -g -flto -I%cacs_include -c %s -o %t/main.o
// RUN: %clang -O2 -g -flto -fno-sync-block-check -I%cacs_include -c %s -o %t/main-off.o
// RUN: %clang -O2 -g -flto -DQUIET -I%cacs_include -c %s -o %t/main-quiet.o
// RUN: %clang -O2 -g -flto -I%cacs_include -c %S/Inputs/lto-helper.c -o %t/helper.o
// RUN: not %clang -O2 -flto %t/main.o %t/helper.o %cacs_rt_x86_64 -o %t/on 2>&1 | FileCheck %s
// RUN: %clang -O2 -flto %t/main-off.o %t/helper.o %cacs_rt_x86_64 -o %t/off
// RUN: %clang -O2 -flto %t/main-quiet.o %t/helper.o %cacs_rt_x86_64 -o %t/quiet 2>&1 | count 0
// RUN: %t/quiet 2>&1 | FileCheck %s --check-prefix=OUT
//
// CHECK: error: {{.*}}lto-helper.c:4:{{[0-9]+}}: in function main {{.*}}call to 'cacs_yield' inside the sync block at {{.*}}lto.c:[[@LINE+13]] can switch coroutines
// CHECK: lto.c:[[@LINE+12]]:3: the sync block at {{.*}}lto.c:[[@LINE+12]] starts here, in 'main'
// OUT-NOT: cacs:
// OUT: counted 5
#include "cacs/coro.h"
#include "cacs/syncblock.h"
#include <stdio.h>

void helper_waits(void);
int helper_counts(int);

int main(void) {
  int n = 0;
  CACS_SYNC {
    n = helper_counts(4);
#ifndef QUIET
    helper_waits();
#endif
  }
  printf("counted %d\n", n);
  return 0;
}
