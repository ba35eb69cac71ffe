# stats-mk.py SRC OUT: pool_sync.c with event counters (zs.h.txt saved as
# /tmp/zero48/stats/zs.h); never committed. See README.md.
import sys
s = open(sys.argv[1]).read()
def rep(a, b):
    global s
    assert s.count(a) == 1, (a[:60], s.count(a)); s = s.replace(a, b)
rep('#include <unistd.h>\n', '#include <unistd.h>\n#include "/tmp/zero48/stats/zs.h"\n')
rep('''  if (!woken && m_owner(m) == self)
    return EDEADLK;
  int fifo''', '''  if (!woken && m_owner(m) == self)
    return EDEADLK;
  ZS(0);
  int fifo''')
rep('''      if (m_spin(m))
        continue;''', '''      if (m_spin(m)) { ZS(1);
        continue; }''')
rep('''          (m_state(m) & M_QUEUED) && m_keep_turn(m))
        continue;''', '''          (m_state(m) & M_QUEUED) && m_keep_turn(m)) { ZS(13);
        continue; }''')
rep('''    int r = wait_served(&w, &sp, deadline, cancel_mutex, m);
    if (me)''', '''    ZS(2);
    int r = wait_served(&w, &sp, deadline, cancel_mutex, m);
    if (r == 0) ZS(3); else if (r == EAGAIN) ZS(4);
    if (me)''')
rep('''  int look = 0;
  if (s & (M_QUEUED | M_WOKEN)) {''', '''  int look = 0;
  ZS(5);
  if (s & (M_QUEUED | M_WOKEN)) {''')
rep('''    if (m_cas(m, &s, s & ~clear, __ATOMIC_RELEASE))
      return 0;
  }
  cacs__ptask *next''', '''    if (m_cas(m, &s, s & ~clear, __ATOMIC_RELEASE)) { ZS(6);
      return 0; }
  }
  cacs__ptask *next''')
rep('''    __atomic_fetch_and(&m->state, ~clear, __ATOMIC_RELEASE);
    return;
  }
  if (!inplace_head''', '''    __atomic_fetch_and(&m->state, ~clear, __ATOMIC_RELEASE); ZS(7);
    return;
  }
  if (!inplace_head''')
rep('''    s = __atomic_or_fetch(&m->state, M_STARVING, __ATOMIC_RELAXED);
    fifo = 1;''', '''    s = __atomic_or_fetch(&m->state, M_STARVING, __ATOMIC_RELAXED); ZS(12);
    fifo = 1;''')
rep('''    m_set_owner(m, w->self);
    serve(w, 0, inplace);
    return;''', '''    m_set_owner(m, w->self); ZS(8); if (inplace && waiter_local(w)) ZS(9);
    serve(w, 0, inplace);
    return;''')
rep('''  serve(w, EAGAIN, later);
}''', '''  ZS(10); if (waiter_local(w)) ZS(11);
  serve(w, EAGAIN, later);
}''')
open(sys.argv[2], 'w').write(s)
