// Under -fpreserve-none-callee-saved=none (x86-64, LLVM 22) cacs/coro.h binds
// the call cacs_yield() to cacs__yield_pn_none, which does not save rbp;
// the name cacs_yield without a call (its address) is the default-convention
// symbol, which saves every callee-saved register. The pass
// gives the entry the empty list: a preserve_none caller that keeps rbp (an
// exported one) calls it instead of jumping to it (a jump would return to
// its own callers with rbp clobbered); a caller that saves nothing jumps.
// Without the setting, calls go to cacs__yield_pn.
// REQUIRES: llvm-22
// RUN: %clang -O2 -S -fpreserve-none-callee-saved=none -I%cacs_include %s -o - | FileCheck %s --check-prefixes=CHECK,NONE
// RUN: %clang -O2 -S -I%cacs_include %s -o - | FileCheck %s --check-prefixes=CHECK,UP
// RUN: not %clang -O2 -S -fpreserve-none-callee-saved=none -I%cacs_include -DMUSTTAIL %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=MUSTTAIL
// RUN: not %clang -O2 -S -fpreserve-none-callee-saved=none -I%cacs_include -DADDRESS %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ADDRESS

#include "cacs/coro.h"

long count;

// CHECK-LABEL: exported_yield:
// NONE-NOT: jmp
// NONE: callq cacs__yield_pn_none@PLT
// UP: jmp cacs__yield_pn@PLT
// CHECK: .cfi_endproc
CACS_PRESERVE_NONE void exported_yield(void) {
  ++count;
  cacs_yield();
}

// CHECK-LABEL: by_address:
// CHECK: jmp cacs_yield@PLT
// CHECK: .cfi_endproc
void by_address(void) { (cacs_yield)(); }

// CHECK-LABEL: local_yield:
// NONE: jmp cacs__yield_pn_none@PLT
// UP: jmp cacs__yield_pn@PLT
// CHECK: .cfi_endproc
static CACS_PRESERVE_NONE __attribute__((noinline)) void local_yield(void) {
  count += 2;
  cacs_yield();
}
void call_local(void) { local_yield(); }

#ifdef MUSTTAIL
// MUSTTAIL: yield-none-entry.c:[[@LINE+1]]:{{[0-9]+}}: error: 'cacs__yield_pn_none' saves no register, rbp included: a musttail call of it would hand a caller that keeps rbp a clobbered rbp (in 'guaranteed')
CACS_PRESERVE_NONE void guaranteed(void) {
  [[clang::musttail]] return cacs_yield();
}
#endif

#ifdef ADDRESS
// ADDRESS: error: 'cacs__yield_pn_none' saves no register, rbp included: its address is taken
CACS_PRESERVE_NONE void (*taken)(void) = cacs__yield_none;
#endif
