// effect.c under valgrind memcheck (leaks included: a throw releases the
// coroutines it abandons), ASan (runtime compiled with it, so that the
// fiber annotations of every perform and resume are checked) and TSan.
// REQUIRES: valgrind
// RUN: %clang -O1 -gdwarf-4 -I%cacs_include %S/effect.c %cacs_rt_x86_64 -o %t
// RUN: valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite %t 1 2>%t.vg | FileCheck %S/effect.c --check-prefix=SMALL
// RUN: not grep -q . %t.vg
// RUN: %clang -O1 -g -fsanitize=address -I%cacs_include %S/effect.c $(%cacs_rt_objs %clang -O1 -g -fsanitize=address -I%cacs_include) -o %t.asan
// RUN: env ASAN_OPTIONS=detect_stack_use_after_return=1:detect_leaks=1 %t.asan 4 2>&1 | FileCheck %S/effect.c
// RUN: %clang -O1 -g -fsanitize=thread -I%cacs_include %S/effect.c $(%cacs_rt_objs %clang -O1 -g -fsanitize=thread -I%cacs_include) -o %t.tsan
// RUN: %t.tsan 2 2>&1 | FileCheck %S/effect.c
// effect-call.c (call handlers; the order case's call performs and is
// resumed on the call's stack, which the annotations must name):
// RUN: %clang -O1 -gdwarf-4 -fno-sync-block-check -I%cacs_include %S/effect-call.c %cacs_rt_x86_64 -o %tc
// RUN: valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite %tc 2>%tc.vg | FileCheck %S/effect-call.c
// RUN: not grep -q . %tc.vg
// RUN: %clang -O1 -g -fsanitize=address -fno-sync-block-check -I%cacs_include %S/effect-call.c $(%cacs_rt_objs %clang -O1 -g -fsanitize=address -I%cacs_include) -o %tc.asan
// RUN: env ASAN_OPTIONS=detect_stack_use_after_return=1:detect_leaks=1 %tc.asan 2>&1 | FileCheck %S/effect-call.c
// RUN: %clang -O1 -g -fsanitize=thread -fno-sync-block-check -I%cacs_include %S/effect-call.c $(%cacs_rt_objs %clang -O1 -g -fsanitize=thread -I%cacs_include) -o %tc.tsan
// RUN: %tc.tsan 2>&1 | FileCheck %S/effect-call.c
