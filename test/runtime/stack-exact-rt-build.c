// Exact stacks only from a libcacs built the way its stack budgets
// (cacs/detail/contract.h) are measured (stack_exact.h's
// CACS__STACK_BUDGETS_MEASURED): a bound counts a budget as all that a
// switching call uses on a stack without a guard, so a libcacs whose
// frames are larger must give guarded stacks instead. stack-exact.c's
// bounded entry `deep` gets an exact stack from libcacs as built, and
// from one whose coro.c (the rule's object, linked before the archive) the
// stock clang rebuilt at -O2; a guarded one, and it still runs, from one
// whose coro.c is built by cacs's front door, or at -O0 (LLVM 19's suite),
// or with a stack protector (LLVM 22's). Built at -O0, libcacs's waits use
// well past their budgets (session 42, test/runtime/stack-budget.c, x86-64
// epoll: a timed channel wait 744 bytes, budget 248; a timed cacs_wait_fd
// 552, budget 216; cacs_accept 800, budget 608); by the front door at -O2,
// cacs_wait_fd 232 (216) on x86-64, 368 (288) on AArch64.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O2 -fcacs-stack-bounds -I%cacs_include %S/stack-exact.c %cacs_rt_x86_64 -lpthread -o %t/p
// RUN: %t/p one | FileCheck %S/stack-exact.c --check-prefix=EXACT
// RUN: %stock_clang -O2 -std=gnu11 -fPIC -I%cacs_include -c %cacs_src_root/runtime/lib/coro.c -o %t/stock.o
// RUN: %clang -O2 -fcacs-stack-bounds -I%cacs_include %S/stack-exact.c %t/stock.o %cacs_rt_x86_64 -lpthread -o %t/stock
// RUN: %t/stock one | FileCheck %S/stack-exact.c --check-prefix=EXACT
// RUN: %clang -O2 -std=gnu11 -fPIC -I%cacs_include -c %cacs_src_root/runtime/lib/coro.c -o %t/cacs.o
// RUN: %clang -O2 -fcacs-stack-bounds -I%cacs_include %S/stack-exact.c %t/cacs.o %cacs_rt_x86_64 -lpthread -o %t/cacs
// RUN: %t/cacs one | FileCheck %S/stack-exact.c --check-prefix=GUARDED
// RUN: %if llvm-19 %{ %stock_clang -O0 -std=gnu11 -fPIC -I%cacs_include -c %cacs_src_root/runtime/lib/coro.c -o %t/other.o %}
// RUN: %if llvm-22 %{ %stock_clang -O2 -fstack-protector-strong -std=gnu11 -fPIC -I%cacs_include -c %cacs_src_root/runtime/lib/coro.c -o %t/other.o %}
// RUN: %clang -O2 -fcacs-stack-bounds -I%cacs_include %S/stack-exact.c %t/other.o %cacs_rt_x86_64 -lpthread -o %t/other
// RUN: %t/other one | FileCheck %S/stack-exact.c --check-prefix=GUARDED
//
// Breaking it: CACS__STACK_BUDGETS_MEASURED defined 1 whatever the build
// gives `deep` exact stacks from the front door's and the -O0 coro.c (the
// GUARDED checks fail); the predicate without its __CACS__ term, from the
// front door's.
