// AArch64 -fsanitize=kcfi: the check before an indirect call compares the
// type hashes in w16 and w17, or in w9 and w17 when the register allocator
// put the target in x16 or x17 (which carry no argument, so it may). A
// preserve_none call with 23 or more integer arguments passes the 23rd in
// x9, which the check then overwrites without telling the allocator: the
// callee silently got a wrong value (an upstream bug, LLVM 19 and 22, stock
// clang too: 26 arguments to a function that returns its first one, at
// -O1..-O3, gave the 23rd argument's register the type hash of the
// callee). No shield can help (its own call needs the same check), so cacs
// reports every KCFI-checked indirect call with an argument in x9; 22
// compile, and run right.
//
// RUN: not %clang %aarch64_flags -O2 -c -fsanitize=kcfi %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %clang %aarch64_flags -O1 -c -fsanitize=kcfi %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// Without KCFI there is no check; x86-64 has its own (kcfi-scratch.c).
// RUN: %clang %aarch64_flags -O2 -c %s -o /dev/null
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -fsanitize=kcfi -DRUN %s -o %t %}
// RUN: %if qemu-aarch64 %{ %run_aarch64 %t | FileCheck %s --check-prefix=OUT %}
// OUT-COUNT-3: ok

typedef long __attribute__((preserve_none)) (*fn26)(long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long);
typedef long __attribute__((preserve_none)) (*fn23)(long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long);
typedef long __attribute__((preserve_none)) (*fn22)(long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long);

#ifndef RUN
// CHECK: kcfi-scratch-aarch64.c:[[@LINE+1]]:6: error: preserve_none call through a pointer in 'call26' passes 23 or more integer arguments, and the KCFI check of the call (-fsanitize=kcfi) may use x9, which carries the 23rd; pass fewer integer arguments, or compile without -fsanitize=kcfi
long call26(fn26 f, long x) { return f(x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x) + 1; }

// CHECK: kcfi-scratch-aarch64.c:[[@LINE+1]]:6: error: preserve_none call through a pointer in 'call23' passes 23 or more integer arguments
long call23(fn23 f, long x) { return f(x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x) + 1; }
#endif

long call22(fn22 f, long x) { return f(x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x) + 1; }

#ifdef RUN
#include <stdio.h>
__attribute__((preserve_none, noinline)) long last22(long a0, long a1, long a2, long a3, long a4, long a5, long a6, long a7, long a8, long a9, long a10, long a11, long a12, long a13, long a14, long a15, long a16, long a17, long a18, long a19, long a20, long a21) {
  return a0 + a21 * 3;
}
fn22 volatile fp = last22;
int main(void) {
  for (long x = 1; x <= 3; x++)
    printf("%s\n", call22(fp, x) == x + 3 * x + 1 ? "ok" : "wrong");
  return 0;
}
#endif
