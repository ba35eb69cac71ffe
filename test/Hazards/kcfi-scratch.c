// x86-64 -fsanitize=kcfi: the check before an indirect call loads the type
// hash into r10, or into r11 when the target is in r10. A preserve_none call
// with 12 or more integer arguments has the 12th in rax, the register
// allocator puts the target in r10, and the check clobbers r11, the 11th
// argument: the callee silently got a wrong value (upstream bug). With 11
// the target usually lands in rax, but nothing keeps it out of r10, so cacs
// reports every KCFI-checked call with an argument in r11, and names the
// caller; ten arguments compile.
//
// RUN: not %clang -O2 -c -fsanitize=kcfi %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %clang -O0 -c -fsanitize=kcfi %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %clang -O2 -c -fsanitize=kcfi -DTEN %s -o /dev/null
// Without KCFI there is no check.
// RUN: %clang -O2 -c %s -o /dev/null

typedef long __attribute__((preserve_none)) (*fn12)(long, long, long, long,
                                                    long, long, long, long,
                                                    long, long, long, long);
typedef long __attribute__((preserve_none)) (*fn11)(long, long, long, long,
                                                    long, long, long, long,
                                                    long, long, long);
typedef long __attribute__((preserve_none)) (*fn10)(long, long, long, long,
                                                    long, long, long, long,
                                                    long, long);

#ifndef TEN
// CHECK: kcfi-scratch.c:[[@LINE+1]]:6: error: preserve_none call through a pointer in 'call12' passes 11 or more integer arguments, and the KCFI check of the call (-fsanitize=kcfi) may use r11, which carries the 11th; pass fewer integer arguments, or compile without -fsanitize=kcfi
long call12(fn12 f, long x) {
  return f(x, x, x, x, x, x, x, x, x, x, x, x) + 1;
}

// CHECK: kcfi-scratch.c:[[@LINE+1]]:6: error: preserve_none call through a pointer in 'call11' passes 11 or more integer arguments
long call11(fn11 f, long x) { return f(x, x, x, x, x, x, x, x, x, x, x) + 1; }
#endif

long call10(fn10 f, long x) { return f(x, x, x, x, x, x, x, x, x, x) + 1; }
