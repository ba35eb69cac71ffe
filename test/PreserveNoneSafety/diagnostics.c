// Hand-written preserve_none code that upstream LLVM miscompiles is an error
// in clang's format, naming the function, with or without cacs flags.
//
// RUN: not %clang -O2 -c %s -o /dev/null --target=x86_64-linux-gnu 2>&1 | FileCheck %s --check-prefix=X86
// RUN: not %clang -O0 -c %s -o /dev/null --target=x86_64-linux-gnu -fauto-preserve-none 2>&1 | FileCheck %s --check-prefix=X86
// X86: diagnostics.c:[[@LINE+6]]:{{[0-9]+}}: error: preserve_none function 'by_value' takes an argument by value in memory (byval), which LLVM passes without a copy under preserve_none; pass a pointer instead
//
// AArch64 passes large structs by reference with a copy made by the caller:
// nothing to report.
// RUN: %clang -O2 -c %s -o /dev/null --target=aarch64-linux-gnu 2>&1 | count 0
struct big { long a[8]; };
__attribute__((preserve_none)) long by_value(struct big b) {
  return b.a[0];
}
long use_it(struct big *p) { return by_value(*p); }
