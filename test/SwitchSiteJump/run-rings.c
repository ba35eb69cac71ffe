// Programs whose yields are entered by a jump compute what
// stock clang -O0 computes: a ping-pong of two different functions, a ring
// of ten different functions, values of every register class live across
// each switch (integers in more registers than survive a call, a double, a
// long double on the x87 stack, a local whose address escapes), one ring
// member whose yield stays a call of cacs__yield_pn (optnone), so that each
// entry resumes what the other suspended, and a coroutine with its own FP
// environment, which sends every switch through the slow path for a while.
// With -fswitch-site-jumps at -O2, with APN, with full LTO (the link
// lowers), under -fcf-protection=branch (the resume point has no endbr64:
// every resumer reaches it by a notrack jump or a ret) and =full (the calls
// stay: no shadow stacks), and
// linked with objects built without the flag.
//
// RUN: %stock_clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t.ref
// RUN: %t.ref > %t.want
// RUN: %clang -O2 -fswitch-site-jumps -I%cacs_include %s %cacs_rt_x86_64 -o %t.o2
// RUN: %t.o2 | diff %t.want -
// RUN: %clang -O3 -fauto-preserve-none -fswitch-site-jumps -I%cacs_include %s %cacs_rt_x86_64 -o %t.apn
// RUN: %t.apn | diff %t.want -
// RUN: %clang -O2 -flto -fswitch-site-jumps -I%cacs_include %s %cacs_rt_x86_64 -o %t.lto
// RUN: %t.lto | diff %t.want -
// RUN: %clang -O2 -fswitch-site-jumps -fcf-protection=branch -I%cacs_include %s %cacs_rt_x86_64 -o %t.ibt
// RUN: %t.ibt | diff %t.want -
// RUN: %clang -O2 -fswitch-site-jumps -fcf-protection=full -I%cacs_include %s %cacs_rt_x86_64 -o %t.full 2>/dev/null
// RUN: %t.full | diff %t.want -
// RUN: %clang -O2 -fswitch-site-jumps -DPART=1 -I%cacs_include -c %s -o %t.p1.o
// RUN: %clang -O2 -fno-switch-site-jumps -DPART=2 -I%cacs_include -c %s -o %t.p2.o
// RUN: %clang %t.p1.o %t.p2.o %cacs_rt_x86_64 -o %t.mix
// RUN: %t.mix | diff %t.want -
//
// The yields are jump-entered (each function's own site), the optnone one a
// call:
// RUN: llvm-objdump -d --no-show-raw-insn %t.o2 | FileCheck %s
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=ping %t.lto | FileCheck %s --check-prefix=LTO
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=pong %t.mix | FileCheck %s --check-prefix=MIX
// CHECK-LABEL: <ping>:
// CHECK:         movq %r11, -0x8(%rsp)
// CHECK-NEXT:    jmp {{.*}} <cacs__yield_pn_jmp>
// CHECK-LABEL: <pong>:
// CHECK:         movq %r11, -0x8(%rsp)
// CHECK-NEXT:    jmp {{.*}} <cacs__yield_pn_jmp>
// CHECK-LABEL: <ring_plain>:
// CHECK-NOT:     cacs__yield_pn_jmp
// CHECK:         callq {{.*}} <cacs__yield_pn>
// CHECK-LABEL: <cacs__yield_pn_jmp>:
// LTO-LABEL: <ping>:
// LTO:         movq %r11, -0x8(%rsp)
// LTO-NEXT:    jmp {{.*}} <cacs__yield_pn_jmp>
// MIX-LABEL: <pong>:
// MIX-NOT:     cacs__yield_pn_jmp
// MIX:         callq {{.*}} <cacs__yield_pn>

#include "cacs/coro.h"

#include <stdint.h>
#include <stdio.h>

#ifndef PART
#define PART 0 // everything; 1: ping and the ring; 2: pong, main
#endif
#define IN1 (PART != 2)
#define IN2 (PART != 1)

#define ROUNDS 2000
#define RING 10

extern uint64_t pp_log[2], ring_log[RING];
extern double fp_log;
extern long double x87_log;

void touch(volatile uint64_t *p);
uint64_t ring_step(unsigned k, uint64_t i, uint64_t a, uint64_t b);

#if IN1
uint64_t pp_log[2], ring_log[RING];
double fp_log;
long double x87_log;

void touch(volatile uint64_t *p) { *p += 1; }

uint64_t ring_step(unsigned k, uint64_t i, uint64_t a, uint64_t b) {
  return (a * (k + 3) + b) ^ (i << (k % 7));
}

