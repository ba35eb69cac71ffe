//===- lib/generator.c - Generator creation and completion ---------------===//

#include "cacs/generator.h"
#include "internal.h"

#include <stdio.h>
#include <string.h>

static CACS_TLS uint64_t gen_ids;

static void gen_main(void *arg, uint64_t first) {
  (void)first;
  cacs_gen *g = (cacs_gen *)arg;
  // ASan: the resume that started us announced the switch (generator.h).
  if (cacs__asan_on())
    __sanitizer_finish_switch_fiber(NULL, &g->asan_caller_lo,
                                    &g->asan_caller_size);
  // SafeStack: from here on the generator's unsafe stack; a resume from a
  // unit without SafeStack (generator.h) left the resumer's pointer.
  void **usp = cacs__unsafe_sp_slot();
  if (usp && *usp != g->unsafe_self) {
    g->unsafe_caller = *usp;
    *usp = g->unsafe_self;
  }
  // TSan: the same for its fibers.
  if (g->tsan_self && __tsan_get_current_fiber() != g->tsan_self) {
    g->tsan_caller = __tsan_get_current_fiber();
    __tsan_switch_to_fiber(g->tsan_self, 0);
  }
  g->fn(g, g->arg);
  g->done = 1;
  if (usp)
    *usp = g->unsafe_caller;
  if (g->tsan_self)
    __tsan_switch_to_fiber(g->tsan_caller, 0);
  // NULL: this stack is finished, ASan may drop its fake frames.
  if (cacs__asan_on())
    __sanitizer_start_switch_fiber(NULL, g->asan_caller_lo,
                                   g->asan_caller_size);
  cacs_switch(&g->self, &g->caller, 0);
  __builtin_unreachable();
}

// Generator switches are inline in the user's code, and no compiler tells
// a unit built with -fsplit-stack apart: they cannot move libgcc's
// split-stack state, and a generator that grew a segment would corrupt its
// resumer's (internal.h). Refused, loudly, in programs with split stacks.
cacs_gen *cacs_gen_create(cacs_gen_fn fn, void *arg, size_t stack_size) {
  if (cacs__split_on())
    cacs__fatal("cacs: generators (cacs/generator.h) do not support "
                "-fsplit-stack: use coroutines (cacs/coro.h)\n");
  if (!stack_size)
    stack_size = CACS_STACK_SMALL_SIZE;
  cacs_gen *g = (cacs_gen *)cacs_stack_alloc(stack_size, sizeof(cacs_gen), 0);
  if (!g)
    return NULL;
  memset((char *)g + sizeof(cacs_stack), 0,
         sizeof(cacs_gen) - sizeof(cacs_stack));
  g->fn = fn;
  g->arg = arg;
  uint64_t id = ++gen_ids;
  char buf[32];
  snprintf(buf, sizeof buf, "generator#%llu", (unsigned long long)id);
  cacs_stack_set_owner(&g->stack, buf, id);
  if (cacs__tool_stacks_init(&g->tools, stack_size, &g->stack) != 0) {
    cacs_stack_free(&g->stack);
    return NULL;
  }
  if (g->tools.unsafe)
    g->unsafe_self = g->tools.unsafe->top;
  g->tsan_self = g->tools.tsan_fiber;
  g->asan_lo = g->stack.lo;
  g->asan_size = (size_t)((char *)g->stack.top - (char *)g->stack.lo);
  cacs_context_init(&g->self, g->stack.top, gen_main, g);
  g->self.pr = g->tools.scs_map;
  return g;
}

void cacs__gen_running(const cacs_gen *g, const char *call) {
  cacs__fatalf("cacs: %s('%s'): the generator is running: a generator "
               "cannot resume or destroy itself, nor one of the generators "
               "that resumed it\n",
               call, g->stack.owner);
}

void cacs_gen_destroy(cacs_gen *g) {
  if (!g)
    return;
  if (g->running)
    cacs__gen_running(g, "cacs_gen_destroy");
  cacs__tool_stacks_free(&g->tools);
  cacs_stack_free(&g->stack);
}
