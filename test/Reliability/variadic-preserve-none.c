// A variadic preserve_none function miscompiles silently on x86-64 (LLVM 19
// and 22: callers pass the arguments in r12, r13, ..., va_start reads the SysV
// registers), so cacs rejects it there, at the declaration, once per function
// and once per declaration of a pointer/typedef/field of such a type.
// RUN: not %clang -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %clang -c -O2 %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %clang -c -fauto-preserve-none %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %clang --target=x86_64-pc-linux-gnu -S -emit-llvm %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
//
// AArch64 lowers variadic preserve_none calls with the AAPCS argument
// registers on both sides and runs them correctly: no diagnostic there.
// RUN: %clang %aarch64_flags -fsyntax-only %s 2>&1 | count 0
//
// Stock clang accepts all of it silently.
// RUN: %stock_clang -fsyntax-only %s 2>&1 | count 0

#include <stdarg.h>

// CHECK: variadic-preserve-none.c:[[@LINE+1]]:36: error: 'preserve_none' calling convention is not supported on variadic function 'sum' on x86-64
__attribute__((preserve_none)) int sum(int n, ...);
// A redeclaration inherits the convention; it is not reported again.
int sum(int n, ...);

// CHECK: variadic-preserve-none.c:[[@LINE+1]]:37: error: 'preserve_none' calling convention is not supported on variadic function 'vdef' on x86-64
__attribute__((preserve_none)) long vdef(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long s = va_arg(ap, long);
  va_end(ap);
  return s;
}

// CHECK: variadic-preserve-none.c:[[@LINE+1]]:15: error: 'preserve_none' calling convention is not supported on variadic function type 'int (int, ...) __attribute__((preserve_none))' on x86-64
typedef int (*fp_t)(int, ...) __attribute__((preserve_none));

// CHECK: variadic-preserve-none.c:[[@LINE+1]]:38: error: 'preserve_none' calling convention is not supported on variadic function type 'int (int, ...) __attribute__((preserve_none))' on x86-64
int (__attribute__((preserve_none)) *gp)(int, ...);

// CHECK: variadic-preserve-none.c:[[@LINE+1]]:49: error: 'preserve_none' calling convention is not supported on variadic function type 'int (int, ...) __attribute__((preserve_none))' on x86-64
struct S { int (__attribute__((preserve_none)) *f)(int, ...); };

// CHECK: variadic-preserve-none.c:[[@LINE+1]]:48: error: 'preserve_none' calling convention is not supported on variadic function type 'int (int, ...) __attribute__((preserve_none))' on x86-64
void take(__attribute__((preserve_none)) int (*q)(int, ...));

// CHECK: variadic-preserve-none.c:[[@LINE+1]]:6: error: 'preserve_none' calling convention is not supported on variadic function type 'int (int, ...) __attribute__((preserve_none))' on x86-64
fp_t table[2];

// Fine: not variadic, or not preserve_none.
__attribute__((preserve_none)) int fixed(int n, int m);
int plain(int n, ...);
int (*plain_ptr)(int, ...);
__attribute__((preserve_none)) int (*fixed_ptr)(int);
void uses_va_list(__attribute__((preserve_none)) int (*q)(int, va_list));
