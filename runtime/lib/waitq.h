//===- lib/waitq.h - Intrusive FIFO of waiter records ------------*- C -*-===//
//
// The waiter queues of sync.c (one thread) and pool/pool_sync.c (the pool)
// and the cross-thread inbox (inbox.c) hold records of different types;
// each is a {head, tail} pair over records with `next` and `prev` links.
// The operations, once, as macros over any such pair.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_WAITQ_H
#define CACS_LIB_WAITQ_H

/// Append record `w` to queue `q`.
#define CACS__WAITQ_PUSH(q, w)                                                 \
  do {                                                                         \
    (w)->next = NULL;                                                          \
    (w)->prev = (q)->tail;                                                     \
    if ((q)->tail)                                                             \
      (q)->tail->next = (w);                                                   \
    else                                                                       \
      (q)->head = (w);                                                         \
    (q)->tail = (w);                                                           \
  } while (0)

/// Put record `w` first on queue `q` (a waiter that keeps its turn).
#define CACS__WAITQ_PUSH_FRONT(q, w)                                           \
  do {                                                                         \
    (w)->prev = NULL;                                                          \
    (w)->next = (q)->head;                                                     \
    if ((q)->head)                                                             \
      (q)->head->prev = (w);                                                   \
    else                                                                       \
      (q)->tail = (w);                                                         \
    (q)->head = (w);                                                           \
  } while (0)

/// Unlink record `w` from queue `q`.
#define CACS__WAITQ_REMOVE(q, w)                                               \
  do {                                                                         \
    if ((w)->prev)                                                             \
      (w)->prev->next = (w)->next;                                             \
    else                                                                       \
      (q)->head = (w)->next;                                                   \
    if ((w)->next)                                                             \
      (w)->next->prev = (w)->prev;                                             \
    else                                                                       \
      (q)->tail = (w)->prev;                                                   \
    (w)->next = (w)->prev = NULL;                                              \
  } while (0)

#endif // CACS_LIB_WAITQ_H
