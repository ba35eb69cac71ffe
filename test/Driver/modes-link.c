// Link steps with the cacs flags: no unused-argument warning, exit 0, with
// and without -flto (which links with lld and loads the pass plugin there).
// RUN: rm -rf %t && mkdir -p %t
// RUN: echo 'fun:leaf' > %t/list
// RUN: %clang -c -O1 %s -o %t/a.o
// RUN: %clang -fauto-preserve-none -fpreserve-none-list=%t/list %t/a.o -o %t/a.out 2>&1 | count 0
// RUN: %t/a.out
// RUN: %clang -O2 -flto -fauto-preserve-none -fpreserve-none-list=%t/list %s -o %t/lto.out 2>&1 | count 0
// RUN: %t/lto.out
// RUN: %clang -### -O2 -flto -fauto-preserve-none %s -o %t/x 2>&1 | FileCheck %s --check-prefix=LTO
// RUN: %clang -### -O2 -flto -fno-lto -fauto-preserve-none %s -o %t/x 2>&1 | FileCheck %s --check-prefix=NOLTO
// An unknown flag is still clang's own error, with clang's exit code.
// RUN: not %clang -fauto-preserve-none -fno-such-flag -c %s -o %t/b.o 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// LTO: "--load-pass-plugin={{[^"]*}}CACSPasses.so"
// NOLTO-NOT: --load-pass-plugin
// UNKNOWN: error: unknown argument: '-fno-such-flag'

__attribute__((noinline)) static int leaf(int x) { return x * 3; }
int main(int argc, char **argv) { (void)argv; return leaf(argc) != 3; }
