// AArch64 (under qemu) runs of sync-stress.c (the pool and its locks on 2 workers;
// qemu runs the worker threads in parallel).
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O2 -fcoroutine-migration -I%cacs_include -I%S/Inputs %S/sync-stress.c %cacs_rt_aarch64 -lpthread -o %t
// RUN: %run_aarch64 %t 1000 2>&1 | FileCheck %S/sync-stress.c
