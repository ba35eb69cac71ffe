// A function a list gives preserve_none is a switch to the check: a call of
// it inside a sync block, directly or through a local function, is an
// error (named as the list renames it); without the list the external
// declaration is taken not to switch.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: echo 'fun:switchy' > %t/list.txt
// RUN: not %clang -O0 -g -fpreserve-none-list=%t/list.txt -I%cacs_include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang %aarch64_flags -O0 -g -fpreserve-none-list=%t/list.txt -I%cacs_include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang -O0 -g -I%cacs_include -c %s -o /dev/null 2>&1 | count 0
//
// CHECK: list.c:[[@LINE+10]]:{{[0-9]+}}: error: call to 'switchy' inside the sync block at {{.*}}list.c:[[@LINE+9]] can switch coroutines: switchy{{$}}
// CHECK: list.c:[[@LINE+10]]:{{[0-9]+}}: error: call to 'relay' inside the sync block at {{.*}}list.c:[[@LINE+8]] can switch coroutines: relay -> switchy{{$}}
// CHECK-NOT: error:
#include "cacs/syncblock.h"

void switchy(void);
static void relay(void) { switchy(); }

void user(void) {
  cacs_sync_token t = cacs_sync_begin(__FILE__, __LINE__);
  switchy();
  relay();
  cacs_sync_end(&t);
}
