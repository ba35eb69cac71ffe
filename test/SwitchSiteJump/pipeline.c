// The front door's -fswitch-site-jumps, the default, lowers each
// cacs_yield() at the end of an optimizing pipeline, after SwitchReturns has
// seen the call (the function still returns through the thunk); -O0 and
// -fno-switch-site-jumps keep the call; an LTO compile step keeps it for
// the link and records the setting, given or by default.
//
// RUN: %clang -O2 -I%cacs_include -S %s -o - | FileCheck %s
// RUN: %clang -O2 -fswitch-site-jumps -I%cacs_include -S %s -o - | FileCheck %s
// RUN: %clang -O1 -fswitch-site-jumps -I%cacs_include -S %s -o - | FileCheck %s
// RUN: %clang -O0 -fswitch-site-jumps -I%cacs_include -S %s -o - | FileCheck %s --check-prefix=CALL
// RUN: %clang -O2 -fno-switch-site-jumps -I%cacs_include -S %s -o - | FileCheck %s --check-prefix=CALL
// RUN: %clang -O2 -fswitch-site-jumps -fno-switch-site-jumps -I%cacs_include -S %s -o - | FileCheck %s --check-prefix=CALL
// RUN: %clang -O2 -flto -fswitch-site-jumps -I%cacs_include -S -emit-llvm %s -o - | FileCheck %s --check-prefix=STEP
// RUN: %clang -O2 -flto -I%cacs_include -S -emit-llvm %s -o - | FileCheck %s --check-prefix=STEP
// RUN: %clang -O2 -flto -fno-switch-site-jumps -I%cacs_include -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NOSTEP
//
// CHECK-LABEL: worker:
// CHECK:         #APP
// CHECK-NEXT:    leaq [[RESUME:.Ltmp[0-9]+]](%rip), %r11
// CHECK-NEXT:    movq %r11, -8(%rsp)
// CHECK-NEXT:    jmpq *cacs__yield_pn_jmp@GOTPCREL(%rip)
// CHECK-NEXT:  [[RESUME]]:
// CHECK-NEXT:    #NO_APP
// CHECK-NOT:     ret
// CHECK:         jmp __x86_return_thunk
// CALL-LABEL: worker:
// CALL-NOT:     cacs__yield_pn_jmp
// CALL:         callq cacs__yield_pn@PLT{{$}}
// CALL-NOT:     cacs__yield_pn_jmp
// STEP-LABEL: define {{.*}} @worker(
// STEP:         call preserve_nonecc void @{{.*}}cacs__yield_pn()
// STEP:       attributes #{{[0-9]+}} = { {{.*}}"cacs-switch-site-jumps"
// NOSTEP-NOT:  "cacs-switch-site-jumps"

#include "cacs/coro.h"

extern int work(int);

int worker(int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) {
    s += work(i);
    cacs_yield();
  }
  return s;
}
