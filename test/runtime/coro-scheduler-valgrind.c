// coro-scheduler.c under valgrind memcheck (stacks are registered with
// valgrind by libcacs): no errors, no leaks.
// REQUIRES: valgrind
// RUN: %clang -O1 -gdwarf-4 -I%cacs_include %S/coro-scheduler.c %cacs_rt_x86_64 -lpthread -lm -o %t
// RUN: valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite %t 20000 20000 2>%t.vg | FileCheck %S/coro-scheduler.c
// RUN: not grep -q . %t.vg
