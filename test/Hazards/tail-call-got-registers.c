// x86-64: a preserve_none sibling call (`tail`, in tail position at -O1 and
// up) with 12 integer arguments, through a pointer or the GOT, jumps to an
// address in rax, rcx, rdx, rsi, rdi, r8, r9 or r11, all of which carry
// arguments: LLVM 19 and 22 stop with "ran out of registers during register
// allocation". Under -fPIC cacs binds such a callee at load time (the lazy
// PLT resolver would clobber r11): calls through the GOT. So a program that
// stock clang compiles broke with cacs (the hazard matrix's shapes that
// return an argument through a tail call). The final check makes such calls
// ordinary calls; the output must be stock clang -O0's without the
// attribute.
//
// RUN: %stock_clang -O0 -DREFERENCE %s -o %t.ref && %t.ref > %t.expected
// RUN: %clang -O2 -fPIC %s -o %t.pic && %t.pic > %t.pic.out && diff %t.expected %t.pic.out
// RUN: %clang -O2 -fPIC -fno-plt %s -o %t.noplt && %t.noplt > %t.noplt.out && diff %t.expected %t.noplt.out
// RUN: %clang -O2 -fPIC -S %s -o - | FileCheck %s
// CHECK-LABEL: via_got:
// CHECK:         callq *ident@GOTPCREL(%rip)
// CHECK-LABEL: via_pointer:
// CHECK:         callq *%
#include <stdio.h>

#if defined(REFERENCE)
#define PN
#else
#define PN __attribute__((preserve_none))
#endif

#define ARGS                                                                   \
  long a, long b, long c, long d, long e, long f, long g, long h, long i,      \
      long j, long k, long l
#define VALS a, b, c, d, e, f, g, h, i, j, k, l

volatile long sink;

PN __attribute__((noinline)) long ident(ARGS) {
  sink = a + b + c + d + e + f + g + h + i + j + k + l;
  return a;
}

PN __attribute__((noinline)) long via_got(ARGS) {
  sink += 1;
  return ident(VALS);
}

PN long (*volatile target)(ARGS) = ident;

PN __attribute__((noinline)) long via_pointer(ARGS) {
  sink += 2;
  return target(VALS);
}

int main(void) {
  long r = via_got(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
  long s = sink;
  long p = via_pointer(13, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
  printf("%ld %ld %ld %ld\n", r, s, p, sink);
  return 0;
}
