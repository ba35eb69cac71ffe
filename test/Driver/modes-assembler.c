// Assembler inputs: the cacs flags must not reach cc1as (it knows no cacs
// option) nor warn as unused, with -x assembler and -x assembler-with-cpp,
// and when assembling what -S produced.
// RUN: printf '\t.text\n\t.globl f\nf:\n\tret\n' > %t.s
// RUN: %clang -c -x assembler -fauto-preserve-none %t.s -o %t.o 2>&1 | count 0
// RUN: llvm-nm %t.o | FileCheck %s --check-prefix=SYM
// RUN: not %clang -c -x assembler-with-cpp -fauto-preserve-none -fpreserve-none-list=%t.missing %t.s -o %t.o 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: echo 'fun:f' > %t.list
// RUN: %clang -c -x assembler-with-cpp -fauto-preserve-none -fpreserve-none-list=%t.list %t.s -o %t.o 2>&1 | count 0
// RUN: %clang -### -c -x assembler -fauto-preserve-none %t.s 2>&1 | FileCheck %s --check-prefix=CC1AS
// RUN: %clang -S -fauto-preserve-none %s -o %t.gen.s 2>&1 | count 0
// RUN: %clang -c -fauto-preserve-none %t.gen.s -o %t.gen.o 2>&1 | count 0
// RUN: llvm-nm %t.gen.o | FileCheck %s --check-prefix=GEN
// SYM: T f
// MISSING: clang: error: preserve-none list file '{{.*}}' not found
// CC1AS: "-cc1as"
// CC1AS-NOT: cacs
// CC1AS-NOT: -mllvm
// GEN: T from_c
int from_c(void) { return 7; }
