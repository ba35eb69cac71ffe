import sys, collections
d = collections.defaultdict(list); loads = []
bins = []
for l in open(sys.argv[1]):
    r, t, o, c, b, m, ld = l.split()
    if b not in bins: bins.append(b)
    if m != 'NA': d[(int(t), o, int(c), b)].append(float(m))
    loads.append(float(ld))
def med(a): a = sorted(a); return a[len(a)//2] if a else float('nan')
print('load %.1f-%.1f, runs per cell %d' % (min(loads), max(loads), max(len(v) for v in d.values())))
print('| tasks | lock | cs ns | ' + ' | '.join(bins) + ' | ' + ' | '.join('%s/%s' % (b, bins[0]) for b in bins[1:]) + ' |')
print('|' + '---|' * (3 + 2 * len(bins) - 1))
for t in (4, 64):
    for o in ('mutex', 'rw'):
        for c in (0, 100, 500, 5000):
            ms = [med(d[(t, o, c, b)]) for b in bins]
            rng = ['%.2f (%.2f-%.2f)' % (med(d[(t,o,c,b)]), min(d[(t,o,c,b)] or [0]), max(d[(t,o,c,b)] or [0])) for b in bins]
            print('| %d | %s | %d | %s | %s |' % (t, o if o == 'mutex' else 'rw 10 %', c, ' | '.join(rng), ' | '.join('%.2f' % (m / ms[0]) for m in ms[1:])))
