// stack-many-guarded.c, scaled down, under valgrind memcheck and with
// AddressSanitizer (runtime sources built with it): slab stacks with guard
// regions (or the fallback guard) and their reuse raise no errors.
// REQUIRES: valgrind
// RUN: %clang -O1 -gdwarf-4 -I%cacs_include %S/stack-many-guarded.c %cacs_rt_x86_64 -o %t
// RUN: valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite %t 3000 2>%t.vg | FileCheck %s
// RUN: not grep -q . %t.vg
// RUN: env CACS_STACK_GUARD=mprotect valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite %t 3000 2>%t.vg | FileCheck %s
// RUN: not grep -q . %t.vg
// RUN: %clang -O1 -g -fsanitize=address -I%cacs_include %S/stack-many-guarded.c $(%cacs_rt_objs %clang -O1 -g -fsanitize=address -I%cacs_include) -lpthread -o %t.asan
// RUN: env ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1 %t.asan 20000 2>&1 | FileCheck %s
//
// CHECK: guard {{madvise|mprotect}}
// CHECK-NEXT: created [[N:[0-9]+]]
// CHECK-NEXT: suspended [[N]]
// CHECK-NEXT: finished [[N]], locals ok
// CHECK-NEXT: PASS
