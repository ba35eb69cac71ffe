// AArch64 (under qemu) runs of the sync-*.c tests.
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O2 -fauto-preserve-none -I%cacs_include %S/sync-mutex.c %cacs_rt_aarch64 -lpthread -o %t-mutex && %run_aarch64 %t-mutex | FileCheck %S/sync-mutex.c
// RUN: %clang %aarch64_flags -O2 -fauto-preserve-none -I%cacs_include %S/sync-cond.c %cacs_rt_aarch64 -lpthread -o %t-cond && %run_aarch64 %t-cond | FileCheck %S/sync-cond.c
// RUN: %clang %aarch64_flags -O2 -fauto-preserve-none -I%cacs_include %S/sync-sem.c %cacs_rt_aarch64 -lpthread -o %t-sem && %run_aarch64 %t-sem | FileCheck %S/sync-sem.c
// RUN: %clang %aarch64_flags -O2 -fauto-preserve-none -I%cacs_include %S/sync-waitgroup.c %cacs_rt_aarch64 -lpthread -o %t-waitgroup && %run_aarch64 %t-waitgroup | FileCheck %S/sync-waitgroup.c
// RUN: %clang %aarch64_flags -O2 -fauto-preserve-none -I%cacs_include %S/sync-chan.c %cacs_rt_aarch64 -lpthread -o %t-chan && %run_aarch64 %t-chan | FileCheck %S/sync-chan.c
// RUN: %clang %aarch64_flags -O2 -fauto-preserve-none -I%cacs_include %S/sync-xthread.c %cacs_rt_aarch64 -lpthread -o %t-xthread && %run_aarch64 %t-xthread | FileCheck %S/sync-xthread.c
// RUN: %clang %aarch64_flags -O0 -I%cacs_include %S/sync-chan.c %cacs_rt_aarch64 -lpthread -o %t0 && %run_aarch64 %t0 | FileCheck %S/sync-chan.c
// RUN: %clangxx %aarch64_flags -std=c++17 -O2 -fauto-preserve-none -I%cacs_include %S/sync-cxx.cpp %cacs_rt_aarch64 -lpthread -o %t-cxx && %run_aarch64 %t-cxx | FileCheck %S/sync-cxx.cpp
// RUN: %clang %aarch64_flags -O2 -I%cacs_include %S/sync-xthread-poll-hook.c %cacs_rt_aarch64 -lpthread -o %t-hook
// RUN: %run_aarch64 %t-hook watch | FileCheck --check-prefix=WATCH %S/sync-xthread-poll-hook.c
// RUN: %run_aarch64 %t-hook blind | FileCheck --check-prefix=BLIND %S/sync-xthread-poll-hook.c
