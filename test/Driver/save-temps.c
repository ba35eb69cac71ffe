// -save-temps compiles in three cc1 jobs (-E, source to IR with the passes
// off, IR to assembly with the passes): the last one takes the settings
// through -mllvm too, so APN and the lists still run. The code is the one
// compiled without -save-temps (only the assembler's nop padding may differ:
// stock clang's own -save-temps goes through assembly text too).
//
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: echo 'fun:listed' > pn.list
// RUN: %clang -O2 -c %S/Inputs/apn-parse.c -fauto-preserve-none -fpreserve-none-list=pn.list -fno-preserve-none-list-export-warning -o direct.o
// RUN: %clang -O2 -c %S/Inputs/apn-parse.c -fauto-preserve-none -fpreserve-none-list=pn.list -fno-preserve-none-list-export-warning -save-temps -o temps.o
// RUN: %clang -O2 -c %S/Inputs/apn-parse.c -fauto-preserve-none -fpreserve-none-list=pn.list -fno-preserve-none-list-export-warning -save-temps=obj -o obj.o
// RUN: llvm-objdump -d --no-show-raw-insn direct.o | grep -v nop | tail -n +3 > direct.txt
// RUN: llvm-objdump -d --no-show-raw-insn temps.o | grep -v nop | tail -n +3 > temps.txt
// RUN: llvm-objdump -d --no-show-raw-insn obj.o | grep -v nop | tail -n +3 > obj.txt
// RUN: diff direct.txt temps.txt
// RUN: diff direct.txt obj.txt
// And that code is the one with APN and the list:
// RUN: FileCheck %s < temps.txt
//
// parse is infected by APN: its prologue saves only rbp, not r15..rbx.
// CHECK-LABEL: <parse>:
// CHECK-NEXT: pushq %rbp
// CHECK-NOT: pushq
// CHECK: retq
// listed is preserve_none from the list: its argument arrives in r12.
// CHECK-LABEL: <listed>:
// CHECK: %r12
