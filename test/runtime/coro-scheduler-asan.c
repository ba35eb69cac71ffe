// coro-scheduler.c with AddressSanitizer, the runtime sources compiled with
// ASan too. (The runtime makes the fiber annotations,
// __sanitizer_{start,finish}_switch_fiber, whenever the program has ASan:
// test/Build/install-asan.test runs this program against the installed
// libcacs.a, built without it.)
// RUN: %clang -O1 -g -fsanitize=address -I%cacs_include %S/coro-scheduler.c $(%cacs_rt_objs %clang -O1 -g -fsanitize=address -I%cacs_include) -lpthread -lm -o %t
// RUN: env ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1 %t 100000 20000 2>&1 | FileCheck %S/coro-scheduler.c
