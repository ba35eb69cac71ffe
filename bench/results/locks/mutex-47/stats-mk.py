import sys
s = open(sys.argv[1]).read()
def rep(a, b, cnt=1):
    global s
    assert s.count(a) == cnt, (a[:70], s.count(a))
    s = s.replace(a, b)
rep('#include <unistd.h>\n', '#include <unistd.h>\n#include "/tmp/mutex47/stats/stats.h"\n')
rep('''    int r = wait_served(&w, &sp, deadline, cancel_mutex, m);''',
    '''    unsigned long long t0_ = __rdtsc();
    int r = wait_served(&w, &sp, deadline, cancel_mutex, m);
    RS_INC(1); RS_ADD(1, __rdtsc() - t0_);''')
rep('''  void *self = self_id(me);
  if (!woken && m_owner(m) == self)
    return EDEADLK;''', '''  void *self = self_id(me);
  RS_INC(0);
  if (!woken && m_owner(m) == self)
    return EDEADLK;''')
rep('''  uint32_t passes = __atomic_load_n(&m->passes, __ATOMIC_RELAXED);
''', '''  uint32_t passes = __atomic_load_n(&m->passes, __ATOMIC_RELAXED);
  RS_INC(8);
  if ((s & M_QUEUED) && (s & M_WOKEN) && cacs__pool_idle_elsewhere()) RS_INC(2);
''')
rep('''  serve(w, EAGAIN, later);
}''', '''  RS_INC(3); if (waiter_local(w)) RS_INC(4);
  if (w->task && cacs__pool_idle_elsewhere() && cacs__pool_home_idle(w->task)) RS_INC(5);
  serve(w, EAGAIN, later);
}''')
rep('''    s = __atomic_or_fetch(&m->state, M_STARVING, __ATOMIC_RELAXED);''',
    '''    s = __atomic_or_fetch(&m->state, M_STARVING, __ATOMIC_RELAXED); RS_INC(6);''')
rep('''    m_set_owner(m, w->self);
    serve(w, 0, inplace);''', '''    m_set_owner(m, w->self); RS_INC(7);
    serve(w, 0, inplace);''')
open(sys.argv[2], 'w').write(s)
