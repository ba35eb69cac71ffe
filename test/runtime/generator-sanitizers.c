// generator.c under valgrind memcheck and under ASan (runtime compiled with
// ASan so the fiber annotations are active).
// REQUIRES: valgrind
// RUN: %clang -O1 -gdwarf-4 -I%cacs_include %S/generator.c %cacs_rt_x86_64 -o %t
// RUN: valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite %t 12 2>%t.vg | FileCheck %S/generator.c --check-prefix=SMALL
// RUN: not grep -q . %t.vg
// RUN: %clang -O1 -g -fsanitize=address -I%cacs_include %S/generator.c $(%cacs_rt_objs %clang -O1 -g -fsanitize=address -I%cacs_include) -o %t.asan
// RUN: env ASAN_OPTIONS=detect_stack_use_after_return=1 %t.asan 20 2>&1 | FileCheck %S/generator.c
