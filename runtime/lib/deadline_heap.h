//===- lib/deadline_heap.h - The binary min-heap of timers -----*- C -*-===//
//
// The one heap of deadlines behind both kinds of timer: the single-thread
// scheduler's (wait.c, cacs_coro) and each pool worker's (pool/pool_timer.c,
// cacs__ptask). Header-only so that each keeps its own typed copy, as fast
// as a hand-written one, and the pool's timers stay in the pool's objects:
// a program that never makes a pool links none of them.
//
// CACS__DEADLINE_HEAP(name, T, slot_t) defines, for an array `T **h` of `n`
// entries, each a T with the fields
//   uint64_t deadline;  // the key
//   slot_t timer_slot;  // 1 + the entry's index in the heap; 0: not in it
// the functions
//   name_push(h, &n, e)   add e (the array has room for it: name_reserve)
//   name_remove(h, &n, e) take out e, which is in the heap
//   name_reserve(&h, &cap, n)  room for one more: 0 as it was, 1 grown,
//                              -1 no memory (nothing changed)
// and h[0] is the earliest deadline while n != 0. A slot_t narrower than
// size_t is the caller's promise that the heap never holds more entries.
// The caller keeps any lock the heap needs.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_DEADLINE_HEAP_H
#define CACS_LIB_DEADLINE_HEAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define CACS__DEADLINE_HEAP(name, T, slot_t)                                 \
  static inline void name##_place(T **h, size_t i, T *e) {                   \
    h[i] = e;                                                                \
    e->timer_slot = (slot_t)(i + 1);                                         \
  }                                                                          \
                                                                             \
  static inline void name##_up(T **h, size_t i) {                            \
    T *e = h[i];                                                             \
    while (i > 0) {                                                          \
      size_t parent = (i - 1) / 2;                                           \
      if (h[parent]->deadline <= e->deadline)                                \
        break;                                                               \
      name##_place(h, i, h[parent]);                                         \
      i = parent;                                                            \
    }                                                                        \
    name##_place(h, i, e);                                                   \
  }                                                                          \
                                                                             \
  static inline void name##_down(T **h, size_t n, size_t i) {                \
    T *e = h[i];                                                             \
    for (;;) {                                                               \
      size_t child = 2 * i + 1;                                              \
      if (child >= n)                                                        \
        break;                                                               \
      if (child + 1 < n && h[child + 1]->deadline < h[child]->deadline)      \
        child++;                                                             \
      if (e->deadline <= h[child]->deadline)                                 \
        break;                                                               \
      name##_place(h, i, h[child]);                                          \
      i = child;                                                             \
    }                                                                        \
    name##_place(h, i, e);                                                   \
  }                                                                          \
                                                                             \
  static inline void name##_push(T **h, size_t *n, T *e) {                   \
    h[*n] = e;                                                               \
    name##_up(h, (*n)++);                                                    \
  }                                                                          \
                                                                             \
  static inline void name##_remove(T **h, size_t *n, T *e) {                 \
    size_t i = (size_t)e->timer_slot - 1;                                    \
    e->timer_slot = 0;                                                       \
    T *last = h[--*n];                                                       \
    if (last == e)                                                           \
      return;                                                                \
    /* The last entry fills the hole: it may belong above or below it. */    \
    name##_place(h, i, last);                                                \
    if (i > 0 && h[(i - 1) / 2]->deadline > last->deadline)                  \
      name##_up(h, i);                                                       \
    else                                                                     \
      name##_down(h, *n, i);                                                 \
  }                                                                          \
                                                                             \
  static inline int name##_reserve(T ***h, size_t *cap, size_t n) {          \
    if (n < *cap)                                                            \
      return 0;                                                              \
    size_t c = *cap ? 2 * *cap : 64;                                         \
    T **g = (T **)realloc(*h, c * sizeof *g);                                \
    if (!g)                                                                  \
      return -1;                                                             \
    *h = g;                                                                  \
    *cap = c;                                                                \
    return 1;                                                                \
  }

#endif // CACS_LIB_DEADLINE_HEAP_H
