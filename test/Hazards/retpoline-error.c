// x86-64: an indirect preserve_none call with 11 or more integer arguments
// from a function whose indirect calls go through a thunk that takes the
// target in r11 (the 11th argument): -mretpoline, -mretpoline-external-thunk,
// -mspeculative-load-hardening (which implies retpoline calls) and -mlvi-cfi.
// The backend stopped with "calling convention incompatible with retpoline,
// no available registers" (issue 11 defect 9; the SLH and LVI variants too):
// cacs reports the call, names the caller, and the backend does not stop
// after the report.
//
// RUN: not %clang -O2 -c -mretpoline %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not='fatal error'
// RUN: not %clang -O2 -c -mretpoline-external-thunk %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not='fatal error'
// RUN: not %clang -O2 -c -mspeculative-load-hardening %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not='fatal error'
// RUN: not %clang -O0 -c -mspeculative-load-hardening %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not='fatal error'
// RUN: not %clang -O2 -c -mlvi-cfi %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not='fatal error'
// Ten arguments leave r11 to the thunk.
// RUN: %clang -O2 -c -mspeculative-load-hardening -DTEN %s -o /dev/null

typedef long __attribute__((preserve_none)) (*fn11)(long, long, long, long,
                                                    long, long, long, long,
                                                    long, long, long);
typedef long __attribute__((preserve_none)) (*fn10)(long, long, long, long,
                                                    long, long, long, long,
                                                    long, long);

#ifndef TEN
// CHECK: retpoline-error.c:[[@LINE+1]]:6: error: preserve_none call through a pointer in 'call11' passes 11 or more integer arguments, the 11th in r11, which the retpoline thunk of an indirect call (or of a call bound at load time, as cacs binds calls that the lazy PLT resolver would clobber) needs; pass fewer integer arguments, or compile without -mretpoline (-mspeculative-load-hardening and -mlvi-cfi imply it)
long call11(fn11 f, long x) {
  return f(x, x, x, x, x, x, x, x, x, x, x) + 1;
}
#endif

long call10(fn10 f, long x) { return f(x, x, x, x, x, x, x, x, x, x) + 1; }
