//===- lib/stack_tools.c - The stacks tools need beside a coroutine's -----===//
//
// Tools that keep per-stack state of their own need it per coroutine too:
// SafeStack's unsafe stack, the AArch64 shadow call stack, a TSan fiber,
// libgcc's split-stack context. Whether a program uses each is a link-time
// fact (weak references, internal.h), so one libcacs serves programs with
// and without them; a coroutine gets only the ones its program needs
// (cacs__tool_stacks_init, called by coro.c and generator.c).
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#include "cacs/stack.h"
#include "errors.h"
#include "internal.h"
#include "stack_internal.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

// --- SafeStack (internal.h) -----------------------------------------------
// Weak: both are defined by compiler-rt's SafeStack runtime, which the driver
// links into SafeStack programs only. The function tells whether it is there;
// the variable is read only then.
extern __thread void *__safestack_unsafe_stack_ptr
    __attribute__((weak, tls_model("initial-exec")));
void *__get_unsafe_stack_ptr(void) __attribute__((weak));

void **cacs__unsafe_sp_slot(void) {
  return __get_unsafe_stack_ptr ? &__safestack_unsafe_stack_ptr : NULL;
}

// Always a stack of its own, even for a CACS_STACK_SHARED owner: the unsafe
// frames are never copied off a shared stack, so a shared one would hold
// several coroutines' unsafe frames at the same addresses.
static cacs_stack *unsafe_stack_alloc(size_t size, const cacs_stack *s) {
  cacs_stack *u = (cacs_stack *)cacs_stack_alloc(
      size, sizeof(cacs_stack),
      s->flags & ~(unsigned)(CACS_STACK_SHARED | CACS__STACK_UNNAMED));
  if (!u)
    return NULL;
  char name[sizeof u->owner];
  size_t n = 0;
  for (const char *p = "unsafe stack of "; *p && n + 1 < sizeof name; ++p)
    name[n++] = *p;
  const char *owner = cacs__stack_owner(s);
  for (const char *p = owner ? owner : ""; *p && n + 1 < sizeof name; ++p)
    name[n++] = *p;
  name[n] = 0;
  cacs_stack_set_owner(u, name, s->owner_id);
  return u;
}

// --- AArch64 shadow call stack (internal.h) ---------------------------------

int cacs__scs_on;

void cacs__scs_register(void) {
#if defined(__aarch64__) && defined(CACS_FIXED_X18)
  cacs__scs_on = 1;
#else
  cacs__fatal("cacs: this libcacs was built without -ffixed-x18 and cannot "
              "switch shadow call stacks (-fsanitize=shadow-call-stack)\n");
#endif
}

// One return address per instrumented frame, and a frame takes at least 16
// bytes of the stack: half the stack size is always enough.
static void *scs_alloc(size_t stack_size, size_t *map_size) {
  cacs__stack_thread_init();
  size_t size = cacs__round_up(stack_size / 2, page_size);
  char *map = mmap(NULL, size + page_size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (map == MAP_FAILED)
    return NULL;
  if (mprotect(map + size, page_size, PROT_NONE) != 0) {
    int e = errno;
    munmap(map, size + page_size);
    cacs__set_errno(e);
    return NULL;
  }
  *map_size = size + page_size;
  return map;
}

// --- all of them (internal.h) -----------------------------------------------

int cacs__tool_stacks_init(cacs__tool_stacks *t, size_t size,
                           const cacs_stack *s) {
  memset(t, 0, sizeof *t);
  if (cacs__unsafe_sp_slot() && !(t->unsafe = unsafe_stack_alloc(size, s)))
    return -1;
  if (cacs__scs_on && !(t->scs_map = scs_alloc(size, &t->scs_map_size))) {
    int e = errno;
    cacs__tool_stacks_free(t);
    return cacs__fail(e);
  }
  if (cacs__tsan_on()) {
    t->tsan_fiber = __tsan_create_fiber(0);
    const char *owner = cacs__stack_owner(s);
    __tsan_set_fiber_name(t->tsan_fiber, owner ? owner : "");
  }
  return 0;
}

void cacs__tool_stacks_free(cacs__tool_stacks *t) {
  if (t->tsan_fiber)
    __tsan_destroy_fiber(t->tsan_fiber);
  if (t->scs_map)
    munmap(t->scs_map, t->scs_map_size);
  cacs_stack_free(t->unsafe);
  memset(t, 0, sizeof *t);
}

// --- -fsplit-stack (internal.h) ----------------------------------------------

// The slots of libgcc's context (generic-morestack.c).
enum {
  SPLIT_SEGMENTS = 0,
  SPLIT_CURRENT = 1,
  SPLIT_GUARD = 3,
  SPLIT_INITIAL_SP = 4,
  SPLIT_INITIAL_SP_LEN = 5,
};

void cacs__split_ctx_init(void *ctx[CACS_SPLIT_CTX_WORDS],
                          const cacs_stack *s) {
  memset(ctx, 0, CACS_SPLIT_CTX_WORDS * sizeof *ctx);
  size_t len = (size_t)((char *)s->top - (char *)s->lo);
  // Room below the limit for __morestack itself and for code built without
  // split stacks (libc, libcacs) that split-stack code calls.
  size_t margin = len / 2 < 16384 ? len / 2 : 16384;
  ctx[SPLIT_GUARD] = (char *)s->lo + margin;
  ctx[SPLIT_INITIAL_SP] = s->top;
  ctx[SPLIT_INITIAL_SP_LEN] = (void *)len;
}
