// A C generator compiled as if by cacs (__CACS__) but without its pass
// plugin: the yield's marker stops the build instead of leaving a frame the
// consumer would overwrite. With the plugin the same file compiles, and
// without __CACS__ the header keeps its cancel call.
// RUN: not %stock_clang -D__CACS__=1 -O2 -I%cacs_include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %stock_clang -D__CACS__=1 -O2 -fpass-plugin=%cacs_passes -I%cacs_include -c %s -o /dev/null
// RUN: %stock_clang -O2 -I%cacs_include -S %s -o - | FileCheck %s --check-prefix=STOCK
// CHECK: error: cacs: this in-stack yield needs the cacs pass plugin
// STOCK: cacs__isg_cancelled_c

#include "cacs/instack.h"

uint64_t seq(cacs_isg_ctx *ctx, void *arg) {
  for (uint64_t c = (uintptr_t)arg; c; --c)
    cacs_isg_yield(ctx, c);
  return 0;
}
