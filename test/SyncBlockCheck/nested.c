// Nested blocks: a switch in the inner block names it; one between the
// inner block's end and the outer's names the outer; one after both is
// fine. A break out of the inner block stays in the outer.
//
// RUN: not %clang -O0 -g -I%cacs_include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -I%cacs_include -c %s -o /dev/null 2>&1 | FileCheck %s
//
// CHECK: nested.c:[[@LINE+12]]:{{[0-9]+}}: error: call to 'cacs_yield' inside the sync block at {{.*}}nested.c:[[@LINE+10]] can switch
// CHECK: nested.c:[[@LINE+14]]:{{[0-9]+}}: error: call to 'cacs_sleep' inside the sync block at {{.*}}nested.c:[[@LINE+9]] can switch
// CHECK: nested.c:[[@LINE+15]]:{{[0-9]+}}: error: call to 'cacs_park' inside the sync block at {{.*}}nested.c:[[@LINE+7]] can switch
// CHECK-NOT: error:
#include "cacs/coro.h"
#include "cacs/syncblock.h"

int flag;
void f(int n) {
  CACS_SYNC {
    CACS_SYNC {
      if (n)
        cacs_yield();
      if (flag)
        break;
      cacs_sleep(n);
    }
    cacs_park();
  }
  cacs_yield();
}
