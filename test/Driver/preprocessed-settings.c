// A preprocessed file carries the cacs settings it was preprocessed with; a
// compile of it (as on a distcc server) with other settings is an error, not
// a silently different object.
//
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: echo 'fun:listed' > a.list
// RUN: echo 'fun:other' > b.list
// RUN: %clang -E %S/Inputs/apn-parse.c -fpreserve-none-list=a.list -fno-preserve-none-list-export-warning -o a.i
// The same settings: it compiles, with the list.
// RUN: %clang -O2 -c a.i -fpreserve-none-list=a.list -fno-preserve-none-list-export-warning -o a.o
// RUN: llvm-objdump -d --no-show-raw-insn a.o | FileCheck %s --check-prefix=LISTED
// LISTED-LABEL: <listed>:
// LISTED: %r12
// Another list text under the same name, another list, an extra flag, no
// cacs flag at all: errors.
// RUN: echo 'fun:other' > a.list
// RUN: not %clang -O2 -c a.i -fpreserve-none-list=a.list -o x.o 2>&1 | FileCheck %s --check-prefix=DIFF
// RUN: not %clang -O2 -c a.i -fpreserve-none-list=b.list -o x.o 2>&1 | FileCheck %s --check-prefix=DIFF
// RUN: echo 'fun:listed' > a.list
// RUN: not %clang -O2 -c a.i -fpreserve-none-list=a.list -fno-preserve-none-list-export-warning -fauto-preserve-none -o x.o 2>&1 | FileCheck %s --check-prefix=DIFF
// RUN: not %clang -O2 -c a.i -o x.o 2>&1 | FileCheck %s --check-prefix=NONE
// DIFF: clang: error: 'a.i' was preprocessed with other cacs settings ("cacs-{{.*}}") than this compile has ("cacs-{{.*}}"): a different cacs build, flag or preserve-none list file
// NONE: clang: error: 'a.i' was preprocessed by cacs with cacs flags ("cacs-{{.*}}"), and is compiled without them
// A file preprocessed by stock clang (no pragma) is compiled as given.
// RUN: %stock_clang -E %S/Inputs/apn-parse.c -o s.i
// RUN: %clang -O2 -c s.i -fpreserve-none-list=a.list -fno-preserve-none-list-export-warning -o s.o
// RUN: llvm-objdump -d --no-show-raw-insn s.o | FileCheck %s --check-prefix=LISTED
