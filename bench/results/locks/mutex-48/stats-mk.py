# usage: mk.py SRCDIR(runtime/lib/pool) OUTDIR : writes instrumented pool_sync.c, pool_waiter.h, pool_worker.c
import sys, os
src, out = sys.argv[1], sys.argv[2]
def load(f): return open(os.path.join(src, f)).read()
def rep(s, a, b, cnt=1):
    assert s.count(a) == cnt, (a[:80], s.count(a))
    return s.replace(a, b)
# waiter fields
w = load('pool_waiter.h')
w = rep(w, '  uint64_t since;    // mutex: when it first queued (starvation)\n',
        '  uint64_t since;    // mutex: when it first queued (starvation)\n  uint64_t mx_wake_tsc, mx_home_cpu; uint32_t mx_state;\n')
open(os.path.join(out, 'pool_waiter.h'), 'w').write(w)
s = load('pool_sync.c')
s = rep(s, '#include "pool_waiter.h"\n', '#include "pool_waiter.h"\n#include "pool_internal.h"\n#include "/tmp/mutex48/stats/trace.h"\n'
 'static void *mx_last_owner; static uint64_t mx_last_rel, mx_acq_total;\n'
 'static __thread uint64_t mx_tacq;\n'
 'static inline void mx_acq(void *self, int how) {\n  ++mx_acq_total;\n'
 '  if (!(++mx_tacq & 0xffff)) mx_log(17, self, 0, mx_thread_cpu(), mx_acq_total);\n'
 '  if (__atomic_load_n(&mx_last_owner, __ATOMIC_RELAXED) != self) {\n'
 '    __atomic_store_n(&mx_last_owner, self, __ATOMIC_RELAXED);\n'
 '    mx_log(E_ACQ, self, how, __rdtsc() - mx_last_rel, mx_acq_total); } }\n'
 'static inline void mx_rel(void) { mx_last_rel = __rdtsc(); }\n')
# fast lock
s = rep(s, '''    CACS_MUSTTAIL return lock_taken_rare(m, timeout_us);
  m_set_owner(m, t);
  return 0;''', '''    CACS_MUSTTAIL return lock_taken_rare(m, timeout_us);
  m_set_owner(m, t);
  mx_acq(t, 0);
  return 0;''')
# unlock: record release time (all paths)
s = rep(s, '''int cacs_pool_mutex_unlock(cacs_pool_mutex *m) {
  cacs__ptask *t = cacs__pool_cur;''', '''int cacs_pool_mutex_unlock(cacs_pool_mutex *m) {
  cacs__ptask *t = cacs__pool_cur;
  mx_rel();''')
# keep_turn looks
s = rep(s, '''static int m_keep_turn(cacs_pool_mutex *m) {
  uint64_t last = cacs__now_ns();
  for (;;) {''', '''static int m_keep_turn_(cacs_pool_mutex *m);
static int m_keep_turn(cacs_pool_mutex *m) {
  uint64_t t0_ = __rdtsc();
  int r_ = m_keep_turn_(m);
  mx_log(E_KT_END, cacs__pool_cur, r_, __rdtsc() - t0_, 0);
  return r_;
}
static int m_keep_turn_(cacs_pool_mutex *m) {
  uint64_t last = cacs__now_ns(); unsigned ny_ = 0;
  for (;;) {''')
s = rep(s, '''    cacs__pool_yield();
    uint64_t now''', '''    cacs__pool_yield(); ++ny_;
    uint64_t now''')
# the look: logged right after it reads the state
s = rep(s, '''    last = now;
    uint32_t s = m_state(m);''', '''    last = now;
    uint32_t s = m_state(m);
    int code_ = m_free_for(s, 1) ? 1 : (s & M_STARVING) ? 2 : !(s & M_QUEUED) ? 3 : !cacs__pool_owner_may_run(m_owner(m)) ? 4 : 0;
    mx_log(E_KT_LOOK, cacs__pool_cur, code_, ny_, s); ny_ = 0;''')
# lock slow
s = rep(s, '''  int spun = 0, starving = 0;
  uint64_t deadline = 0;''', '''  int spun = 0, starving = 0, how_ = 0;
  uint64_t deadline = 0;''')
s = rep(s, '''      if (m_cas(m, &s, ns, __ATOMIC_ACQUIRE)) {
        m_set_owner(m, self);
        return 0;
      }
      continue;''', '''      if (m_cas(m, &s, ns, __ATOMIC_ACQUIRE)) {
        m_set_owner(m, self);
        mx_acq(self, 16 | how_ | (woken ? 4 : 0));
        return 0;
      }
      if (woken) mx_log(E_CASFAIL, self, s, 0, 0);
      continue;''')
s = rep(s, '''      spun = 1;
      if (m_spin(m))
        continue;
      if (keep_turn && woken && me && timeout_us < 0 && cacs__pool_pinned() &&
          (m_state(m) & M_QUEUED) && m_keep_turn(m))
        continue;''', '''      spun = 1;
      uint64_t st_ = __rdtsc();
      int sr_ = m_spin(m);
      mx_log(E_SPIN, self, sr_ | (woken ? 16 : 0), __rdtsc() - st_, m_state(m));
      if (sr_) { how_ |= 1;
        continue; }
      if (keep_turn && woken && me && timeout_us < 0 && cacs__pool_pinned() &&
          (m_state(m) & M_QUEUED) && m_keep_turn(m)) { how_ |= 2;
        continue; }''')
