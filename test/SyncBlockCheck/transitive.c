// A switch two local functions down from a call inside a sync block: the
// error names the path, and a note shows each step.
//
// RUN: not %clang -O0 -g -I%cacs_include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang %aarch64_flags -O0 -g -I%cacs_include -c %s -o /dev/null 2>&1 | FileCheck %s
//
// CHECK: transitive.c:[[@LINE+18]]:{{[0-9]+}}: error: call to 'outer' inside the sync block at {{.*}}transitive.c:[[BLOCK0:[0-9]+]] can switch coroutines: outer -> inner -> cacs_sleep{{$}}
// CHECK: note: {{.*}}transitive.c:[[BLOCK0]]:{{[0-9]+}}: the sync block at {{.*}} starts here, in 'update'
// CHECK-NEXT: note: {{.*}}transitive.c:[[@LINE+9]]:{{[0-9]+}}: 'outer' calls 'inner'
// CHECK-NEXT: note: {{.*}}transitive.c:[[@LINE+5]]:{{[0-9]+}}: 'inner' calls 'cacs_sleep'
// CHECK-NEXT: note: 'cacs_sleep' switches to another coroutine
#include "cacs/coro.h"
#include "cacs/syncblock.h"

__attribute__((noinline)) static void inner(int n) { if (n) cacs_sleep(n); }
__attribute__((noinline)) static void outer(int n) {
  n += 1;
  inner(n);
}

int counter;
void update(int n) {
  CACS_SYNC {
    counter += n;
    outer(n);
  }
}
