// Handlers that wait inside called functions (read() under parse() under
// handle(), in three coroutines and main) return through the thunk and
// compute what stock clang -O0 computes, at every -O, with and without
// -fswitch-returns, with LTO, under ASan, and on AArch64 (under qemu), where
// the functions keep `ret`. The callers of the yield, their callers, and
// main (which waits in cacs_join) return through the thunk; the function
// that never reaches a switch keeps `ret`.
//
// RUN: %stock_clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t.ref
// RUN: %t.ref > %t.want
// RUN: %clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t.o0 && %t.o0 | diff %t.want -
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %t.o2 && %t.o2 | diff %t.want -
// RUN: %clang -O3 -fauto-preserve-none -I%cacs_include %s %cacs_rt_x86_64 -o %t.o3 && %t.o3 | diff %t.want -
// RUN: %clang -O2 -fno-switch-returns -I%cacs_include %s %cacs_rt_x86_64 -o %t.off && %t.off | diff %t.want -
// RUN: %clang -O2 -flto -fauto-preserve-none -I%cacs_include %s %cacs_rt_x86_64 -o %t.lto && %t.lto | diff %t.want -
// RUN: %clang -O1 -g -fsanitize=address -I%cacs_include %s $(%cacs_rt_objs %clang -O1 -g -fsanitize=address -I%cacs_include) -lpthread -lm -o %t.asan
// RUN: env ASAN_OPTIONS=detect_stack_use_after_return=1 %t.asan | diff %t.want -
//
// Which functions return through the thunk:
// RUN: llvm-objdump -d --no-show-raw-insn %t.o2 | FileCheck %s
// RUN: %clang -O2 -fno-switch-returns -I%cacs_include -S %s -o - | FileCheck %s --check-prefix=OFF
// CHECK-LABEL: <main>:
// CHECK:         jmp {{.*}} <__x86_return_thunk>
// CHECK-LABEL: <handle>:
// CHECK-NOT:     ret
// CHECK:         jmp {{.*}} <__x86_return_thunk>
// CHECK-NOT:     ret
// CHECK-LABEL: <parse>:
// CHECK-NOT:     ret
// CHECK:         jmp {{.*}} <__x86_return_thunk>
// CHECK-NOT:     ret
// CHECK-LABEL: <read_req>:
// CHECK-NOT:     ret
// CHECK:         jmp {{.*}} <__x86_return_thunk>
// CHECK-NOT:     ret
// CHECK-LABEL: <checksum>:
// CHECK-NOT:     <__x86_return_thunk>
// CHECK:         ret
// CHECK-LABEL: <__x86_return_thunk>:
// CHECK-NEXT:    popq %r11
// CHECK-NEXT:    jmpq *%r11
// OFF-NOT: __x86_return_thunk
//
// AArch64: the same results; nothing is marked there.
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -I%cacs_include %s %cacs_rt_aarch64 -o %t.a64 %}
// RUN: %if qemu-aarch64 %{ %run_aarch64 %t.a64 | diff %t.want - %}
// RUN: %clang %aarch64_flags -O2 -I%cacs_include -S %s -o - | FileCheck %s --check-prefix=OFF

#include "cacs/coro.h"

#include <stdio.h>

#define NOINLINE __attribute__((noinline))

static volatile unsigned long box[4];
static unsigned long ticks, log_sum;

// Waits for its turn, as a read() would, and returns what came in.
static NOINLINE unsigned long read_req(int who, unsigned long n) {
  box[who] = n * 7 + (unsigned long)who;
  cacs_yield();
  return box[who] ^ (0x5a + ++ticks);
}

// Never switches.
static NOINLINE unsigned long checksum(unsigned long v) {
  return (v * 2654435761u) >> 7;
}

static NOINLINE unsigned long parse(int who, unsigned long n) {
  unsigned long a = read_req(who, n);
  cacs_yield();
  unsigned long b = read_req(who, a & 0xff);
  return checksum(a + b) ^ a;
}

static NOINLINE unsigned long handle(int who, unsigned long rounds) {
  unsigned long acc = 0;
  for (unsigned long i = 0; i < rounds; ++i)
    acc += parse(who, i) + (i & 3 ? read_req(who, i) : 0);
  return acc;
}

static unsigned long results[4];

static void worker(void *arg) {
  int who = (int)(long)arg;
  results[who] = handle(who, 1000 + (unsigned long)who * 17);
}

int main(void) {
  cacs_coro *c[3];
  for (long i = 1; i <= 3; ++i)
    c[i - 1] = cacs_create(worker, (void *)i, 0);
  results[0] = handle(0, 900);
  for (int i = 0; i < 3; ++i)
    cacs_join(c[i]);
  for (int i = 0; i < 4; ++i) {
    log_sum += results[i];
    printf("handler %d: %lu\n", i, results[i]);
  }
  printf("total %lu\n", log_sum);
  return 0;
}
