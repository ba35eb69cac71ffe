// A waiting call that ThinLTO (or full LTO) inlines across units into a
// frame addressed through a base pointer (over-aligned locals and a dynamic
// allocation). Compiled by cacs, cacs/coro.h binds the call to the plain
// preserve_none entry, which does not hand rbx / x19 back, and counts on the
// safety pass to shield such calls; after cross-unit inlining only the
// link's backends can do it. Linked by stock clang (no pass plugin), the
// result must differ: x19 on AArch64, rbx on x86-64 with LLVM 19 (LLVM 22
// saves rbx around the call itself).
//
// RUN: %stock_clang -O0 -DREF -I%cacs_include %s %S/Inputs/park-thinlto-waiter.c %cacs_io_x86_64 %cacs_rt_x86_64 -o %tref && %tref > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: %clang -O2 -flto=thin -I%cacs_include -c %s -o %ta.o
// RUN: %clang -O2 -flto=thin -I%cacs_include -c %S/Inputs/park-thinlto-waiter.c -o %tb.o
// RUN: %clang -O2 -flto=thin %ta.o %tb.o %cacs_io_x86_64 %cacs_rt_x86_64 -o %tt && %tt | diff %t.ref -
// RUN: %stock_clang -O2 -flto=thin -fuse-ld=lld %ta.o %tb.o %cacs_io_x86_64 %cacs_rt_x86_64 -o %tts
// RUN: %tts > %tts.out || true
// RUN: %if llvm-19 %{ not diff %t.ref %tts.out %}
// RUN: %clang -O2 -flto -fauto-preserve-none -I%cacs_include -c %s -o %tfa.o
// RUN: %clang -O2 -flto -fauto-preserve-none -I%cacs_include -c %S/Inputs/park-thinlto-waiter.c -o %tfb.o
// RUN: %clang -O2 -flto %tfa.o %tfb.o %cacs_io_x86_64 %cacs_rt_x86_64 -o %tf && %tf | diff %t.ref -
//
// AArch64, under qemu:
// RUN: %if qemu-aarch64 %{ %stock_clang %aarch64_flags -O0 -DREF -I%cacs_include %s %S/Inputs/park-thinlto-waiter.c %cacs_io_aarch64 %cacs_rt_aarch64 -o %tref64 %}
// RUN: %if qemu-aarch64 %{ %run_aarch64 %tref64 | diff %t.ref - %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -flto=thin -I%cacs_include -c %s -o %ta64.o %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -flto=thin -I%cacs_include -c %S/Inputs/park-thinlto-waiter.c -o %tb64.o %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -flto=thin -fuse-ld=lld %ta64.o %tb64.o %cacs_io_aarch64 %cacs_rt_aarch64 -o %tt64 %}
// RUN: %if qemu-aarch64 %{ %run_aarch64 %tt64 | diff %t.ref - %}
// RUN: %if qemu-aarch64 %{ %stock_clang %aarch64_flags -O2 -flto=thin -fuse-ld=lld %ta64.o %tb64.o %cacs_io_aarch64 %cacs_rt_aarch64 -o %tts64 %}
// RUN: %if qemu-aarch64 %{ %run_aarch64 %tts64 > %tts64.out || true %}
// RUN: %if qemu-aarch64 %{ not diff %t.ref %tts64.out %}
//
// CHECK: {{[0-9a-f]+ [0-9a-f]+ [0-9a-f]+}}

#include "cacs/coro.h"

#include <alloca.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int waiter_fd;
void waiter(int k); // Inputs/park-thinlto-waiter.c

static volatile int dyn = 24, stop;
static uint64_t res[3];

// Over-aligned locals and a dynamic allocation: addressed through rbx / x19.
__attribute__((noinline)) static uint64_t frame(int id) {
  _Alignas(64) volatile uint64_t big[8];
  for (int j = 0; j < 8; ++j)
    big[j] = (uint64_t)j * id;
  char *v = alloca(dyn);
  memset(v, id, dyn);
  uint64_t acc = 0;
  for (int i = 0; i < 50; ++i) {
#ifndef REF
    waiter(i + id);
#endif
    acc = acc * 31 + big[i & 7] + (uint64_t)v[i % dyn];
    big[(i + 3) & 7] += acc;
    v[i % dyn] ^= (char)i;
  }
  return acc;
}

static void worker(void *a) {
  res[(intptr_t)a] = frame((int)(intptr_t)a + 1);
}

// Garbage in the base pointer register before each switch back.
static void trasher(void *a) {
  (void)a;
  while (!stop) {
#if defined(__x86_64__)
    __asm__ volatile("movabsq $0x5a5a5a5aa5a5a5a5, %%rbx" ::: "rbx");
#else
    __asm__ volatile("movz x19, #0x5a5a" ::: "x19");
#endif
    cacs_yield();
  }
}

int main(void) {
  int p[2];
  if (pipe(p) != 0)
    return 1;
  waiter_fd = p[0];
  cacs_coro *t = cacs_create(trasher, 0, 0);
  cacs_coro *w[3];
  for (int i = 0; i < 3; ++i)
    w[i] = cacs_create(worker, (void *)(intptr_t)i, 0);
  for (int i = 0; i < 3; ++i)
    cacs_join(w[i]);
  stop = 1;
  cacs_join(t);
  printf("%llx %llx %llx\n", (unsigned long long)res[0],
         (unsigned long long)res[1], (unsigned long long)res[2]);
  return 0;
}
