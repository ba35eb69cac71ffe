#!/usr/bin/env python3
"""Markdown: the default pool's mutex against each peer per critical section,
medians and Mann-Whitney U (pool above peer, of n1 x n2), from run.py's results.json."""
import json, sys, statistics as st
f = sys.argv[1]
crit = {(7, 7): (8, 41), (5, 5): (2, 23)}
runs = {}
for r in json.load(open(f))['results']:
    if r.get('status') == 'ok':
        runs[(r['impl'], r['cs_ns'])] = r['mops_runs']
ref = 'cacs CES, default pool'
peers = [('Go sync.Mutex / RWMutex', 'Go'), ('pthread mutex / rwlock (OS threads)', 'pthread'),
         ('Boost.Fiber mutex (work_stealing)', 'Boost.Fiber'), ('cacs CES', 'CES migrating'),
         ('cacs dispatch, default pool', 'dispatch, default')]
print("| cs | pool | " + " | ".join("%s (U)" % n for _, n in peers) + " |")
print("|---|---|" + "---|" * len(peers))
for c in sorted({k[1] for k in runs}):
    a = runs[(ref, c)]
    row = ["%d ns" % c, "%.4g" % st.median(a)]
    for impl, n in peers:
        b = runs.get((impl, c))
        if not b:
            row.append("-"); continue
        u = sum(1 if x > y else .5 if x == y else 0 for x in a for y in b)
        lo, hi = crit.get((len(a), len(b)), (None, None))
        mark = "" if lo is None else (" **+**" if u >= hi else " **-**" if u <= lo else "")
        row.append("%.4g (%g)%s" % (st.median(b), u, mark))
    print("| " + " | ".join(row) + " |")
