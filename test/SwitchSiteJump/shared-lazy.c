// A shared object whose yields are entered by a jump, with libcacs linked
// into it (built with -DCACS_TLS_INITIAL_EXEC, as docs/runtime.md says for
// shared objects), bound lazily: the site's jump must not go through a PLT
// entry, whose lazy resolver pushes below rsp (`push $index`) and so
// overwrote the resume address the site had stored at -8(%rsp): the first
// yield's coroutine, resumed, jumped to that index (SIGSEGV). The site now
// jumps through the GOT, which the dynamic linker fills at load time.
// The program's output is stock clang -O0's: two coroutines of different
// functions take turns with the caller, each keeping values across its
// yields.
//
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %stock_clang -O0 -I%cacs_include -DLIB -DMAIN %s %cacs_rt_x86_64 -o %t.ref
// RUN: %t.ref > %t.want
// RUN: %clang -O2 -fPIC -fswitch-site-jumps -I%cacs_include -DLIB -c %s -o %t.lib.o
// RUN: %clang -shared -Wl,-z,lazy %t.lib.o $(%cacs_rt_objs %clang -O2 -fPIC -DCACS_TLS_INITIAL_EXEC -I%cacs_include) -lpthread -o %t.dir/libsl.so
// RUN: %clang -O2 -DMAIN %s -L%t.dir -lsl -Wl,-rpath,%t.dir -o %t.exe
// RUN: env -u LD_BIND_NOW %t.exe | diff %t.want -
//
// The shared object's sites read the entry from the GOT; no PLT entry of it:
// RUN: llvm-objdump -d --no-show-raw-insn %t.dir/libsl.so | FileCheck %s
// CHECK-NOT:     <cacs__yield_pn_jmp@plt>:
// CHECK-LABEL: <adder>:
// CHECK:         movq %r11, -0x8(%rsp)
// CHECK-NEXT:    jmpq *{{.*}}(%rip)
// CHECK-NOT:     <cacs__yield_pn_jmp@plt>:

#include "cacs/coro.h"

#include <stdio.h>

int run(void);

#ifdef LIB
static long out[64];
static int nout;

// Different functions on each side, values live across every yield.
__attribute__((noinline)) static void adder(void *arg) {
  long a = (long)arg, b = a * 3 + 1;
  for (int i = 0; i < 5; ++i) {
    out[nout++] = a + b * i;
    cacs_yield();
    b += a;
  }
}

__attribute__((noinline)) static void muller(void *arg) {
  long m = (long)arg;
  double d = 1.5;
  for (int i = 0; i < 5; ++i) {
    out[nout++] = m;
    cacs_yield();
    m = m * 7 % 1000003;
    d *= 2;
    out[nout++] = (long)d;
  }
}

int run(void) {
  cacs_coro *a = cacs_create(adder, (void *)11L, 0);
  cacs_coro *b = cacs_create(muller, (void *)5L, 0);
  for (int i = 0; i < 8; ++i)
    cacs_yield();
  cacs_join(a);
  cacs_join(b);
  long sum = 0;
  for (int i = 0; i < nout; ++i) {
    printf("%ld ", out[i]);
    sum += out[i];
  }
  printf("\n");
  return (int)(sum % 1000);
}
#endif

#ifdef MAIN
int main(void) {
  printf("run: %d\n", run());
  return 0;
}
#endif
