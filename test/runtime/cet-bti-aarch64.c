// AArch64 BTI half of cet-bti.c: `bti j` (hint #36) after every resume label
// and at the trampoline entry, tail switch disabled, still runs (qemu).
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O2 -mbranch-protection=standard -I%cacs_include -E -dM %S/cet-bti.c | FileCheck %S/cet-bti.c --check-prefix=MACRO
// RUN: %clang %aarch64_flags -O2 -mbranch-protection=standard -DCACS_DEFINE_TRAMPOLINE -I%cacs_include -S -o - %S/cet-bti.c | FileCheck %s
// RUN: %clang %aarch64_flags -O2 -mbranch-protection=standard -I%cacs_include %S/cet-bti.c %S/../../runtime/lib/coro.c %S/../../runtime/lib/generator.c %S/../../runtime/lib/stack.c %S/../../runtime/lib/switch.c %S/../../runtime/lib/yield_x86_64.S %S/../../runtime/lib/yield_aarch64.S -o %t && %run_aarch64 %t | FileCheck %S/cet-bti.c
//
// CHECK: cacs__trampoline:
// CHECK-NEXT: .cfi_startproc
// CHECK-NEXT: .cfi_undefined w30
// CHECK-NEXT: {{hint #36|bti j}}
// CHECK-LABEL: sum:
// CHECK: br x9
// CHECK-NEXT: .Ltmp{{[0-9]+}}:
// CHECK-NEXT: {{hint #36|bti j}}
