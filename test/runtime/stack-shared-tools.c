// stack-shared.c under valgrind memcheck (libcacs tells it of every copy)
// and with AddressSanitizer (the runtime built with it: the copies are
// unpoisoned and unchecked), normal and debug mode: no errors, no leaks.
// REQUIRES: valgrind
// RUN: %clang -O1 -gdwarf-4 -I%cacs_include %S/stack-shared.c %cacs_rt_x86_64 -o %t
// RUN: valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite %t run 300 2>%t.vg | FileCheck %S/stack-shared.c
// RUN: not grep -q . %t.vg
// RUN: env CACS_SHARED_STACK_DEBUG=1 valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite %t run 50 2>%t.vg | FileCheck %S/stack-shared.c
// RUN: not grep -q . %t.vg
// RUN: %clang -O1 -g -fsanitize=address -I%cacs_include %S/stack-shared.c $(%cacs_rt_objs %clang -O1 -g -fsanitize=address -I%cacs_include) -lpthread -o %t.asan
// RUN: env ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1 %t.asan run 1000 2>&1 | FileCheck %S/stack-shared.c
// RUN: env ASAN_OPTIONS=detect_leaks=1 CACS_SHARED_STACK_DEBUG=1 %t.asan run 100 2>&1 | FileCheck %S/stack-shared.c
