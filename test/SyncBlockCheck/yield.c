// A libcacs yield inside a sync block is a compile error at the call, naming
// the block and the path, on both targets and at -O0 and -O2;
// -fno-sync-block-check leaves it to the run-time check.
//
// RUN: not %clang -O0 -g -I%cacs_include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -I%cacs_include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang %aarch64_flags -O0 -g -I%cacs_include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang %aarch64_flags -O2 -g -I%cacs_include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang -O0 -fno-sync-block-check -I%cacs_include -c %s -o /dev/null 2>&1 | count 0
//
// CHECK: yield.c:[[@LINE+8]]:{{[0-9]+}}: error: call to 'cacs_yield' inside the sync block at {{.*}}yield.c:[[@LINE+7]] can switch coroutines: cacs_yield{{$}}
// CHECK: note: {{.*}}yield.c:[[@LINE+6]]:{{[0-9]+}}: the sync block at {{.*}}yield.c:[[@LINE+6]] starts here, in 'critical'
// CHECK-NEXT: note: 'cacs_yield' switches to another coroutine: a switch or wait of libcacs
#include "cacs/coro.h"
#include "cacs/syncblock.h"

void critical(void) {
  CACS_SYNC {
    cacs_yield();
  }
}
