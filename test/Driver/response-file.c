// A 2 MB response file with a cacs flag in it: the front door passes the
// command line on in a response file of its own (expanded onto the command
// line it would exceed the kernel's limit: "Argument list too long"), and
// the flag still applies.
//
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: seq 1 110000 | sed 's/.*/-DCACS_RSP_MACRO_&=1/' > big.rsp
// RUN: echo '-O2 -c -fauto-preserve-none %S/Inputs/apn-parse.c -o rsp.o' >> big.rsp
// RUN: test $(wc -c < big.rsp) -gt 2000000
// RUN: %clang @big.rsp
// RUN: llvm-objdump -d --no-show-raw-insn rsp.o | FileCheck %s
// The macros reached the compile too (the last one is checked below).
// RUN: %clang @big.rsp -fsyntax-only -DCHECK_MACROS %s
//
// parse is infected by APN: its prologue saves only rbp.
// CHECK-LABEL: <parse>:
// CHECK-NEXT: pushq %rbp
// CHECK-NOT: pushq
// CHECK: retq

#if defined(CHECK_MACROS) && CACS_RSP_MACRO_110000 != 1
#error the response file's macros are lost
#endif
