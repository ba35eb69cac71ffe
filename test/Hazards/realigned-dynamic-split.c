// x86-64 LLVM 19 stops on a preserve_none function whose frame is realigned
// and dynamic: "Stack realignment in presence of dynamic allocas is not
// supported with this calling convention". APN does not infect such a
// function (and the final check reverts one that got such a frame later),
// but a hand-written or listed one cannot be reverted: the final check
// splits it, as for a probed frame. The body, with the realigned dynamic
// frame, moves into a C-convention function; the preserve_none entry only
// calls it. The frame comes from the function itself, from an inlined
// helper at a full-LTO link, or from ASan at -O0. LLVM 22 lowers such a
// function and it is not split there. The output must be stock clang -O0's.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %stock_clang -O0 -DREFERENCE %s %S/Inputs/lto-inline-helper.c -o %t/ref && %t/ref > %t/expected
// RUN: %clang -O0 -DATTR %s %S/Inputs/lto-inline-helper.c -o %t/attr0 && %t/attr0 > %t/attr0.out && diff %t/expected %t/attr0.out
// RUN: %clang -O2 -DATTR %s %S/Inputs/lto-inline-helper.c -o %t/attr2 && %t/attr2 > %t/attr2.out && diff %t/expected %t/attr2.out
// RUN: printf 'fun:own\nfun:inlined\n' > %t/list
// RUN: %clang -O2 -fpreserve-none-list=%t/list %s %S/Inputs/lto-inline-helper.c -o %t/list2 && %t/list2 > %t/list2.out && diff %t/expected %t/list2.out
// RUN: %clang -O2 -flto -fpreserve-none-list=%t/list -c %s -o %t/main.o
// RUN: %clang -O2 -flto -c %S/Inputs/lto-inline-helper.c -o %t/helper.o
// RUN: %clang -O2 -flto -fuse-ld=lld %t/main.o %t/helper.o -o %t/lto && %t/lto > %t/lto.out && diff %t/expected %t/lto.out
// RUN: %clang -O0 -fsanitize=address -fPIC -shared -DATTR %s %S/Inputs/lto-inline-helper.c -o %t/libasan.so
// RUN: %clang -O0 -fsanitize=address -DATTR %s %S/Inputs/lto-inline-helper.c -o %t/asan0 && %t/asan0 > %t/asan0.out && diff %t/expected %t/asan0.out
#include <stdio.h>
#include <string.h>

#if defined(ATTR) && !defined(REFERENCE)
#define PN __attribute__((preserve_none))
#else
#define PN
#endif

long helper(long n);
volatile long seed = 5;

// A variable-length array and an over-aligned local of its own.
PN __attribute__((noinline)) long own(long n) {
  _Alignas(64) char aligned[64];
  char vla[n];
  memset(vla, 3, (size_t)n);
  memset(aligned, 4, sizeof aligned);
  return vla[n - 1] + aligned[(n * 7) % 64] + n;
}

// The same, once the always_inline helper is inlined into it.
PN __attribute__((noinline)) long inlined(long n) { return helper(n) + 1; }

int main(void) {
  for (long i = 1; i <= 3; ++i)
    printf("%ld %ld\n", own(seed * i), inlined(seed + i));
  return 0;
}
