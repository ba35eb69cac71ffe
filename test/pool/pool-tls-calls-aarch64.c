// AArch64 (under qemu) runs of pool-tls-calls.c: every pool call that may
// move the coroutine, made in every way, is a switch point for
// -fcoroutine-migration at -O0, -O2, and -O2 -flto -fPIC; without the
// flag -O2 keeps the first thread's addresses. -O2 and the flagless
// build run on both LLVMs; -O0 on 19 and -flto on 22 (one CI run covers
// all four, in less time: qemu makes this one of the slowest tests).
// REQUIRES: qemu-aarch64
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang %aarch64_flags -O2 -fcoroutine-migration -rdynamic -I%cacs_include -I%S/Inputs %S/pool-tls-calls.c %S/Inputs/pool-tls-calls-other.c %cacs_rt_aarch64 -lpthread -ldl -o %t/O2
// RUN: %run_aarch64 %t/O2 | FileCheck %S/pool-tls-calls.c
// RUN: %if llvm-19 %{ %clang %aarch64_flags -O0 -fcoroutine-migration -rdynamic -I%cacs_include -I%S/Inputs %S/pool-tls-calls.c %S/Inputs/pool-tls-calls-other.c %cacs_rt_aarch64 -lpthread -ldl -o %t/O0 %}
// RUN: %if llvm-19 %{ %run_aarch64 %t/O0 | FileCheck %S/pool-tls-calls.c %}
// RUN: %if llvm-22 %{ %clang %aarch64_flags -O2 -fcoroutine-migration -flto -fPIC -rdynamic -I%cacs_include -I%S/Inputs %S/pool-tls-calls.c %S/Inputs/pool-tls-calls-other.c %cacs_rt_aarch64 -lpthread -ldl -o %t/lto %}
// RUN: %if llvm-22 %{ %run_aarch64 %t/lto | FileCheck %S/pool-tls-calls.c %}
// RUN: %clang %aarch64_flags -O2 -rdynamic -I%cacs_include -I%S/Inputs %S/pool-tls-calls.c %S/Inputs/pool-tls-calls-other.c %cacs_rt_aarch64 -lpthread -ldl -o %t/stale
// RUN: %run_aarch64 %t/stale | FileCheck %S/pool-tls-calls.c --check-prefix=STALE
