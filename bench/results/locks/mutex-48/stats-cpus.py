import struct, collections, sys
for fn in sys.argv[1:]:
    f = open(fn, 'rb').read()
    r, n = struct.unpack_from('<dQ', f, 0)
    EV = struct.Struct('<QBBHIQQ')
    c = collections.Counter(); seq = []
    evs = sorted((EV.unpack_from(f, 16 + i * 32) for i in range(n)), key=lambda e: e[0])
    # time-weighted co-location: between consecutive events, both workers' last CPU
    last = {}; tco = 0.0; ttot = 0.0; prev = None
    for e in evs:
        if e[2] == 255: continue
        if prev is not None and len(last) == 2:
            dt = (e[0] - prev) * r
            ttot += dt; tco += dt if last[0] == last[1] else 0
        last[e[2]] = e[1] >> 6; prev = e[0]
        c[(e[2], e[1] >> 6)] += 1
    print(fn, 'events (worker,cpu):', sorted(c.items()), 'time co-located %.0f %%' % (100 * tco / max(ttot, 1)))
