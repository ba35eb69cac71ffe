import struct, sys, collections
f = open(sys.argv[1], 'rb').read()
r, n = struct.unpack_from('<dQ', f, 0)
EV = struct.Struct('<QBBHIQQ')
raw = [EV.unpack_from(f, 16 + i * 32) for i in range(n)]
evs = [(e[0], e[1] & 63) + e[2:] for e in raw]
cpu_of = {}
for e in raw: cpu_of[(e[0], e[2], e[1] & 63)] = e[1] >> 6
evs.sort(key=lambda e: e[0])
names = {1:'ACQ',2:'WAKE',3:'FIRST',4:'SPIN',5:'CASFAIL',6:'KT_LOOK',7:'KT_END',8:'PARK',9:'PARKED',10:'STARVE',11:'HANDOVER',12:'ISPIN_B',13:'ISPIN_E',14:'SLEEP',15:'WAKEUP',16:'x',17:'CPU',18:'CLAIM'}
us = lambda t: t * r / 1000.0
cnt = collections.Counter(names[e[1]] for e in evs)
print('events', dict(cnt))
t0, t1 = evs[0][0], evs[-1][0]
print('span ms %.1f' % (us(t1 - t0) / 1000))
verbose = len(sys.argv) > 2
# acquisitions: runs
acqs = [e for e in evs if e[1] == 1]
taskw = {}
for e in acqs: taskw[e[3]] = e[2]
runs = collections.Counter(); xgap = []; sgap = []; paths = collections.Counter()
prev = None
runlen_x = []; runtime_x = []
last_x = None
for e in acqs:
    paths[e[4]] += 1
    if prev is not None:
        if e[2] != prev[2]:
            xgap.append(us(e[5]))
            if last_x is not None:
                runlen_x.append(e[6] - last_x[6]); runtime_x.append(us(e[0] - last_x[0]))
            last_x = e
        else:
            sgap.append(us(e[5]))
    else: last_x = e
    prev = e
