// cacs/switch.h's tail switch under -fpreserve-none-callee-saved=none
// stores neither rbp nor rbx: the callers of the enclosing function must
// save them, which holds only where the pass gives the function the empty
// list. In one that keeps rbp, its callers would continue with a stale rbp:
// libcacs's effect resume crashed so (docs/hazards.md). The pass refuses the
// form there, naming the function and why it keeps rbp: exported, address
// taken, invoked (a destructor in scope; without the check this program
// crashes at -O0). A static function called directly compiles
// (test/runtime/tail-switch-none.test runs one), and so does every case
// without the setting, where the form saves both registers.
// REQUIRES: llvm-22
// RUN: not %clangxx -O0 -fpreserve-none-callee-saved=none -I%cacs_include -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,O0
// RUN: not %clangxx -O2 -fpreserve-none-callee-saved=none -I%cacs_include -S %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clangxx -O0 -fpreserve-none-callee-saved=none -DONLY_DIRECT -I%cacs_include -S %s -o /dev/null
// RUN: %clangxx -O2 -I%cacs_include -S %s -o /dev/null
//
// (At -O2 the compiler finds invoked_switch cannot throw: a call, no error.)
// CHECK-DAG: error: the tail switch of cacs/switch.h in 'exported_switch' leaves rbp to its callers (-fpreserve-none-callee-saved=none), but 'exported_switch' keeps rbp callee-saved: it is exported: code compiled elsewhere expects rbp preserved; the form needs a function that saves nothing (docs/callee-saved.md), or a build without the setting
// O0-DAG: error: the tail switch of cacs/switch.h in '{{.*}}invoked_switch{{.*}}' leaves rbp {{.*}}: it is invoked;
// CHECK-DAG: error: the tail switch of cacs/switch.h in '{{.*}}address_switch{{.*}}' leaves rbp {{.*}}: its address is taken;
// CHECK-NOT: error: {{.*}}direct_switch

#include "cacs/switch.h"

#ifndef ONLY_DIRECT
extern "C" __attribute__((noinline)) CACS_PRESERVE_NONE uint64_t
exported_switch(cacs_context *from, cacs_context *to, uint64_t v) {
  CACS_SAVE_CALLER_BP(bp);
  CACS_TAIL_SWITCH_BP(from, to, v, bp);
}

__attribute__((noinline)) CACS_PRESERVE_NONE static uint64_t
invoked_switch(cacs_context *from, cacs_context *to, uint64_t v) {
  CACS_SAVE_CALLER_BP(bp);
  CACS_TAIL_SWITCH_BP(from, to, v, bp);
}

__attribute__((noinline)) CACS_PRESERVE_NONE static uint64_t
address_switch(cacs_context *from, cacs_context *to, uint64_t v) {
  CACS_SAVE_CALLER_BP(bp);
  CACS_TAIL_SWITCH_BP(from, to, v, bp);
}
#endif

__attribute__((noinline)) CACS_PRESERVE_NONE static uint64_t
direct_switch(cacs_context *from, cacs_context *to, uint64_t v) {
  CACS_SAVE_CALLER_BP(bp);
  CACS_TAIL_SWITCH_BP(from, to, v, bp);
}

struct guard {
  long *p;
  ~guard() { ++*p; }
};
void may_throw();
cacs_context a, b;

long callers(long *d) {
  long r = (long)direct_switch(&a, &b, 1);
#ifndef ONLY_DIRECT
  guard g{d};
  may_throw();
  r += (long)invoked_switch(&a, &b, 2);
  r += (long)exported_switch(&a, &b, 3);
  uint64_t (*CACS_PRESERVE_NONE volatile f)(cacs_context *, cacs_context *,
                                            uint64_t) = address_switch;
  r += (long)f(&a, &b, 4);
#endif
  return r;
}
