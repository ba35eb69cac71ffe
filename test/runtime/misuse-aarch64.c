// misuse.c on AArch64 (qemu).
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O2 -I%cacs_include %S/misuse.c %cacs_rt_aarch64 -lpthread -o %t
// RUN: not --crash %run_aarch64 %t join-twice 2>&1 | FileCheck %S/misuse.c --check-prefix=TWICE
// RUN: not --crash %run_aarch64 %t join-other-thread 2>&1 | FileCheck %S/misuse.c --check-prefix=THREAD
// RUN: not --crash %run_aarch64 %t gen-resume-self 2>&1 | FileCheck %S/misuse.c --check-prefix=GEN-RESUME
// RUN: not --crash %run_aarch64 %t gen-destroy-self 2>&1 | FileCheck %S/misuse.c --check-prefix=GEN-DESTROY
// RUN: %run_aarch64 %t checked 2>&1 | FileCheck %S/misuse.c --check-prefix=CHECKED
