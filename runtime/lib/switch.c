//===- lib/switch.c - Context initialisation -----------------------------===//

#include "cacs/switch.h"
#include "internal.h"

#include <stdint.h>

void cacs_context_init(cacs_context *ctx, void *stack_top, cacs_context_fn fn,
                       void *arg) {
  // Keep sp 16-byte aligned (both ABIs require it at calls) and place
  // {fn, arg} right at it, where the trampoline picks them up.
  uintptr_t top = (uintptr_t)stack_top & ~(uintptr_t)15;
  void **sp = (void **)(top - 16);
  sp[0] = (void *)fn;
  sp[1] = arg;
  ctx->sp = sp;
  ctx->pc = (void *)&cacs__trampoline;
  ctx->fp = 0; // terminates frame-pointer chains (gdb, perf, ASan)
  ctx->bp = 0;
  ctx->pr = 0;
  ctx->reserved = 0;
}