s = rep(s, '''    int r = wait_served(&w, &sp, deadline, cancel_mutex, m);''', '''
    mx_log(E_PARK, self, since != w.since ? 0 : 1, ns, 0);
    uint64_t pt_ = __rdtsc();
    int r = wait_served(&w, &sp, deadline, cancel_mutex, m);
    mx_log(E_PARKED, self, r, __rdtsc() - pt_, 0);
    if (r == 0) { mx_acq(self, 32); if (w.mx_wake_tsc) mx_log(E_FIRST, self, w.mx_state | 0x100, __rdtsc() - w.mx_wake_tsc, mx_thread_cpu() - w.mx_home_cpu); }
    if (r == EAGAIN) mx_log(E_FIRST, self, w.mx_state, __rdtsc() - w.mx_wake_tsc, mx_thread_cpu() - w.mx_home_cpu);''')
s = rep(s, '''    woken = 1;
    spun = 0;''', '''    woken = 1; how_ = 0;
    spun = 0;''')
# starve, handover, wake
s = rep(s, '''    s = __atomic_or_fetch(&m->state, M_STARVING, __ATOMIC_RELAXED);
    fifo = 1;''', '''    s = __atomic_or_fetch(&m->state, M_STARVING, __ATOMIC_RELAXED);
    mx_log(E_STARVE, NULL, s, waited, 0);
    fifo = 1;''')
s = rep(s, '''    m_set_owner(m, w->self);
    serve(w, 0, inplace);''', '''    m_set_owner(m, w->self);
    { pool_worker *h_ = w->task ? home_of(w->task) : NULL; uint32_t st_ = 5; uint64_t cpu_ = 0;
      if (h_) { st_ = atomic_load(&h_->sleeping) ? 2 : __atomic_load_n(&h_->cur, __ATOMIC_RELAXED) ? 0 : atomic_load(&h_->pool->nspinning) ? 1 : 3;
        struct timespec ts_; clock_gettime(h_->cpuclock, &ts_); cpu_ = ts_.tv_sec * 1000000000ull + ts_.tv_nsec; }
      w->mx_state = st_; w->mx_home_cpu = cpu_; w->mx_wake_tsc = __rdtsc();
      mx_log(E_HANDOVER, w->task, inplace_head | (waiter_local(w) ? 2 : 0) | (st_ << 4), waited, 0); }
    serve(w, 0, inplace);''')
s = rep(s, '''  } while (!m_cas(m, &s, ns, __ATOMIC_RELEASE));
  serve(w, EAGAIN, later);''', '''  } while (!m_cas(m, &s, ns, __ATOMIC_RELEASE));
  {
    pool_worker *h_ = w->task ? home_of(w->task) : NULL;
    uint32_t st_ = 5; uint64_t cpu_ = 0;
    if (h_) {
      st_ = atomic_load(&h_->sleeping) ? 2 : __atomic_load_n(&h_->cur, __ATOMIC_RELAXED) ? 0 : atomic_load(&h_->pool->nspinning) ? 1 : 3;
      struct timespec ts_; clock_gettime(h_->cpuclock, &ts_); cpu_ = ts_.tv_sec * 1000000000ull + ts_.tv_nsec;
    }
    w->mx_state = st_; w->mx_home_cpu = cpu_;
    mx_log(E_WAKE, w->task, st_, now - w->since, h_ ? h_->index : 99);
    w->mx_wake_tsc = __rdtsc();
  }
  serve(w, EAGAIN, later);''')
open(os.path.join(out, 'pool_sync.c'), 'w').write(s)
k = load('pool_worker.c')
k = rep(k, '#include "pool_spin.h"\n', '#include "pool_spin.h"\n#include "/tmp/mutex48/stats/trace.h"\n')
k = rep(k, '''  atomic_fetch_add_explicit(&p->nspinning, 1, memory_order_relaxed);
  uint64_t t0 = cacs__now_ns(), active = t0;''', '''  atomic_fetch_add_explicit(&p->nspinning, 1, memory_order_relaxed);
  mx_log(E_ISPIN_B, NULL, w->lock_owner != NULL, 0, 0);
  uint64_t t0 = cacs__now_ns(), active = t0;''')
k = rep(k, '''  atomic_fetch_sub_explicit(&p->nspinning, 1, memory_order_relaxed);
  return seen;''', '''  atomic_fetch_sub_explicit(&p->nspinning, 1, memory_order_relaxed);
  mx_log(E_ISPIN_E, NULL, seen, cacs__now_ns() - t0, 0);
  return seen;''')
k = rep(k, '''    else
      futex_wait_worker(p, w, e, deadline);''', '''    else {
      mx_log(E_SLEEP, NULL, 0, 0, 0);
      futex_wait_worker(p, w, e, deadline);
      mx_log(E_WAKEUP, NULL, 0, 0, 0);
    }''')
k = rep(k, '''  tls_worker = w;
  // Read by''', '''  tls_worker = w; mx_worker = (int)w->index;
  // Read by''')
open(os.path.join(out, 'pool_worker.c'), 'w').write(k)
print("ok")
