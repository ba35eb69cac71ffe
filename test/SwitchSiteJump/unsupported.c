// Where -fswitch-site-jumps cannot work it does nothing, says so, and the
// compile succeeds: AArch64 (the lowering is x86-64 only: yields, performs
// and resumes stay calls there) and -fcf-protection=full (a shadow stack, which
// cacs does not support), each with a missed remark per call and no warning
// (the flag is the default: silent on every target, given or not); a
// sanitizer (a missed remark per call under TSan; under ASan
// cacs_yield binds to the `_bp` entry, which has no site; libcacs's annotated
// slow path switches there).
//
// RUN: %clang --target=aarch64-linux-gnu -O2 -fswitch-site-jumps -Rpass-missed=switch-site-jump -I%cacs_include -S %s -o - 2>&1 | FileCheck %s --check-prefix=A64
// RUN: %clang --target=aarch64-linux-gnu -O2 -I%cacs_include -S %s -o /dev/null 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: %clang -O2 -fswitch-site-jumps -fsanitize=thread -Rpass-missed=switch-site-jump -I%cacs_include -S %s -o - 2>&1 | FileCheck %s --check-prefix=TSAN
// RUN: %clang -O2 -fswitch-site-jumps -fsanitize=address -I%cacs_include -S %s -o - 2>&1 | FileCheck %s --check-prefix=ASAN
// RUN: %clang -O2 -fswitch-site-jumps -fcf-protection=full -Rpass-missed=switch-site-jump -I%cacs_include -S %s -o - 2>&1 | FileCheck %s --check-prefix=FULL
//
// QUIET-NOT: {{.}}
// A64-NOT: warning
// A64: remark: cacs_yield stays a call: it is implemented for x86-64 ELF only [-Rpass-missed=switch-site-jump]
// A64: remark: cacs_effect_perform stays a call: it is implemented for x86-64 ELF only [-Rpass-missed=switch-site-jump]
// A64-NOT: _pn_jmp
// A64: bl cacs__yield_pn
// A64-NOT: _pn_jmp
// A64: bl cacs__effect_perform_pn
// A64-NOT: _pn_jmp
// A64: bl cacs__effect_resume_pn
// A64-NOT: _pn_jmp
// TSAN: remark: cacs_yield stays a call: the function is instrumented by a sanitizer [-Rpass-missed=switch-site-jump]
// TSAN-NOT: cacs__yield_pn_jmp
// TSAN: callq cacs__yield_pn
// ASAN-NOT: cacs__yield_pn_jmp
// ASAN: callq cacs__yield_pn_bp
// ASAN-NOT: cacs__yield_pn_jmp
// FULL-NOT: warning
// FULL: remark: cacs_yield stays a call: cacs does not support shadow stacks (-fcf-protection=return) [-Rpass-missed=switch-site-jump]
// FULL-NOT: cacs__yield_pn_jmp
// FULL: callq cacs__yield_pn

#include "cacs/coro.h"
#include "cacs/effect.h"

CACS_EFFECT(ask, int, int);

void worker(void) { cacs_yield(); }
int performer(void) { return CACS_PERFORM(ask, 1); }
cacs_effect_request resumer(cacs_effect_coro *k) {
  return cacs_effect_resume(k, CACS_HANDLES(ask), NULL);
}