// Seven integers live across the switch: more than any caller keeps in
// registers across a preserve_none call.
__attribute__((noinline)) void ping(void *arg) {
  uint64_t a = (uintptr_t)arg, b = a * 3, c = a ^ 5, d = a + 11, e = a * 7,
           f = a | 9, g = a + 1;
  double x = 0.5;
  long double y = 1.25L;
  volatile uint64_t esc = 0;
  for (uint64_t i = 0; i < ROUNDS; ++i) {
    a += i;
    b ^= a;
    c += b * 3;
    d = d * 5 + c;
    e ^= d >> 3;
    f += e;
    g = g * 3 + f;
    x = x * 1.0001 + (double)(i & 7);
    y = y * 1.0002L + (long double)(i & 3);
    touch(&esc);
    cacs_yield();
    pp_log[0] = pp_log[0] * 31 + (a ^ b ^ c ^ d ^ e ^ f ^ g) + esc;
  }
  fp_log += x;
  x87_log += y;
}
#endif

#if IN2

__attribute__((noinline)) void pong(void *arg) {
  uint64_t a = (uintptr_t)arg, b = a + 2, c = a * 9, d = a ^ 0x55,
           e = a + 100, f = a * 13, g = a - 1;
  double x = 2.0;
  volatile uint64_t esc = 0;
  for (uint64_t i = 0; i < ROUNDS; ++i) {
    a = a * 3 + i;
    b += a;
    c ^= b;
    d += c * 7;
    e = e * 11 + d;
    f ^= e;
    g += f >> 2;
    x = x * 0.9999 + (double)(i % 5);
    touch(&esc);
    cacs_yield();
    pp_log[1] = pp_log[1] * 37 + (a + b + c + d + e + f + g) + esc;
  }
  fp_log += x;
}
#endif

#if IN1
// Ten different functions, each with its own site.
#define RING_FN(k)                                                             \
  __attribute__((noinline)) void ring##k(void *arg) {                          \
    uint64_t a = (uintptr_t)arg + k, b = a * (k + 2), c = a ^ (k * 17);        \
    double x = 1.0 / (k + 1);                                                  \
    for (uint64_t i = 0; i < ROUNDS; ++i) {                                    \
      a = ring_step(k, i, a, b);                                               \
      b += a >> (k % 5);                                                       \
      c = c * (2 * k + 1) + b;                                                 \
      x = x * 1.001 + (double)k;                                               \
      cacs_yield();                                                            \
      ring_log[k] = ring_log[k] * 131 + (a ^ b ^ c) + (uint64_t)x;             \
    }                                                                          \
  }
RING_FN(0)
RING_FN(1)
RING_FN(2)
RING_FN(3)
RING_FN(4)
RING_FN(5)
RING_FN(6)
RING_FN(7)
RING_FN(8)
#endif

#if IN2
// Its yield stays a call of cacs__yield_pn, and resumes (and is resumed
// by) the sites around it.
__attribute__((noinline, optnone)) void ring_plain(void *arg) {
  uint64_t a = (uintptr_t)arg + 9, b = a * 11;
  for (uint64_t i = 0; i < ROUNDS; ++i) {
    a = ring_step(9, i, a, b);
    b += a >> 4;
    cacs_yield();
    ring_log[9] = ring_log[9] * 131 + (a ^ b);
  }
}
#endif

#if IN1

// Alive for part of the run: while it lives every switch takes the slow
// path, which the jump entry enters after its own adjustment of rsp.
__attribute__((noinline)) void fpenv(void *arg) {
  uint64_t a = (uintptr_t)arg;
  for (uint64_t i = 0; i < ROUNDS / 4; ++i) {
    a = a * 3 + i;
    cacs_yield();
  }
  pp_log[0] ^= a;
}
#endif

#if IN2
void ping(void *), pong(void *), fpenv(void *), ring_plain(void *);
void ring0(void *), ring1(void *), ring2(void *), ring3(void *),
    ring4(void *), ring5(void *), ring6(void *), ring7(void *), ring8(void *);

int main(void) {
  cacs_coro *c[2];
  c[0] = cacs_create(ping, (void *)1, 0);
  c[1] = cacs_create(pong, (void *)2, 0);
  for (int i = 0; i < 2; ++i)
    cacs_join(c[i]);
  printf("pingpong %llu %llu %.6f %.6Lf\n", (unsigned long long)pp_log[0],
         (unsigned long long)pp_log[1], fp_log, x87_log);

  void (*fns[RING])(void *) = {ring0, ring1, ring2, ring3, ring4,
                               ring5, ring6, ring7, ring8, ring_plain};
  cacs_coro *r[RING + 1];
  for (int i = 0; i < RING; ++i)
    r[i] = cacs_create(fns[i], (void *)(uintptr_t)(i * 1000), 0);
  cacs_coro_attr fa = {.flags = CACS_CORO_SAVE_FPENV};
  r[RING] = cacs_create_ex(fpenv, (void *)7, &fa);
  for (int i = 0; i <= RING; ++i)
    cacs_join(r[i]);
  for (int i = 0; i < RING; ++i)
    printf("ring%d %llu\n", i, (unsigned long long)ring_log[i]);
  printf("pp0 %llu\n", (unsigned long long)pp_log[0]);
  return 0;
}
#endif
