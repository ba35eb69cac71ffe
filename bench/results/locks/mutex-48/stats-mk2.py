# mk2.py SRCDIR OUTDIR: mk.py for sources with m_keep_turn(m, since) and m_claim
import sys, os, subprocess, shutil, tempfile
src, out = sys.argv[1], sys.argv[2]
tmp = tempfile.mkdtemp()
for f in ('pool_sync.c', 'pool_worker.c', 'pool_waiter.h'):
    shutil.copy(os.path.join(src, f), tmp)
p = os.path.join(tmp, 'pool_sync.c'); s = open(p).read()
KT2 = 'm_keep_turn(cacs_pool_mutex *m, uint64_t since)' in s
COND_NEW = "if ((s & M_STARVING) || !(s & M_QUEUED) || now - since > STARVE_NS ||\n        !cacs__pool_owner_may_run"
COND_OLD = "if ((s & M_STARVING) || !(s & M_QUEUED) ||\n        !cacs__pool_owner_may_run"
if KT2:
    s = s.replace('static int m_keep_turn(cacs_pool_mutex *m, uint64_t since) {', 'static int m_keep_turn(cacs_pool_mutex *m) {')
    s = s.replace('m_keep_turn(m, since))', 'm_keep_turn(m))')
    assert COND_NEW in s
    s = s.replace(COND_NEW, COND_OLD)
open(p, 'w').write(s)
subprocess.check_call(['python3', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'stats-mk.py'), tmp, out])
p = os.path.join(out, 'pool_sync.c'); s = open(p).read()
if KT2:
    s = s.replace('static int m_keep_turn_(cacs_pool_mutex *m);', 'static int m_keep_turn_(cacs_pool_mutex *m, uint64_t since);')
    s = s.replace('static int m_keep_turn(cacs_pool_mutex *m) {', 'static int m_keep_turn(cacs_pool_mutex *m, uint64_t since) {')
    s = s.replace('int r_ = m_keep_turn_(m);', 'int r_ = m_keep_turn_(m, since);')
    s = s.replace('static int m_keep_turn_(cacs_pool_mutex *m) {', 'static int m_keep_turn_(cacs_pool_mutex *m, uint64_t since) {')
    s = s.replace('m_keep_turn(m)) { how_ |= 2;', 'm_keep_turn(m, since)) { how_ |= 2;')
    s = s.replace("int code_ = m_free_for(s, 1) ? 1 : (s & M_STARVING) ? 2 : !(s & M_QUEUED) ? 3 :", "int code_ = m_free_for(s, 1) ? 1 : (s & M_STARVING) ? 2 : !(s & M_QUEUED) ? 3 : now - since > STARVE_NS ? 5 :")
    assert COND_OLD in s
    s = s.replace(COND_OLD, COND_NEW)
if 'm_claim(m))' in s:
    a = "m_may_claim(me, timeout_us) && m_claim(m))\n      continue;"
    assert a in s
    s = s.replace(a, "m_may_claim(me, timeout_us) && ({ uint64_t c0_ = __rdtsc(); int cr_ = m_claim(m); mx_log(18, self, cr_, __rdtsc() - c0_, 0); cr_; })) { how_ |= 8;\n      continue; }")
open(p, 'w').write(s)
print('ok2')
