//===- lib/join.c - The end of a coroutine: exit, join, detach ------------===//
//
// A coroutine finishes (cacs_exit, or by returning from its entry) and is
// then either joined, by a coroutine of its thread that waits for it and
// frees it, or, detached, freed by the scheduler.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#include "core.h"
#include "errors.h"
#include "shared_stack.h"
#include "switch_tools.h"
#include "syncblock.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

CACS__DEFAULT_ENTRY(int, join, cacs__join_pn, (cacs_coro * c), (c))

void cacs_exit(void) {
  cacs__sync_check("cacs_exit");
  cacs_coro *c = current();
  if (c == &S.main) {
    static const char msg[] =
        "cacs: cacs_exit() called on the main coroutine\n";
    ssize_t r = write(2, msg, sizeof msg - 1);
    (void)r;
    abort();
  }
  c->state = CORO_DONE;
  if (c->joiner)
    cacs_wake(c->joiner);
  cacs_coro *to = c->next;
  if (to == c)
    cacs__deadlock(c);
  ring_unlink(c);
  if (c->detached) { // its stack is freed by the next cacs__reap_zombies()
    cacs__live_remove(c);
    c->next = S.zombies;
    S.zombies = c;
    S.count--;
  }
  if (c->lazy && c->stack.map) // its stack back once the thread is off it
    cacs__coro_exit_stack(c);
  S.current = to;
  if (__builtin_expect(S.fpenv_users != 0, 0))
    cacs__fpenv_switch(c, to);
  if ((c->flags & CACS_CORO_SAVE_FPENV) && --S.fpenv_users == 0)
    switch_mode_update();
  unsafe_switch(NULL, to);
  scs_switch(NULL, to);
  split_switch(c, to);
  asan_start(c, to, 1);
  if (cacs__tsan_on() && cold(to)->tsan_resume)
    __tsan_switch_to_fiber(cold(to)->tsan_resume, 0);
  if (__builtin_expect(S.shared_users != 0, 0)) { // shared_stack.h
    cacs__shared_exit(&c->stack);
    if (cacs__shared_via_switcher(&c->stack, &to->stack))
      cacs__shared_enter(NULL, to); // does not return
  }
  cacs__coro_resume(to->sp);
}

// Misuse on a handle that may be freed, or another thread's, aborts naming
// it (cacs__bad_handle): reading it would be undefined behaviour. Misuse
// on a live handle of this thread fails with errno, as pthread_join does.
int cacs__join_pn(cacs_coro *c) {
  pool_refuse("cacs_join");
  cacs_coro *self = current();
  if (c == self)
    return cacs__fail(EDEADLK);
  if (!c || c == &S.main || c == S.service)
    return cacs__fail(EINVAL);
  size_t slot;
  if (!S.live_cap || S.live[slot = live_find(c)] != c)
    cacs__bad_handle("cacs_join", c);
  if (c->detached || (c->joiner && c->joiner != self))
    return cacs__fail(EINVAL);
  while (c->state != CORO_DONE) {
    c->joiner = self;
    park_self(self);
    self = S.current; // resumed: current again (no spill of `self`)
  }
  S.count--;
  // Its slot, unless the table changed while this waited (grown, halved,
  // or entries moved back).
  if (slot >= S.live_cap || S.live[slot] != c)
    slot = live_find(c);
  live_remove_at(slot);
  // Its stack could not be had at its first run (coro.c): it never ran.
  int failed = c->launch_failed;
  cacs__coro_free(c);
  return failed ? cacs__fail(ENOMEM) : 0;
}

int cacs_detach(cacs_coro *c) {
  if (!c || c == &S.main || c == S.service)
    return cacs__fail(EINVAL);
  if (!cacs__live_has(c))
    cacs__bad_handle("cacs_detach", c);
  if (c->detached || c->joiner)
    return cacs__fail(EINVAL);
  if (c->state == CORO_DONE) {
    S.count--;
    cacs__live_remove(c);
    cacs__coro_free(c);
  } else {
    c->detached = 1;
  }
  return 0;
}
