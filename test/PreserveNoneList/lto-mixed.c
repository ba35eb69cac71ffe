// Full LTO with a unit compiled without the list: the link applies the list
// to the whole program, so the calls of that unit agree with the listed
// definitions.
//
// The list pass must run at the START of the full-LTO link pipeline: before
// it, the link's InstCombine would see a C-convention call of a preserve_none
// definition (or the reverse), deem it undefined and replace it with
// `unreachable`, and the program would print nothing.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O2 -flto -c %S/Inputs/two-tu-def.c -o %t/def.o -fpreserve-none-list=%S/Inputs/two-tu.list \
// RUN:   -fno-preserve-none-list-export-warning
// RUN: %clang -O2 -flto -c %S/Inputs/two-tu-use.c -o %t/use.o
// RUN: %clang -O2 -flto %t/def.o %t/use.o -o %t/prog
// RUN: %t/prog | FileCheck %S/two-tu-x86_64.c
