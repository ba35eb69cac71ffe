// The final check splits a preserve_none definition whose frame the backend
// would get wrong (a stack probe loop or a split-stack prologue using the
// register of an argument; on x86-64 LLVM 19 a realigned dynamic frame): its
// body moves into a C-convention function that the preserve_none entry
// calls. A musttail call cannot move with it: from a C-convention function
// it was invalid IR, which the backend lowered to a jump after the C
// epilogue had restored r12-r15, the registers of the first four arguments
// (silently wrong: 1111 instead of 1116 here, every -O, LLVM 19 and 22).
// cacs reports it instead, at the call, naming the function; no backend
// error follows.
//
// RUN: not %clang -O0 -g -fstack-clash-protection -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,PROBE
// RUN: not %clang -O2 -g -fstack-clash-protection -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,PROBE
// RUN: not %clang -O0 -g -fsplit-stack -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,SPLIT
// RUN: not %clang -O2 -g -fsplit-stack -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,SPLIT
// RUN: %if qemu-aarch64 %{ not %clang %aarch64_flags -O2 -g -fstack-clash-protection -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,A64 %}
// RUN: %if llvm-19 %{ not %clang -O2 -g -DDYNAMIC -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,DYN %}
//
// CHECK: split-musttail.c:[[#@LINE+28]]:{{[0-9]+}}: error: preserve_none function 'f' makes a musttail call, but
// PROBE-SAME: its stack frame may be probed (-fstack-clash-protection) by a loop that uses r11, which carries its integer argument 11;
// SPLIT-SAME: its prologue checks the stack limit (-fsplit-stack) through r11, which carries its integer argument 11;
// A64-SAME: its stack frame may be probed (-fstack-clash-protection) by a loop that uses x9, which carries its integer argument 23;
// DYN-SAME: it allocates stack dynamically, and its frame may need a base pointer, which preserve_none does not support;
// CHECK-SAME: cacs would move its body into a C-convention function, from which the musttail call cannot be made; drop the musttail, or what makes its frame unsafe
// CHECK-NOT: error:
// CHECK-NOT: LLVM ERROR
// CHECK: 1 error generated.

#define PN __attribute__((preserve_none))
#define ARGS(T)                                                                \
  T a1, T a2, T a3, T a4, T a5, T a6, T a7, T a8, T a9, T a10, T a11, T a12,   \
      T a13, T a14, T a15, T a16, T a17, T a18, T a19, T a20, T a21, T a22,    \
      T a23, T a24

PN __attribute__((noinline)) long g(ARGS(long)) { return a1 + a11 * 100; }

PN __attribute__((noinline)) long f(ARGS(long)) {
#ifdef DYNAMIC
  _Alignas(64) volatile char first[64];
  volatile char rest[a2];
  rest[0] = 5;
  first[0] = (char)(a1 + rest[0]);
#else
  volatile char first[100000];
  first[0] = (char)(a1 + 5);
#endif
  __attribute__((musttail)) return g(first[0], a2, a3, a4, a5, a6, a7, a8, a9,
                                     a10, a11, a12, a13, a14, a15, a16, a17,
                                     a18, a19, a20, a21, a22, a23, a24);
}
