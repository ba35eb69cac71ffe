// Exact stacks only from a libcacs built the way its stack budgets
// (cacs/detail/contract.h) are measured (stack_exact.h's
// CACS__STACK_BUDGETS_MEASURED): a bound counts a budget as all that a
// switching call uses on a stack without a guard, so a libcacs whose
// frames are larger must give guarded stacks instead. stack-exact.c's
// bounded entry `deep` gets an exact stack from libcacs as built; from a
// libcacs whose coro.c (the rule's object, linked before the archive) is
// built at -O0 (LLVM 19's suite) or with a stack protector (LLVM 22's), a
// guarded one, and it still runs. Built at -O0, libcacs's waits use well
// past their budgets (session 42, test/runtime/stack-budget.c, x86-64
// epoll: a timed channel wait 744 bytes, budget 248; a timed
// cacs_wait_fd 552, budget 216; cacs_accept 800, budget 608); with a
// stack protector a frame with an array gains a canary.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O2 -fcacs-stack-bounds -I%cacs_include %S/stack-exact.c %cacs_rt_x86_64 -lpthread -o %t/p
// RUN: %t/p one | FileCheck %S/stack-exact.c --check-prefix=EXACT
// RUN: %if llvm-19 %{ %clang -O0 -std=gnu11 -fPIC -I%cacs_include -c %cacs_src_root/runtime/lib/coro.c -o %t/coro.o %}
// RUN: %if llvm-22 %{ %clang -O2 -fstack-protector-strong -std=gnu11 -fPIC -I%cacs_include -c %cacs_src_root/runtime/lib/coro.c -o %t/coro.o %}
// RUN: %clang -O2 -fcacs-stack-bounds -I%cacs_include %S/stack-exact.c %t/coro.o %cacs_rt_x86_64 -lpthread -o %t/q
// RUN: %t/q one | FileCheck %S/stack-exact.c --check-prefix=GUARDED
//
// Breaking it: CACS__STACK_BUDGETS_MEASURED defined 1 whatever the build
// gives `deep` an exact stack from the -O0 coro.c too (GUARDED fails).
