// AArch64: x20-x28 are callee-saved in the C convention, not in
// preserve_none. A unit that reserves one (-ffixed-x25, for a global
// register variable) relies on every function it calls giving it back as
// the C convention does; a preserve_none callee compiled without
// -ffixed-x25 may use x25 freely: here 'work' (Inputs/fixed-callee-unit.c)
// writes x25, and stock clang -O2 printed '22 7' instead of '22 1000'.
// LLVM 19 restores a reserved x20-x28 in every C function that modifies
// it, so cacs routes the call through a shield (a C function), and the
// program computes what stock clang -O0 computes without preserve_none.
// LLVM 22 does not restore reserved registers: a C callee compiled with
// -ffixed-x25 may write the variable for its caller, one compiled without
// restores it, and cacs cannot see which 'work' is: the call is an error,
// from the attribute, the list and through a pointer alike.
//
// REQUIRES: qemu-aarch64
// RUN: rm -rf %t && mkdir %t
// RUN: %stock_clang %aarch64_flags -O0 -ffixed-x25 -c %s -o %t/main.o
// RUN: %stock_clang %aarch64_flags -O0 -c %S/Inputs/fixed-callee-unit.c -o %t/unit.o
// RUN: %stock_clang %aarch64_flags %t/main.o %t/unit.o -o %t/ref && %run_aarch64 %t/ref > %t/expected
// Stock clang with the attribute computes something else (the hazard):
// RUN: %stock_clang %aarch64_flags -O2 -ffixed-x25 -DATTR -c %s -o %t/pn-main.o
// RUN: %stock_clang %aarch64_flags -O2 -DATTR -c %S/Inputs/fixed-callee-unit.c -o %t/pn-unit.o
// RUN: %stock_clang %aarch64_flags %t/pn-main.o %t/pn-unit.o -o %t/stock && %run_aarch64 %t/stock > %t/stock.out
// RUN: not diff %t/expected %t/stock.out
// RUN: %clang %aarch64_flags -O2 -DATTR -c %S/Inputs/fixed-callee-unit.c -o %t/cacs-unit.o
// RUN: echo 'fun:work' > %t/list
// A caller built with the list calls the body of a definition built with it:
// RUN: %clang %aarch64_flags -O2 -fpreserve-none-list=%t/list -c %S/Inputs/fixed-callee-unit.c -o %t/list-unit.o
// LLVM 19: the attribute, the list, a pointer: shielded, the stock result.
// RUN: %if llvm-19 %{ %clang %aarch64_flags -O2 -ffixed-x25 -DATTR %s %t/cacs-unit.o -o %t/attr -Rpass=preserve-none-safety 2>&1 | FileCheck %s --check-prefix=SHIELD %}
// RUN: %if llvm-19 %{ %run_aarch64 %t/attr > %t/attr.out && diff %t/expected %t/attr.out %}
// RUN: %if llvm-19 %{ %clang %aarch64_flags -O2 -ffixed-x25 -fpreserve-none-list=%t/list %s %t/list-unit.o -o %t/list.exe %}
// RUN: %if llvm-19 %{ %run_aarch64 %t/list.exe > %t/list.out && diff %t/expected %t/list.out %}
// RUN: %if llvm-19 %{ %clang %aarch64_flags -O1 -ffixed-x25 -DATTR -DINDIRECT %s %t/cacs-unit.o -o %t/ptr %}
// RUN: %if llvm-19 %{ %run_aarch64 %t/ptr > %t/ptr.out && diff %t/expected %t/ptr.out %}
// LLVM 22: an error.
// RUN: %if llvm-22 %{ not %clang %aarch64_flags -O2 -ffixed-x25 -DATTR -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR --implicit-check-not=error: %}
// RUN: %if llvm-22 %{ not %clang %aarch64_flags -O2 -ffixed-x25 -fpreserve-none-list=%t/list -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR-LIST --implicit-check-not=error: %}
// RUN: %if llvm-22 %{ not %clang %aarch64_flags -O2 -ffixed-x25 -DATTR -DINDIRECT -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTR --implicit-check-not=error: %}
// SHIELD: remark: a preserve_none call in 'main' goes through a shield (callee 'work'): the caller reserves a register that preserve_none does not preserve
// ERR: error: preserve_none call to 'work' in 'main' may overwrite x25, which -ffixed-x25 reserves (for a global register variable, say): a preserve_none function need not preserve x25, and cacs cannot see whether the callee reserves it; do not reserve x25 in code that calls preserve_none functions
// ERR-LIST: error: preserve_none call to 'work.preserve_none_list' in 'main' may overwrite x25, which -ffixed-x25 reserves (for a global register variable, say): a preserve_none function need not preserve x25, and cacs cannot see whether the callee reserves it; do not reserve x25 in code that calls preserve_none functions
// PTR: error: preserve_none call through a pointer in 'main' may overwrite x25, which -ffixed-x25 reserves (for a global register variable, say): a preserve_none function need not preserve x25, and cacs cannot see whether the callee reserves it; do not reserve x25 in code that calls preserve_none functions
#include <stdio.h>

#if defined(ATTR)
#define PN __attribute__((preserve_none))
#else
#define PN
#endif

register long ctx asm("x25");

PN long work(long a, long b);

int main(void) {
  volatile long x = 5;
  ctx = 1000;
#ifdef INDIRECT
  PN long (*volatile fp)(long, long) = work;
  long r = fp(x, x + 1);
#else
  long r = work(x, x + 1);
#endif
  printf("%ld %ld\n", r, ctx);
  return 0;
}
