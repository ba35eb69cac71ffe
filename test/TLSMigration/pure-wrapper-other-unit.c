// The `pure` and `const` wrappers of pure-wrapper.c in a unit of their own
// (Inputs/pure-wrappers.c). The callers' unit sees only the declarations
// with their attributes; with -fcoroutine-migration cacs does not believe
// that a call of a declaration writes no inaccessible memory (it may hide
// a switch), so the callers re-read errno's and the __thread variable's
// addresses after each call: every case fresh at -O2, -fPIC
// (global-dynamic), full LTO and ThinLTO, on x86-64 and AArch64, as with
// stock clang -O0 on x86-64.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -O2 -fcoroutine-migration -w -I%cacs_include -DWRAPPERS_ELSEWHERE %S/pure-wrapper.c %S/Inputs/pure-wrappers.c %cacs_rt_x86_64 -lpthread -o %t/O2
// RUN: %t/O2 | FileCheck %S/pure-wrapper.c
// RUN: %clang -O2 -fcoroutine-migration -fPIC -ftls-model=global-dynamic -w -I%cacs_include -DWRAPPERS_ELSEWHERE %S/pure-wrapper.c %S/Inputs/pure-wrappers.c %cacs_rt_x86_64 -lpthread -o %t/gd
// RUN: %t/gd | FileCheck %S/pure-wrapper.c
// RUN: %clang -O2 -flto -fcoroutine-migration -w -I%cacs_include -DWRAPPERS_ELSEWHERE %S/pure-wrapper.c %S/Inputs/pure-wrappers.c %cacs_rt_x86_64 -lpthread -o %t/lto
// RUN: %t/lto | FileCheck %S/pure-wrapper.c
// RUN: %clang -O2 -flto=thin -fcoroutine-migration -w -I%cacs_include -DWRAPPERS_ELSEWHERE %S/pure-wrapper.c %S/Inputs/pure-wrappers.c %cacs_rt_x86_64 -lpthread -o %t/thin
// RUN: %t/thin | FileCheck %S/pure-wrapper.c
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -fcoroutine-migration -w -I%cacs_include -DWRAPPERS_ELSEWHERE %S/pure-wrapper.c %S/Inputs/pure-wrappers.c %cacs_rt_aarch64 -lpthread -o %t/a64 %}
// RUN: %if qemu-aarch64 %{ %run_aarch64 %t/a64 | FileCheck %S/pure-wrapper.c %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -fcoroutine-migration -fPIC -ftls-model=global-dynamic -w -I%cacs_include -DWRAPPERS_ELSEWHERE %S/pure-wrapper.c %S/Inputs/pure-wrappers.c %cacs_rt_aarch64 -lpthread -o %t/a64-gd %}
// RUN: %if qemu-aarch64 %{ %run_aarch64 %t/a64-gd | FileCheck %S/pure-wrapper.c %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -flto -fcoroutine-migration -w -I%cacs_include -DWRAPPERS_ELSEWHERE %S/pure-wrapper.c %S/Inputs/pure-wrappers.c %cacs_rt_aarch64 -lpthread -o %t/a64-lto %}
// RUN: %if qemu-aarch64 %{ %run_aarch64 %t/a64-lto | FileCheck %S/pure-wrapper.c %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -flto=thin -fcoroutine-migration -w -I%cacs_include -DWRAPPERS_ELSEWHERE %S/pure-wrapper.c %S/Inputs/pure-wrappers.c %cacs_rt_aarch64 -lpthread -o %t/a64-thin %}
// RUN: %if qemu-aarch64 %{ %run_aarch64 %t/a64-thin | FileCheck %S/pure-wrapper.c %}
//
// Stock clang: -O0 is right on x86-64 (AArch64 -O0 reads TPIDR_EL0 once
// per basic block: STOCK-A64-O0); at -O2 the callers reuse the
// addresses across the calls, every case stale on both targets. (It also
// folds pure-tls-compare's `before != after` to false and drops the call of
// wait_flag there, whose result only that comparison used: the coroutine
// switches once less, is resumed past its end and aborts.)
// RUN: %stock_clang -O0 -w -I%cacs_include -DWRAPPERS_ELSEWHERE %S/pure-wrapper.c %S/Inputs/pure-wrappers.c %cacs_rt_x86_64 -lpthread -o %t/stock-O0
// RUN: %t/stock-O0 | FileCheck %S/pure-wrapper.c
// RUN: %stock_clang -O2 -w -I%cacs_include -DWRAPPERS_ELSEWHERE %S/pure-wrapper.c %S/Inputs/pure-wrappers.c %cacs_rt_x86_64 -lpthread -o %t/stock-O2
// RUN: not --crash %t/stock-O2 | FileCheck %s --check-prefix=STOCK-O2
// RUN: %if qemu-aarch64 %{ %stock_clang %aarch64_flags -O0 -w -I%cacs_include -DWRAPPERS_ELSEWHERE %S/pure-wrapper.c %S/Inputs/pure-wrappers.c %cacs_rt_aarch64 -lpthread -o %t/stock-a64-O0 %}
// RUN: %if qemu-aarch64 %{ %run_aarch64 %t/stock-a64-O0 | FileCheck %s --check-prefix=STOCK-A64-O0 %}
// RUN: %if qemu-aarch64 %{ %stock_clang %aarch64_flags -O2 -w -I%cacs_include -DWRAPPERS_ELSEWHERE %S/pure-wrapper.c %S/Inputs/pure-wrappers.c %cacs_rt_aarch64 -lpthread -o %t/stock-a64-O2 %}
// RUN: %if qemu-aarch64 %{ ulimit -c 0; not --crash %run_aarch64 %t/stock-a64-O2 | FileCheck %s --check-prefix=STOCK-O2 %}
//
// STOCK-O2:      pure-errno: stale
// STOCK-O2-NEXT: pure-tls-compare: stale
// STOCK-O2-NEXT: const-errno: stale
// STOCK-O2-NEXT: const-tls-value: stale
// STOCK-O2-NEXT: stale: 4
//
// STOCK-A64-O0:      pure-errno: fresh
// STOCK-A64-O0-NEXT: pure-tls-compare: stale
// STOCK-A64-O0-NEXT: const-errno: fresh
// STOCK-A64-O0-NEXT: const-tls-value: stale
// STOCK-A64-O0-NEXT: stale: 2
