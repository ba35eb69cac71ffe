# summary.py: ab.sh's lines on stdin -> per cell, the median and range of A
# and B (M pairs/s) and B/A of the medians.
import collections, re, statistics, sys

runs = collections.defaultdict(list)
loads = []
fails = []
for line in sys.stdin:
    if 'failed:' in line:
        fails.append(line.strip())
        continue
    m = re.match(r'(\S+) (\S+) (\S+) c(\d+) load (\S+) mops=([0-9.]+)', line)
    if not m:
        continue
    x, v, mode, c, load, mops = m.groups()
    runs[(v, mode, int(c), x)].append(float(mops))
    loads.append(float(load))
if loads:
    print('# load %.1f-%.1f' % (min(loads), max(loads)))
print('| variant | placement | cs ns | A median (range) | B median (range) | B/A |')
print('|---|---|---|---|---|---|')
for (v, mode, c) in sorted({k[:3] for k in runs}, key=lambda k: (k[1], k[0], k[2])):
    cell = []
    for x in 'AB':
        r = runs.get((v, mode, c, x), [])
        cell.append((statistics.median(r), min(r), max(r)) if r else None)
    fmt = lambda t: '%.2f (%.2f-%.2f)' % t if t else '-'
    ratio = '%.2f' % (cell[1][0] / cell[0][0]) if cell[0] and cell[1] else '-'
    print('| %s | %s | %d | %s | %s | %s |' % (v, mode, c, fmt(cell[0]), fmt(cell[1]), ratio))
for f in fails:
    print('# ' + f)
