import sys, statistics as st, collections, itertools
d = collections.defaultdict(list)
for f in sys.argv[1:]:
    for l in open(f):
        if l.startswith('#'): continue
        p = l.split()
        if len(p) < 3 or not p[2].startswith('mops='): continue
        d[(p[0], int(p[1]))].append(float(p[2][5:]))
labs = sorted({k[0] for k in d}); cs = sorted({k[1] for k in d})
def U(a, b):
    return sum(1 if x > y else 0.5 if x == y else 0 for x in a for y in b)
print("cs   " + " ".join("%14s" % l for l in labs))
for c in cs:
    print("%-5d" % c + " ".join("%8.3f(n%2d)" % (st.median(d[(l, c)]), len(d[(l, c)])) if d[(l, c)] else "%14s" % "-" for l in labs))
ref = sys.argv and __import__('os').environ.get('REF', 'main')
for c in cs:
    for l in labs:
        if l == ref or not d[(l, c)] or not d[(ref, c)]: continue
        a, b = d[(ref, c)], d[(l, c)]
        print("c=%d %s vs %s: U=%.0f of %d  (%s higher %.0f%%)" % (c, ref, l, U(a, b), len(a) * len(b), ref, 100 * U(a, b) / (len(a) * len(b))))
