// coro-scheduler.c with AddressSanitizer. The runtime sources are compiled
// with ASan too, so they use the fiber annotations
// (__sanitizer_{start,finish}_switch_fiber); a libcacs.a built without ASan
// has none and is not meant for ASan builds.
// RUN: %clang -O1 -g -fsanitize=address -I%cacs_include %S/coro-scheduler.c %cacs_rt_srcs -lpthread -lm -o %t
// RUN: env ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1 %t 100000 20000 2>&1 | FileCheck %S/coro-scheduler.c
