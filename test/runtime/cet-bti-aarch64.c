// AArch64 BTI half of cet-bti.c: `bti j` (hint #36) after every resume label
// and at the trampoline entry, tail switch disabled, still runs (qemu).
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O2 -mbranch-protection=standard -I%cacs_include -E -dM %S/cet-bti.c | FileCheck %S/cet-bti.c --check-prefix=MACRO
// RUN: %clang %aarch64_flags -O2 -mbranch-protection=standard -I%cacs_include -S -o - %S/cet-bti.c | FileCheck %s
// RUN: %clang %aarch64_flags -mbranch-protection=standard -E %cacs_src_root/runtime/lib/trampoline_aarch64.S | FileCheck %s --check-prefix=TRAMP
// RUN: %clang %aarch64_flags -O2 -mbranch-protection=standard -I%cacs_include %S/cet-bti.c $(%cacs_rt_objs %clang %aarch64_flags -O2 -mbranch-protection=standard -I%cacs_include) -o %t && %run_aarch64 %t | FileCheck %S/cet-bti.c
//
// TRAMP: cacs__trampoline:
// TRAMP-NEXT: .cfi_startproc
// TRAMP-NEXT: .cfi_undefined x30
// TRAMP-NEXT: {{hint #36|bti j}}
// CHECK-LABEL: sum:
// CHECK: br x9
// CHECK-NEXT: .Ltmp{{[0-9]+}}:
// CHECK-NEXT: {{hint #36|bti j}}
