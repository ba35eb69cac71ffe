// sync-chan.c and sync-xthread.c under valgrind memcheck: no invalid access
// and no definite leak (the waiter records live on coroutine stacks).
// REQUIRES: valgrind
// RUN: %clang -O1 -gdwarf-4 -I%cacs_include %S/sync-chan.c %cacs_rt_x86_64 -lpthread -o %t-chan
// RUN: valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite %t-chan 2>%t-chan.vg | FileCheck %S/sync-chan.c
// RUN: not grep -q . %t-chan.vg
// RUN: %clang -O1 -gdwarf-4 -I%cacs_include %S/sync-xthread.c %cacs_rt_x86_64 -lpthread -o %t-x
// RUN: valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite %t-x 2>%t-x.vg | FileCheck %S/sync-xthread.c
// RUN: not grep -q . %t-x.vg
