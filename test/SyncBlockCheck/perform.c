// A perform (cacs/effect.h) inside a sync block is a compile error.
//
// RUN: not %clang -O0 -g -I%cacs_include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang %aarch64_flags -O2 -g -I%cacs_include -c %s -o /dev/null 2>&1 | FileCheck %s
//
// CHECK: perform.c:[[@LINE+9]]:{{[0-9]+}}: error: call to 'cacs_effect_perform' inside the sync block at {{.*}}perform.c:[[@LINE+8]] can switch coroutines
#include "cacs/effect.h"
#include "cacs/syncblock.h"

CACS_EFFECT(ask, int, long);

long asker(int q) {
  long r = 0;
  CACS_SYNC {
    r = CACS_PERFORM(ask, q);
  }
  return r;
}
