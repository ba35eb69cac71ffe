// The sync-*.c tests with AddressSanitizer, the runtime sources compiled with
// it too (fiber annotations on; sync.c's waiter records live on coroutine
// stacks, so a record used after its wait returned is reported).
// RUN: %clang -O1 -g -fsanitize=address -I%cacs_include %S/sync-mutex.c $(%cacs_rt_objs %clang -O1 -g -fsanitize=address -I%cacs_include) -lpthread -o %t-mutex
// RUN: env ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1 %t-mutex 2>&1 | FileCheck %S/sync-mutex.c
// RUN: %clang -O1 -g -fsanitize=address -I%cacs_include %S/sync-cond.c $(%cacs_rt_objs %clang -O1 -g -fsanitize=address -I%cacs_include) -lpthread -o %t-cond
// RUN: env ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1 %t-cond 2>&1 | FileCheck %S/sync-cond.c
// RUN: %clang -O1 -g -fsanitize=address -I%cacs_include %S/sync-sem.c $(%cacs_rt_objs %clang -O1 -g -fsanitize=address -I%cacs_include) -lpthread -o %t-sem
// RUN: env ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1 %t-sem 2>&1 | FileCheck %S/sync-sem.c
// RUN: %clang -O1 -g -fsanitize=address -I%cacs_include %S/sync-waitgroup.c $(%cacs_rt_objs %clang -O1 -g -fsanitize=address -I%cacs_include) -lpthread -o %t-waitgroup
// RUN: env ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1 %t-waitgroup 2>&1 | FileCheck %S/sync-waitgroup.c
// RUN: %clang -O1 -g -fsanitize=address -I%cacs_include %S/sync-chan.c $(%cacs_rt_objs %clang -O1 -g -fsanitize=address -I%cacs_include) -lpthread -o %t-chan
// RUN: env ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1 %t-chan 2>&1 | FileCheck %S/sync-chan.c
// RUN: %clang -O1 -g -fsanitize=address -I%cacs_include %S/sync-xthread.c $(%cacs_rt_objs %clang -O1 -g -fsanitize=address -I%cacs_include) -lpthread -o %t-xthread
// RUN: env ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1 %t-xthread 2>&1 | FileCheck %S/sync-xthread.c
