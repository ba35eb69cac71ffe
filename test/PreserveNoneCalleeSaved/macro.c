// -fpreserve-none-callee-saved=none defines
// __CACS_PRESERVE_NONE_CALLEE_SAVED_NONE__ (in -E output too, which ccache
// and distcc compile), so that cacs/coro.h can bind cacs_yield() to the
// entry that does not save rbp; =upstream, the default and -flto=thin do
// not. It is not reported as unused by assembler jobs.
// RUN: %clang -E -P -DPRINT -fpreserve-none-callee-saved=none %s | FileCheck %s --check-prefix=NONE
// RUN: %clang -E -P -DPRINT -fpreserve-none-callee-saved=none -fpreserve-none-callee-saved=upstream %s | FileCheck %s --check-prefix=UP
// RUN: %clang -E -P -DPRINT %s | FileCheck %s --check-prefix=UP
// ThinLTO backends do not run the cacs passes: the entry is not used there.
// RUN: %clang -E -P -DPRINT -flto=thin -fpreserve-none-callee-saved=none %s | FileCheck %s --check-prefix=UP
// RUN: %clang -E -P -DPRINT -flto -fpreserve-none-callee-saved=none %s | FileCheck %s --check-prefix=NONE
// RUN: printf '\t.text\n\t.globl f\nf:\n\tret\n' > %t.s
// RUN: %clang -Wall -fpreserve-none-callee-saved=none -c %t.s -o %t.o 2>&1 | count 0
// NONE: setting none 1
// UP: setting upstream
#ifdef PRINT
#ifdef __CACS_PRESERVE_NONE_CALLEE_SAVED_NONE__
setting none __CACS_PRESERVE_NONE_CALLEE_SAVED_NONE__
#else
setting upstream
#endif
#endif
