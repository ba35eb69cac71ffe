// -fsyntax-only with the cacs flags: no output, no warning, exit 0; the
// plugins load (the variadic check runs) but no pass runs.
// RUN: echo 'fun:helper' > %t.list
// RUN: %clang -fsyntax-only -fauto-preserve-none -fpreserve-none-list=%t.list %s 2>&1 | count 0
// RUN: %clang -fsyntax-only -fno-auto-preserve-none -Wall -Wextra -Werror %s
// RUN: %clangxx -fsyntax-only -x c++ -fauto-preserve-none -fpreserve-none-list=%t.list %s 2>&1 | count 0
// The clang-side checks run in this mode too.
// RUN: not %clang -fsyntax-only -fauto-preserve-none -DBAD %s 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: modes-syntax-only.c:[[#@LINE+3]]:36: error: 'preserve_none' calling convention is not supported on variadic function 'bad' on x86-64
// BAD: 1 error generated.
#ifdef BAD
__attribute__((preserve_none)) int bad(int, ...);
#endif
static int helper(int x) { return x + 1; }
int entry(int x) { return helper(x); }
