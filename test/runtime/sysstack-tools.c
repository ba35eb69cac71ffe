// sysstack.c under valgrind memcheck (the system stack's first page below
// the saved stack pointer is made addressable for it: memcheck otherwise
// reports the call's first push there), ASan (runtime compiled with it: the
// stack change is announced as a fiber switch, so a stack-buffer-overflow
// on the system stack is reported with its frame's variable, which ASan
// does not find without the announcement, and a backtrace into the
// coroutine) and TSan.
// REQUIRES: valgrind
// RUN: %clang -O1 -gdwarf-4 -I%cacs_include %S/sysstack.c %cacs_rt_x86_64 -lpthread -o %t
// RUN: valgrind -q --error-exitcode=99 %t ok 2>%t.vg | FileCheck %S/sysstack.c --check-prefix=OK
// RUN: not grep -q . %t.vg
// RUN: %clang -O1 -g -fsanitize=address -I%cacs_include %S/sysstack.c %cacs_rt_srcs -lpthread -o %t.asan
// RUN: env ASAN_OPTIONS=detect_stack_use_after_return=1:detect_leaks=1 %t.asan ok 2>&1 | FileCheck %S/sysstack.c --check-prefix=OK
// RUN: env ASAN_OPTIONS=detect_stack_use_after_return=0 not %t.asan oob 2>&1 | FileCheck %s --check-prefix=ASAN
// RUN: %clang -O1 -g -fsanitize=thread -I%cacs_include %S/sysstack.c %cacs_rt_srcs -lpthread -o %t.tsan
// RUN: %t.tsan ok 2>&1 | FileCheck %S/sysstack.c --check-prefix=OK
//
// ASAN: ERROR: AddressSanitizer: stack-buffer-overflow
// ASAN: #0 {{.*}} in oob {{.*}}sysstack.c
// ASAN: on_system_stack
// ASAN-NEXT: in bad_coro {{.*}}sysstack.c
// ASAN: 'local'{{.*}}overflows this variable
