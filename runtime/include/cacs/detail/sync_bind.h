//===- cacs/detail/sync_bind.h - Bindings of cacs/sync.h's calls -*- C -*-===//
//
// Internal: included by cacs/sync.h only, after its declarations; do not
// include it directly (its contents are not API and may change between
// releases). The macros of detail/bind.h send calls of the waiting calls of
// cacs/sync.h to their preserve_none entries.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_DETAIL_SYNC_BIND_H
#define CACS_DETAIL_SYNC_BIND_H

#if CACS__WAIT_NO_BP_BIND
CACS__WAIT_DECL CACS__PARK_BUDGET int cacs__call_mutex_lock(cacs_mutex *m,
                                                            int64_t timeout_us)
    CACS__WAIT_ENTRY(mutex_lock);
#define cacs_mutex_lock(...) cacs__call_mutex_lock(__VA_ARGS__)
#endif

#if CACS__WAIT_NO_BP_BIND
CACS__WAIT_DECL CACS__PARK_BUDGET int
cacs__call_cond_wait(cacs_cond *c, cacs_mutex *m, int64_t timeout_us)
    CACS__WAIT_ENTRY(cond_wait);
#define cacs_cond_wait(...) cacs__call_cond_wait(__VA_ARGS__)
#endif

#if CACS__WAIT_NO_BP_BIND
CACS__WAIT_DECL CACS__PARK_BUDGET int cacs__call_sem_wait(cacs_sem *s,
                                                          int64_t timeout_us)
    CACS__WAIT_ENTRY(sem_wait);
#define cacs_sem_wait(...) cacs__call_sem_wait(__VA_ARGS__)
#endif

#if CACS__WAIT_NO_BP_BIND
CACS__WAIT_DECL CACS__PARK_BUDGET int
cacs__call_waitgroup_wait(cacs_waitgroup *wg, int64_t timeout_us)
    CACS__WAIT_ENTRY(waitgroup_wait);
#define cacs_waitgroup_wait(...) cacs__call_waitgroup_wait(__VA_ARGS__)
#endif

#if CACS__WAIT_NO_BP_BIND
CACS__WAIT_DECL CACS__PARK_BUDGET int
cacs__call_chan_send(cacs_chan *ch, const void *item, int64_t timeout_us)
    CACS__WAIT_ENTRY(chan_send);
#define cacs_chan_send(...) cacs__call_chan_send(__VA_ARGS__)
#endif

#if CACS__WAIT_NO_BP_BIND
CACS__WAIT_DECL CACS__PARK_BUDGET int
cacs__call_chan_recv(cacs_chan *ch, void *item, int64_t timeout_us)
    CACS__WAIT_ENTRY(chan_recv);
#define cacs_chan_recv(...) cacs__call_chan_recv(__VA_ARGS__)
#endif

#if CACS__WAIT_NO_BP_BIND
CACS__WAIT_DECL CACS__PARK_BUDGET int cacs__call_xsem_wait(cacs_xsem *s,
                                                           int64_t timeout_us)
    CACS__WAIT_ENTRY(xsem_wait);
#define cacs_xsem_wait(...) cacs__call_xsem_wait(__VA_ARGS__)
#endif

#endif // CACS_DETAIL_SYNC_BIND_H
