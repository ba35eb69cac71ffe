#!/usr/bin/env python3
"""Median and min..max (spread = max/min) per implementation, critical
section and mode of a spread.py JSON file; as a Markdown table."""
import json
import statistics
import sys

recs = json.load(open(sys.argv[1]))
loads = sorted({float(r["load"].split()[0]) for r in recs})
print("rounds: %d; load average (1 min) before the rounds: %s\n" % (
    1 + max(r["round"] for r in recs), ", ".join("%.2f" % x for x in
                                                  [float(r["load"].split()[0]) for r in recs
                                                   if r["impl"] == recs[0]["impl"] and
                                                   r["mode"] == recs[0]["mode"] and
                                                   r["cs_ns"] == recs[0]["cs_ns"]])))
print("| cs | implementation | mode | median M pairs/s | min..max | max/min | "
      "M pairs per CPU-s, median (min..max, max/min) |")
print("|---|---|---|---|---|---|---|")
keys = []
for r in recs:
    k = (r["cs_ns"], r["impl"], r["mode"])
    if k not in keys:
        keys.append(k)
for k in keys:
    rs = [r for r in recs if (r["cs_ns"], r["impl"], r["mode"]) == k]
    m = [r["mops"] for r in rs if r["mops"] is not None]
    bad = len(rs) - len(m)
    pc = [r["ops"] / r["cpu_s"] / 1e6 for r in rs if r["mops"] is not None and r["cpu_s"] > 0]
    if not m:
        print("| %g ns | %s | %s | FAILED | | | |" % k)
        continue
    print("| %g ns | %s | %s | %.3f | %.3f..%.3f | %.2fx | %.3f (%.3f..%.3f, %.2fx) |%s" % (
        k[0], k[1], k[2], statistics.median(m), min(m), max(m), max(m) / min(m),
        statistics.median(pc), min(pc), max(pc), max(pc) / min(pc),
        " %d failed" % bad if bad else ""))
