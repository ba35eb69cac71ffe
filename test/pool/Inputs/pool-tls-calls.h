// Shared by pool-tls-calls.c and pool-tls-calls-other.c: the pool calls
// that may move the calling coroutine to another worker (and a condition
// signal, which must not), and the state of one round (a tester and its
// partner).
#ifndef POOL_TLS_CALLS_H
#define POOL_TLS_CALLS_H

#include "cacs/pool.h"
#include "cacs/pool_sync.h"

struct st {
  cacs_pool_mutex m;
  cacs_pool_cond c;
  cacs_pool_sem s;
  cacs_pool_waitgroup wg;
  cacs_pool_rwlock rw;
  cacs_pool_chan *ch;
  cacs_pool_task *child;
  int item;
  int t_worker, p_worker;         // where the tester and the partner run
  int t_ready, p_ready, t_done;   // handshakes (__atomic builtins)
  cacs_pool *pool;
  cacs_pool_task *occupier;       // see occupy() (pool-tls-calls.c)
};

// X(name, function, arguments): the call under test, as the tester makes
// it. Every one but the signal is a migration point (cacs/pool.h,
// cacs/pool_sync.h).
#define POOL_CALLS(X)                                                          \
  X(yield, cacs_pool_yield, ())                                                \
  X(sleep, cacs_pool_sleep, (300))                                             \
  X(join, cacs_pool_join, (S->child))                                          \
  X(lock, cacs_pool_mutex_lock, (&S->m, CACS_POOL_FOREVER))                    \
  X(lock_dispatch, cacs_pool_mutex_lock, (&S->m, CACS_POOL_FOREVER))           \
  X(unlock, cacs_pool_mutex_unlock, (&S->m))                                   \
  X(cond_wait, cacs_pool_cond_wait, (&S->c, &S->m, CACS_POOL_FOREVER))         \
  X(cond_signal, cacs_pool_cond_signal, (&S->c))                               \
  X(sem_wait, cacs_pool_sem_wait, (&S->s, CACS_POOL_FOREVER))                  \
  X(sem_post, cacs_pool_sem_post, (&S->s))                                     \
  X(wg_wait, cacs_pool_waitgroup_wait, (&S->wg, CACS_POOL_FOREVER))            \
  X(wg_done, cacs_pool_waitgroup_done, (&S->wg))                               \
  X(chan_recv, cacs_pool_chan_recv, (S->ch, &S->item, CACS_POOL_FOREVER))      \
  X(chan_send, cacs_pool_chan_send, (S->ch, &S->item, CACS_POOL_FOREVER))      \
  X(rw_wrlock, cacs_pool_rwlock_wrlock, (&S->rw, CACS_POOL_FOREVER))           \
  X(rw_wrunlock, cacs_pool_rwlock_wrunlock, (&S->rw))

#ifdef __cplusplus
extern "C" {
#endif
// pool-tls-calls-other.c: each call made from another translation unit.
#define DECLARE_OTHER(name, fn, args) long other_##name(struct st *S);
POOL_CALLS(DECLARE_OTHER)
#undef DECLARE_OTHER
#ifdef __cplusplus
}
#endif

#endif
