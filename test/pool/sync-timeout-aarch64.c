// AArch64 (under qemu) runs of sync-timeout.c (the pool and its locks on 2 workers;
// qemu runs the worker threads in parallel).
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O2 -fcoroutine-migration -I%cacs_include -I%S/Inputs %S/sync-timeout.c %cacs_rt_aarch64 -lpthread -o %t
// RUN: %run_aarch64 %t 2>&1 | FileCheck %S/sync-timeout.c
