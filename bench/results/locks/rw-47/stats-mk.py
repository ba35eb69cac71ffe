import sys
s = open(sys.argv[1]).read()
def rep(a, b, cnt=1):
    global s
    assert s.count(a) == cnt, (a[:70], s.count(a))
    s = s.replace(a, b)
rep('#include <unistd.h>\n', '#include <unistd.h>\n#include "/tmp/rw47/stats/stats.h"\n')
rep('''  int r = wait_served(&w, &sp, deadline, cancel_rw, rw);
  if (me)
    cacs__pool_lock_wait(NULL);
  return r;''', '''  unsigned long long t0 = __rdtsc();
  int r = wait_served(&w, &sp, deadline, cancel_rw, rw);
  unsigned long long t1 = __rdtsc();
  if (kind == W_READER) { RS_INC(1); RS_ADD(1, t1 - t0); RS_INC(7); RS_ADD(7, t1 - rs_grant_r); }
  else { RS_INC(3); RS_ADD(3, t1 - t0); RS_INC(9); RS_ADD(9, t1 - rs_grant_w); }
  if (me)
    cacs__pool_lock_wait(NULL);
  return r;''')
rep('''rdlock_slow(cacs_pool_rwlock *rw,
                                                 int64_t timeout_us) {
  cacs__ptask *me = cacs__pool_self();
''', '''rdlock_slow(cacs_pool_rwlock *rw,
                                                 int64_t timeout_us) {
  cacs__ptask *me = cacs__pool_self();
  RS_INC(0);
''')
rep('''  uint64_t deadline = deadline_of(timeout_us);
  // The fast path may''', '''  uint64_t deadline = deadline_of(timeout_us);
  RS_INC(2);
  { uint32_t ms = m_state(&rw->wmu); if (m_owner(&rw->wmu) != self) { if (ms & M_LOCKED) RS_INC(11); if (ms & M_QUEUED) RS_INC(12); if (ms & M_WOKEN) RS_INC(13); if (ms >= M_SPIN1) RS_INC(14); if (!ms) RS_INC(15);} }
  // The fast path may''')
rep('''  if (m_owner(&rw->wmu) != self) {
    int r = mutex_lock_slow(&rw->wmu, me, timeout_us, 0, 0, 0);''', '''  if (m_owner(&rw->wmu) != self) {
    unsigned long long t0 = __rdtsc();
    int r = mutex_lock_slow(&rw->wmu, me, timeout_us, 0, 0, 0);
    RS_INC(4); RS_ADD(4, __rdtsc() - t0);''')
rep('''    q_remove(&rw->waiters, w);
    serve(w, 0,
          rw->kind''', '''    q_remove(&rw->waiters, w);
    RS_INC(5); rs_grant_w = __rdtsc();
    serve(w, 0,
          rw->kind''')
rep('''  if (!rw_cas(rw, &s, 0, __ATOMIC_RELEASE)) {
    spin_lock(&rw->spin);
    rw_grant_readers''', '''  if (!rw_cas(rw, &s, 0, __ATOMIC_RELEASE)) {
    RS_INC(6); rs_grant_r = __rdtsc();
    spin_lock(&rw->spin);
    rw_grant_readers''')
# writer marked with readers in
rep('''  uint32_t s = __atomic_fetch_or(&rw->state, RW_WRITER, __ATOMIC_ACQUIRE);
''', '''  uint32_t s = __atomic_fetch_or(&rw->state, RW_WRITER, __ATOMIC_ACQUIRE);
  if (rw_readers(s)) RS_INC(10);
''')
open(sys.argv[2], 'w').write(s)
