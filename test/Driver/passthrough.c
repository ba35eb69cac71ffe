// Everything else is stock clang: modes, several inputs, response files,
// exit status.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -E %s | FileCheck %s --check-prefix=PP
// PP: int passthrough_value = 42;
// RUN: %clang -S -emit-llvm -O1 %s -o - | FileCheck %s --check-prefix=IR
// IR: @passthrough_value = {{.*}}global i32 42
// RUN: %clang -c %s -o %t/a.o
// RUN: echo 'int other(void) { return 1; }' > %t/b.c
// RUN: echo '-c %t/b.c -o %t/b.o -fauto-preserve-none' > %t/args.rsp
// RUN: %clang @%t/args.rsp
// RUN: %clang %t/a.o %t/b.o -o %t/prog
// RUN: %t/prog; test $? = 43
// RUN: %clang -x c - -fsyntax-only < %s
// RUN: not %clang -c %t/does-not-exist.c 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: clang: error: no such file or directory: '{{.*}}does-not-exist.c'
// RUN: %clangxx -x c++ -c %s -o %t/cxx.o
// RUN: llvm-nm %t/cxx.o | FileCheck %s --check-prefix=CXX
// CXX: _Z5otherv

int passthrough_value = 42;
#ifdef __cplusplus
int other(void);
#else
int other(void);
int main(void) { return passthrough_value + other(); }
#endif
#ifdef __cplusplus
int user() { return other(); }
#endif

// "clang -cc1" lines go to the frontend untouched.
// RUN: %clang -cc1 -triple x86_64-linux-gnu -emit-obj %s -o %t/cc1.o
// RUN: llvm-nm %t/cc1.o | FileCheck %s --check-prefix=CC1
// CC1: D passthrough_value
