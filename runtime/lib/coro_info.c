//===- lib/coro_info.c - Coroutine identity: self, ids, names, count ------===//
//
// What a coroutine can be asked: which one is running, whether it is the
// thread's main one or finished, its id and name (a coroutine's name and id
// live in its stack descriptor, where the overflow report finds them).
//
//===----------------------------------------------------------------------===//

#include "core.h"

#include <stdio.h>

cacs_coro *cacs_self(void) { return current(); }
int cacs_is_main(const cacs_coro *c) { return c == &S.main; }
int cacs_done(const cacs_coro *c) { return c->state == CORO_DONE; }
uint64_t cacs_id(const cacs_coro *c) { return c->stack.owner_id; }
const char *cacs_name(const cacs_coro *c) {
  const char *name = cacs__stack_owner(&c->stack);
  if (name)
    return name;
  // A coroutine created without a name keeps none (coro.c):
  // its "coro#<id>" is made on the first request and kept from then on.
  char buf[32];
  snprintf(buf, sizeof buf, "coro#%llu", (unsigned long long)cacs_id(c));
  cacs_stack *s = (cacs_stack *)&c->stack;
  cacs_stack_set_owner(s, buf, s->owner_id);
  name = cacs__stack_owner(s);
  return name ? name : "coro"; // a shared stack's copy: no memory for it
}
void cacs_set_name(cacs_coro *c, const char *name) {
  cacs_stack_set_owner(&c->stack, name, c->stack.owner_id);
  if (cacs__tsan_on() && cold(c)->tsan_fiber) // TSan's reports name it
    __tsan_set_fiber_name(cold(c)->tsan_fiber, cacs_name(c));
}
size_t cacs_count(void) { return S.count; }
