// XFAIL: *
// The `pure` and `const` wrappers of pure-wrapper.c in a unit of their own.
// The callers' unit sees only the declarations with their attributes, and
// its -O2 compile step reuses errno's and the __thread variable's
// addresses across the calls (every case stale, x86-64 and AArch64), under
// full LTO too: the compile step merged them before the link could see the
// definitions. All cacs gives today is the warning in the wrappers' unit
// (pure-wrapper-warning.c). A fix would drop `pure` and `const` from every
// declaration that is not a library function in units built with
// -fcoroutine-migration, at a cost to every legitimate pure function.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -O2 -flto -fcoroutine-migration -w -I%cacs_include -DWRAPPERS_ELSEWHERE %S/pure-wrapper.c %S/Inputs/pure-wrappers.c %cacs_rt_x86_64 -lpthread -o %t/lto
// RUN: %t/lto | FileCheck %S/pure-wrapper.c
