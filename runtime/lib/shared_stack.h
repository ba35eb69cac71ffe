//===- lib/shared_stack.h - Switching to shared-stack coroutines -*- C -*-===//
//
// Shared (copy) stacks (cacs/stack.h, "Shared stacks"): a coroutine created
// with CACS_STACK_SHARED runs on a stack other coroutines run on too, and is
// copied off it and back by stack_shared.c. The copying cannot run on the
// shared stack itself, which it overwrites, so a switch that needs it goes
// through the thread's switcher stack (sched.c: cacs__shared_enter): the
// outgoing coroutine is suspended by the ordinary slow switch into a fresh
// context on the switcher stack, which copies and resumes the incoming
// one. Only the slow path of the switch (S.slow, set while a shared-stack
// coroutine exists) and cacs_exit come here; the fast path is unchanged.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_SHARED_STACK_H
#define CACS_LIB_SHARED_STACK_H

#include "cacs/stack.h"

/// Whether switching from `from` to `to` must copy (go through the
/// switcher): `to` is not resident on its shared stack, or `from` is in
/// the debug mode, which protects it at every switch-out.
int cacs__shared_via_switcher(const cacs_stack *from, const cacs_stack *to);
/// Top of the calling thread's switcher stack (16-byte aligned); it exists
/// once a shared-stack coroutine was created on this thread.
void *cacs__shared_switcher(void);
/// On the switcher stack: make `to` resident (save the resident coroutine,
/// whose stack pointer its registration gave, and put back `to`'s frames);
/// `to_sp` is where `to`'s stack pointer is kept while it is out. `from`
/// (NULL: finishing) is saved and protected only in the debug mode.
void cacs__shared_xfer(cacs_stack *from, void *const *from_sp, cacs_stack *to,
                       void *const *to_sp);
/// A finishing coroutine leaves its shared stack (nothing to save).
void cacs__shared_exit(cacs_stack *dying);
/// A fresh shared-stack coroutine's first frames, `len` bytes (a multiple
/// of 16) that go right below its stack's top; returns where they will
/// start. `image` is not copied: it must stay as it is until the coroutine
/// has run (one static image serves every coroutine).
void *cacs__shared_set_image(cacs_stack *s, const void *image, size_t len);

#endif // CACS_LIB_SHARED_STACK_H
