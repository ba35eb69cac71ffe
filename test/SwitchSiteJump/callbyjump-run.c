// Calls of switch-aware functions entered by a jump (calls by jump): the
// arguments (six at most: longs, ints and pointers) and results (void, long,
// int, narrow integers, bool, a pointer, a struct in rax:rdx) pass through
// them, in three coroutines and main that switch inside the callees,
// recursively too; the output is stock clang -O0's at -O2 and -O3, in PIE,
// non-PIC and with -flto, and with the knob off. A function with a short
// argument keeps its calls.
//
// RUN: %stock_clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t.ref
// RUN: %t.ref > %t.want
// RUN: %clang -O2 -fauto-preserve-none -fswitch-site-jumps -Rpass=switch-site-jump -Rpass-missed=switch-site-jump -I%cacs_include %s %cacs_rt_x86_64 -o %t.o2 2>%t.rem
// RUN: %t.o2 | diff %t.want -
// RUN: FileCheck %s --check-prefix=REMARK < %t.rem
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=work %t.o2 | FileCheck %s
// RUN: %clang -O3 -fno-pic -no-pie -fauto-preserve-none -fswitch-site-jumps -I%cacs_include %s %cacs_rt_x86_64 -o %t.o3 && %t.o3 | diff %t.want -
// RUN: %clang -O2 -fPIE -pie -fauto-preserve-none -fswitch-site-jumps -I%cacs_include %s %cacs_rt_x86_64 -o %t.pie && %t.pie | diff %t.want -
// RUN: %clang -O2 -flto -fauto-preserve-none -fswitch-site-jumps -I%cacs_include %s %cacs_rt_x86_64 -o %t.lto && %t.lto | diff %t.want -
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=work %t.lto | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -fswitch-site-jumps -mllvm -cacs-calls-by-jump=false -I%cacs_include %s %cacs_rt_x86_64 -o %t.off && %t.off | diff %t.want -
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=work %t.off | FileCheck %s --check-prefix=OFF
//
// REMARK-DAG: f_six is entered by a jump at this call
// REMARK-DAG: f_pair is entered by a jump at this call
// REMARK-DAG: f_narrow is entered by a jump at this call
// REMARK-DAG: f_rec is entered by a jump at this call
// REMARK-DAG: the call of f_int stays a call: an argument is not an i32, an i64 or a pointer
//
// CHECK-LABEL: <work>:
// CHECK:         pushq %r11
// CHECK-NEXT:    jmp {{.*}} <f_six>
// OFF-LABEL:     <work>:
// OFF-NOT:       pushq %r11
// OFF:           callq {{.*}} <f_six>
// OFF-NOT:       pushq %r11

#include "cacs/coro.h"

#include <stdbool.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))

struct pair {
  long a;
  const char *p;
};

static unsigned long ticks;
static const char text[] = "abcdefghijklmnopqrstuvwxyz";

static NOINLINE long f_six(long a, int b, unsigned c, long d,
                           const char *p, long e) {
  cacs_yield();
  ++ticks;
  return a * 3 + b - c + d + *p + (e ? 1000 : -1000);
}

static NOINLINE struct pair f_pair(long a, unsigned long b) {
  cacs_yield();
  struct pair r = {a - (long)b, text + (a + b) % 26};
  return r;
}

static NOINLINE signed char f_narrow(long x, unsigned long y, bool *flag) {
  cacs_yield();
  *flag = (x + y) & 1;
  return (signed char)(x * 5 - (int)y);
}

static NOINLINE bool f_odd(unsigned long v) {
  cacs_yield();
  return v & 1;
}

static NOINLINE unsigned short f_ushort(long v) {
  cacs_yield();
  return (unsigned short)(v * 977);
}

static NOINLINE int f_rec(int depth, int acc) {
  if (depth == 0)
    return acc;
  cacs_yield();
  return f_rec(depth - 1, acc * 3 + depth) ^ depth;
}

static NOINLINE void f_void(long *out, long v) {
  cacs_yield();
  *out += v;
}

static NOINLINE long f_seven(long a, long b, long c, long d, long e, long f,
                             long g) {
  cacs_yield();
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g;
}

// A short argument: kept.
static NOINLINE int f_int(int a, short b) {
  cacs_yield();
  return a * 7 - b;
}

static NOINLINE long work(int who, int rounds) {
  long acc = who;
  for (int i = 0; i < rounds; ++i) {
    acc += f_six(acc & 0xffff, i - 50, (unsigned char)(i * 7), (short)(-i * 11),
                 text + i % 26, i & 1);
    acc += f_int(i - who, (short)(i * 3));
    struct pair q = f_pair(acc % 1000, (unsigned long)i);
    acc ^= q.a + *q.p;
    bool flag = false;
    signed char n = f_narrow(i - who, (unsigned long)i, &flag);
    acc += n + flag + f_odd((unsigned long)acc) + f_ushort(i - 20);
    acc += f_rec(i % 5, who);
    f_void(&acc, i);
    if (i % 7 == 0)
      acc += f_seven(i, acc & 7, 1, 2, 3, 4, who);
  }
  return acc;
}

#include "Inputs/four-workers.h"

int main(void) {
  run_four_workers();
  printf("ticks %lu\n", ticks);
  return 0;
}