def med(a): a = sorted(a); return a[len(a)//2] if a else float('nan')
def pct(a, p): a = sorted(a); return a[min(len(a)-1, int(len(a)*p))] if a else float('nan')
print('owner changes: same worker %d (gap med %.2f us), cross worker %d (gap med %.2f p90 %.2f us, total %.0f us)' % (len(sgap), med(sgap), len(xgap), med(xgap), pct(xgap, .9), sum(xgap)))
print('acq paths at changes', dict(paths))
if runlen_x:
    print('worker runs: n=%d len med %d mean %.0f, dur med %.0f us mean %.0f us; in-run rate %.1f M/s' % (len(runlen_x), med(runlen_x), sum(runlen_x)/len(runlen_x), med(runtime_x), sum(runtime_x)/len(runtime_x), sum(runlen_x)/sum(runtime_x)))
total_acq = acqs[-1][6] - acqs[0][6] if acqs else 0
print('total acquisitions %d over %.1f ms: %.2f M/s' % (total_acq, us(acqs[-1][0]-acqs[0][0])/1000, total_acq/us(acqs[-1][0]-acqs[0][0])))
# per wake episodes
st = {0:'running',1:'spinning',2:'asleep',3:'between',5:'thread'}
ep = collections.defaultdict(list)
bytask = collections.defaultdict(list)
for e in evs: bytask[e[3]].append(e)
lat = collections.defaultdict(list); cpuw = collections.defaultdict(list)
outcomes = collections.Counter(); spins = collections.Counter(); ktl = collections.Counter(); ktend = collections.Counter()
casf = 0; epdur = []; tries_fail = []
for tk, es in bytask.items():
    cur = None
    for e in es:
        ty = e[1]
        if ty == 3 and e[4] & 0x100:
            lat['HO-' + st.get(e[4] & 0xff, str(e[4]))].append(us(e[5])); cpuw['HO-' + st.get(e[4] & 0xff, str(e[4]))].append(us(e[5]) - e[6] / 1000.0); continue
        if ty == 2: # wake
            cur = {'t': e[0], 'st': e[4], 'casf': 0, 'looks': 0}
        elif cur is None: continue
        elif ty == 3:
            lat[st.get(e[4], e[4])].append(us(e[5]))
            cpuw[st.get(e[4], e[4])].append(us(e[5]) - e[6] / 1000.0)
        elif ty == 4:
            spins[('woken' if e[4] & 16 else 'plain', e[4] & 1)] += 1
        elif ty == 5: cur['casf'] += 1
        elif ty == 6: ktl[e[4]] += 1; cur['looks'] += 1
        elif ty == 7: ktend[e[4]] += 1
        elif ty == 1:
            outcomes[('acq', e[4])] += 1; epdur.append(us(e[0] - cur['t'])); tries_fail.append(cur['casf']); cur = None
        elif ty == 8:
            outcomes['repark'] += 1; epdur.append(us(e[0] - cur['t'])); tries_fail.append(cur['casf']); cur = None
for tk, es in bytask.items():
    for e in es:
        if e[1] == 4 and not (e[4] & 16): spins[('any-plain', e[4] & 1)] += 0
print('wake->first try (us) by home state at wake:')
for k, v in lat.items():
    print('  %-9s n=%d med %.1f p90 %.1f max %.1f | wall-cpu med %.1f p90 %.1f' % (k, len(v), med(v), pct(v,.9), max(v), med(cpuw[k]), pct(cpuw[k], .9)))
print('woken episodes: outcomes', dict(outcomes), 'dur med %.1f p90 %.1f us' % (med(epdur), pct(epdur,.9)), 'cas fails total', sum(tries_fail))
print('spins (kind, success):', dict(spins))
print('keep_turn looks by code (0 held,1 free,2 starving,3 unqueued,4 owner stopped):', dict(ktl), 'ends', dict(ktend))
parks = [us(e[5]) for e in evs if e[1] == 9]
print('parks n=%d med %.1f us, >=400us %d, sum %.0f ms' % (len(parks), med(parks), sum(1 for p in parks if p >= 400), sum(parks)/1000))
print('starve sets', cnt['STARVE'], 'handovers', cnt['HANDOVER'])
isp = [e for e in evs if e[1] == 13]
print('idle spins: n=%d seen %d, dur med %.1f us; sleeps %d' % (len(isp), sum(1 for e in isp if e[4]), med([e[5]/1000 for e in isp]), cnt['SLEEP']))
if verbose:
    lim = int(sys.argv[2])
    for e in evs[:lim]:
        print('%10.2f w%d t%-3d %-8s a=%x b=%d c=%d' % (us(e[0]-t0), e[2], e[3] if e[3] != 0xffff else -1, names[e[1]], e[4], e[5], e[6]))
# cross-worker gap total (skip bogus), handover latency
xg = [g for g in xgap if g < 1e6]
print('cross-worker gaps: n=%d total %.1f ms of span %.1f ms; >100us: %d totalling %.1f ms' % (len(xg), sum(xg)/1000, us(t1-t0)/1000, sum(1 for g in xg if g > 100), sum(g for g in xg if g > 100)/1000))
ho = {}
hl = collections.defaultdict(list)
for e in evs:
    if e[1] == 11: ho[e[3]] = e
    elif e[1] == 1 and e[4] == 32 and e[3] in ho:
        h = ho.pop(e[3]); hl['local' if h[4] & 2 else 'remote'].append(us(e[0]-h[0]))
for k, v in hl.items():
    print('handover->run %s: n=%d med %.1f p90 %.1f max %.1f total %.1f ms' % (k, len(v), med(v), pct(v,.9), max(v), sum(v)/1000))

# holder rate per wall and per CPU, from per-thread samples every 65536 acquisitions
last = {}; rw_, rc_ = [], []
for e in evs:
    if e[1] == 1: last = {k: v for k, v in last.items() if k != ('chg',)}; last[('chg', e[2])] = True
    if e[1] == 1:
        for k in list(last.keys()):
            if k[0] == 'cpu': del last[k]
    if e[1] == 17:
        k = ('cpu', e[2])
        if k in last:
            p = last[k]
            dt = us(e[0] - p[0]); dc = (e[5] - p[5]) / 1000.0
            if dt > 0 and dc > 0: rw_.append(65536 / dt); rc_.append(65536 / dc)
        last[k] = e
if rw_:
    print('holder in-run (no owner change between samples): n=%d, M/s wall med %.1f, per CPU-s med %.1f (p10 %.1f p90 %.1f)' % (len(rw_), med(rw_), med(rc_), pct(rc_, .1), pct(rc_, .9)))

cl = [e for e in evs if e[1] == 18]
if cl: print('claims n=%d won %d, dur med %.1f us p90 %.1f' % (len(cl), sum(1 for e in cl if e[4]), med([us(e[5]) for e in cl]), pct([us(e[5]) for e in cl], .9)))

# same-CPU analysis: per WAKE, the waker's CPU vs the woken's CPU at FIRST
wk = {}
same = collections.Counter(); lat_same = collections.defaultdict(list)
for e in evs:
    if e[1] == 2: wk[e[3]] = e
    elif e[1] == 3 and not (e[4] & 0x100) and e[3] in wk:
        w = wk.pop(e[3]); cw = cpu_of[(w[0], w[2], 2)]; cf = cpu_of[(e[0], e[2], 3)]
        k = 'same' if cw == cf else 'other'; same[k] += 1; lat_same[k].append(us(e[5]))
print('wake->first: woken ran on the waker CPU:', dict(same), {k: '%.1f us med' % med(v) for k, v in lat_same.items()})
# share of events where the two workers were last seen on the same CPU
last = {}; both = 0; tot = 0
for e in raw:
    w = e[2]; c = e[1] >> 6
    if w == 255: continue
    last[w] = c
    if len(last) >= 2:
        tot += 1; both += len(set(last.values())) == 1
print('events with both workers last seen on one CPU: %.0f %%' % (100.0 * both / max(tot, 1)))
