// Full LTO: a caller whose only way to a switch is a function of another
// unit keeps `ret` when each unit is compiled on its own (its unit sees no
// switch), and returns through the thunk after the link's walk sees both;
// not when its unit was compiled with -fno-switch-returns. The programs run
// the same.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stock_clang -O0 -I%cacs_include %s %S/Inputs/lto-wait.c %cacs_rt_x86_64 -o %t/ref
// RUN: %t/ref > %t/want
// RUN: FileCheck %s < %t/want
// RUN: %clang -O2 -I%cacs_include -S %s -o - | FileCheck %s --check-prefix=TU
// RUN: %clang -O2 -flto -I%cacs_include -c %s -o %t/main-on.o
// RUN: %clang -O2 -flto -fno-switch-returns -I%cacs_include -c %s -o %t/main-off.o
// RUN: %clang -O2 -flto -I%cacs_include -c %S/Inputs/lto-wait.c -o %t/wait.o
// RUN: %clang -O2 -flto %t/main-on.o %t/wait.o %cacs_rt_x86_64 -o %t/on -Wl,--save-temps
// RUN: %t/on | diff %t/want -
// RUN: llvm-dis %t/on.0.5.precodegen.bc -o - | FileCheck %s --check-prefix=ON
// RUN: %clang -O2 -flto %t/main-off.o %t/wait.o %cacs_rt_x86_64 -o %t/off -Wl,--save-temps
// RUN: %t/off | diff %t/want -
// RUN: llvm-dis %t/off.0.5.precodegen.bc -o - | FileCheck %s --check-prefix=OFF
//
// CHECK: lto {{[0-9]+}}
//
// TU-LABEL: relay:
// TU-NOT:     __x86_return_thunk
// TU:         retq
// TU-LABEL: .Lfunc_end
//
// ON: define internal {{.*}}@relay({{.*}}) {{.*}}#[[ON:[0-9]+]]
// ON: attributes #[[ON]] = { {{.*}}fn_ret_thunk_extern
// OFF: define internal {{.*}}@relay({{.*}}) {{.*}}#[[OFF:[0-9]+]]
// OFF-NOT: attributes #[[OFF]] = { {{.*}}fn_ret_thunk_extern
// OFF: attributes #[[OFF]] =

#include "cacs/coro.h"

#include <stdio.h>

unsigned long lto_wait(unsigned long n);

static unsigned long result;

static __attribute__((noinline)) unsigned long relay(unsigned long n) {
  return lto_wait(n + 1) ^ n;
}

static void other(void *arg) {
  (void)arg;
  for (unsigned long i = 0; i < 50; ++i)
    result += relay(i * 7);
}

int main(void) {
  cacs_coro *c = cacs_create(other, NULL, 0);
  unsigned long mine = 0;
  for (unsigned long i = 0; i < 60; ++i)
    mine += relay(i);
  cacs_join(c);
  printf("lto %lu\n", mine + result);
  return 0;
}
