// AArch64 (under qemu) runs of effect.c, effect-misuse.c, effect-cxx.cpp,
// effect-fast.c and effect-call.c.
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O0 -I%cacs_include %S/effect.c %cacs_rt_aarch64 -o %t0 && %run_aarch64 %t0 2 | FileCheck %S/effect.c
// RUN: %clang %aarch64_flags -O2 -I%cacs_include %S/effect.c %cacs_rt_aarch64 -o %t2 && %run_aarch64 %t2 2 | FileCheck %S/effect.c
// RUN: %clang %aarch64_flags -O3 -fno-omit-frame-pointer -I%cacs_include %S/effect.c %cacs_rt_aarch64 -o %t3 && %run_aarch64 %t3 2 | FileCheck %S/effect.c
// RUN: %clang %aarch64_flags -O2 -I%cacs_include %S/effect-misuse.c %cacs_rt_aarch64 -o %tm
// RUN: not --crash %run_aarch64 %tm unhandled 2>&1 | FileCheck %S/effect-misuse.c --check-prefix=UNHANDLED
// RUN: not --crash %run_aarch64 %tm resume-running 2>&1 | FileCheck %S/effect-misuse.c --check-prefix=RUNNING
// RUN: not --crash %run_aarch64 %tm interleave 2>&1 | FileCheck %S/effect-misuse.c --check-prefix=INTERLEAVE
// RUN: not --crash %run_aarch64 %tm interleave-perform 2>&1 | FileCheck %S/effect-misuse.c --check-prefix=INTERLEAVE-PERFORM
// RUN: %clangxx %aarch64_flags -std=c++17 -O0 -I%cacs_include %S/effect-cxx.cpp %cacs_rt_aarch64 -o %tx0 && %run_aarch64 %tx0 | FileCheck %S/effect-cxx.cpp
// RUN: %clangxx %aarch64_flags -std=c++17 -O2 -I%cacs_include %S/effect-cxx.cpp %cacs_rt_aarch64 -o %tx2 && %run_aarch64 %tx2 | FileCheck %S/effect-cxx.cpp
// RUN: %clang %aarch64_flags -O2 -fno-sync-block-check -I%cacs_include %S/effect-fast.c %cacs_rt_aarch64 -o %tf && %run_aarch64 %tf | FileCheck %S/effect-fast.c
// RUN: not --crash %run_aarch64 %tf sync-abort 2>&1 | FileCheck %S/effect-fast.c --check-prefix=SYNC
// RUN: not --crash %run_aarch64 %tf foreign 2>&1 | FileCheck %S/effect-fast.c --check-prefix=FOREIGN
// RUN: %clang %aarch64_flags -O0 -fno-sync-block-check -I%cacs_include %S/effect-call.c %cacs_rt_aarch64 -o %tc0 && %run_aarch64 %tc0 | FileCheck %S/effect-call.c
// RUN: %clang %aarch64_flags -O2 -fno-sync-block-check -I%cacs_include %S/effect-call.c %cacs_rt_aarch64 -o %tc2 && %run_aarch64 %tc2 | FileCheck %S/effect-call.c
// RUN: not --crash %run_aarch64 %tc2 resume-in-call 2>&1 | FileCheck %S/effect-call.c --check-prefix=RUNNING
// RUN: not --crash %run_aarch64 %tc2 resume-abandoned 2>&1 | FileCheck %S/effect-call.c --check-prefix=ABANDONED
// RUN: not --crash %run_aarch64 %tc2 sync-switch 2>&1 | FileCheck %S/effect-call.c --check-prefix=SYNC
