// ThinLTO imports a function compiled with -fcoroutine-migration (probe:
// errno before and after a pool yield) into a unit compiled without it
// that also uses errno, and inlines it there. The importing unit's
// declaration of __errno_location is glibc's `const`, and LLVM intersects
// it with the call site's, which would undo the compile step's rewrite of
// probe's calls (docs/tls-migration.md): caller would compute &errno once,
// before the yield. The plugin redoes the rewrite on the imported copies
// at the start of the ThinLTO backend, as the full-LTO link does. The
// CALLER-FLAGGED link (caller's unit built with the flag too) was right
// before that fix; the unflagged one was not.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -O2 -flto=thin -fcoroutine-migration -DPROBE -I%cacs_include -c %s -o %t/probe.o
// RUN: %clang -O2 -flto=thin -fcoroutine-migration -I%cacs_include -c %s -o %t/caller-flagged.o
// RUN: %clang -O2 -flto=thin %t/caller-flagged.o %t/probe.o %cacs_rt_x86_64 -lpthread -o %t/flagged
// RUN: llvm-objdump -d --no-show-raw-insn %t/flagged | FileCheck %s
// RUN: %clang -O2 -flto=thin -I%cacs_include -c %s -o %t/caller.o
// RUN: %clang -O2 -flto=thin %t/caller.o %t/probe.o %cacs_rt_x86_64 -lpthread -o %t/thin
// RUN: llvm-objdump -d --no-show-raw-insn %t/thin | FileCheck %s
//
// CHECK-LABEL: <caller>:
// CHECK: call{{.*}}<cacs_pool_yield>
// CHECK-NOT: ret
// CHECK: call{{.*}}<__errno_location

#include "cacs/pool.h"

#include <errno.h>

#ifdef PROBE
int probe(void) {
  errno = 0;
  cacs_pool_yield();
  return errno;
}
#else
int probe(void);
int uses_errno(void) { return errno; }
__attribute__((noinline)) int caller(void) { return probe(); }
int main(void) { return caller() + uses_errno(); }
#endif
