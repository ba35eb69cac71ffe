// The front door defines __CACS__ in every compile, with or without cacs
// flags and in -E output too (libcacs's coro.h picks its fast yield entry by
// it), and the definition is not reported as unused by assembler or link
// jobs. Stock clang does not define it.
// RUN: %clang -E -P -DPRINT %s | FileCheck %s --check-prefix=CACS
// RUN: %clang -E -P -DPRINT -fauto-preserve-none %s | FileCheck %s --check-prefix=CACS
// RUN: %stock_clang -E -P -DPRINT %s | FileCheck %s --check-prefix=STOCK
// RUN: printf '\t.text\n\t.globl f\nf:\n\tret\n' > %t.s
// RUN: %clang -Wall -c %t.s -o %t.o 2>&1 | count 0
// RUN: %clang -Wall -c %s -o %t.main.o 2>&1 | count 0
// RUN: %clang -Wall %t.main.o -o %t.exe 2>&1 | count 0
// CACS: cacs 1
// STOCK: stock
#ifdef PRINT
#ifdef __CACS__
cacs __CACS__
#else
stock
#endif
#endif
int main(void) { return 0; }
