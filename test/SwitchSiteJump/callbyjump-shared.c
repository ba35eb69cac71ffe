// Calls by jump in a -fPIC shared object, bound lazily: so_run's calls of
// so_wait and so_hook, preserve_none functions that switch and are
// preemptible (default visibility), are `pushq %r11; jmp <callee@plt>`: the
// PLT entry's lazy resolver pushes below the pushed return address, as
// after a call. so_hook is interposed by the executable's definition, so the
// output is stock clang -O0's (where only the executable's exists) only if
// the jump reaches it through the PLT.
//
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %stock_clang -O0 -I%cacs_include -DLIB -DMAIN %s %cacs_rt_x86_64 -o %t.ref
// RUN: %t.ref > %t.want
// RUN: %clang -O2 -fPIC -fswitch-site-jumps -Rpass=switch-site-jump -I%cacs_include -DLIB -c %s -o %t.lib.o 2>%t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %clang -shared -Wl,-z,lazy %t.lib.o -o %t.dir/libcbj.so
// RUN: %clang -O2 -fswitch-site-jumps -DMAIN %s -Wl,--export-dynamic -Wl,--whole-archive %cacs_rt_x86_64 -Wl,--no-whole-archive -lpthread -L%t.dir -lcbj -Wl,-rpath,%t.dir -o %t.exe
// RUN: env -u LD_BIND_NOW %t.exe | diff %t.want -
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=so_run %t.dir/libcbj.so | FileCheck %s
//
// REMARK-DAG: so_wait is entered by a jump at this call
// REMARK-DAG: so_hook is entered by a jump at this call
// CHECK-LABEL: <so_run>:
// CHECK:         pushq %r11
// CHECK-NEXT:    jmp {{.*}} <{{so_wait|so_hook}}@plt>
// CHECK:         pushq %r11
// CHECK-NEXT:    jmp {{.*}} <{{so_wait|so_hook}}@plt>

#include "cacs/coro.h"

#include <stdio.h>

#define PN __attribute__((preserve_none, noinline))

PN long so_wait(long x);
PN long so_hook(long x);
long so_run(long n);

#ifdef LIB
PN long so_wait(long x) {
  cacs_yield();
  return x * 3 + 1;
}

#ifndef MAIN
// Interposed by the executable's.
PN long so_hook(long x) {
  cacs_yield();
  return -x;
}
#endif

long so_run(long n) {
  long acc = n;
  for (long i = 0; i < n; ++i)
    acc = so_hook(so_wait(acc ^ i) & 0xfffff) + i;
  return acc;
}
#endif

#ifdef MAIN
PN long so_hook(long x) {
  cacs_yield();
  return x / 2 + 5;
}

static long results[3];

static void worker(void *arg) {
  long who = (long)arg;
  results[who] = so_run(20 + who);
}

int main(void) {
  cacs_coro *c[2];
  for (long i = 1; i <= 2; ++i)
    c[i - 1] = cacs_create(worker, (void *)i, 0);
  results[0] = so_run(30);
  for (int i = 0; i < 2; ++i)
    cacs_join(c[i]);
  for (int i = 0; i < 3; ++i)
    printf("run %d: %ld\n", i, results[i]);
  return 0;
}
#endif
