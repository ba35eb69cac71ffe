"""Do the README's benchmark table and bench/results/README.md agree? Reads
both files (argv[1], argv[2]) as text: each verdict the README's table gives
must be the one the results' Targets table gives for the same target (which
README row quotes which target, and the two wordings of each, come from
bench/cacs_bench/suite/targets.py), every time in ns the table quotes must
be in the results' tables, every instruction count of the servers and
mocked clients in bench/results/net/instr/README.md, every size in B or
GiB in the results, and both files must state the same number of runs.
Prints each disagreement, then "N verdicts, M times, K instruction counts
and S sizes agree"."""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "bench"))
from cacs_bench.suite import readme_table, results, targets  # noqa: E402

readme, res = open(sys.argv[1]).read(), open(sys.argv[2]).read()
rdir = os.path.dirname(os.path.abspath(sys.argv[2]))
netp = os.path.join(rdir, "net", "instr", "README.md")
net = open(netp).read() if os.path.exists(netp) else ""
table = readme[readme.index(readme_table.BEGIN):readme.index(readme_table.END)]
rows = [l for l in table.splitlines()
        if l.startswith("| ") and not l.startswith("| workload") and "---" not in l]

# The Targets table: goal -> verdict, as bench/results/README.md has them.
verdicts = {}
for line in res[res.index("## Targets"):].splitlines()[4:]:
    if not line.startswith("| "):
        break
    cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
    verdicts[cells[0]] = cells[-1].strip("*")
# Which target is which (keys, both wordings) comes from the generator; the
# verdicts come from the two files.
T = {t.key: t for t in targets.targets(results.Results(rdir))}
bad = nverdicts = ntimes = ninstr = nbytes = 0
judged = [r for r in rows if r.rstrip(" |").split(" | ")[-1] not in ("—", "-")
          and not r.rstrip(" |").split(" | ")[-1].startswith("the paper")]
# A row whose targets the run has no data for says "—" (or, stackbound's,
# is left out).
goals = [keys for keys in targets.README_TARGETS if any(k in T for k in keys)]
if len(judged) != len(goals):
    bad += 1
    print("the README's table has %d rows with a goal, the generator %d" % (
        len(judged), len(goals)))
for row, keys in zip(judged, goals):
    cell = row.rstrip(" |").split(" | ")[-1]
    for k in [k for k in keys if k in T]:
        t = T[k]
        want = "%s: %s" % (t.short, verdicts.get(t.goal, "(not in the Targets table)"))
        nverdicts += 1
        if want not in cell:
            bad += 1
            print("verdicts differ: README %r; results %r" % (cell, want))
for row in rows:
    # The cells of the workload, cacs's figures and the peers' (not the
    # paper's).
    cells = [re.sub(r"paper:.*", "", c) for c in row.strip().strip("|").split(" | ")[:3]]
    for ns in re.findall(r"(\d+\.\d+) ns", " | ".join(cells)):
        ntimes += 1
        if not re.search(r"(?<![\d.])%s(?![\d])" % re.escape(ns), res):
            bad += 1
            print("time %s ns of the README's table is not in the results" % ns)
    # Bytes and GiB (the stacks the compiler sizes), as the results give them.
    for b in re.findall(r"(?<![\d.,])(\d[\d,.]* (?:B|GiB))(?![\w])", " | ".join(cells[1:])):
        nbytes += 1
        if not re.search(r"(?<![\d.,])%s(?![\w])" % re.escape(b), res):
            bad += 1
            print("%s of the README's table is not in the results" % b)
    if "instructions per request" not in row:
        continue
    for n in re.findall(r"(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d{2,})(?![\d.]|,\d)", " | ".join(cells[1:])):
        ninstr += 1
        if not re.search(r"\| %s \|" % n.replace(",", ""), net):
            bad += 1
            print("instruction count %s of the README's table is not in %s" % (n, netp))
runs = re.search(r"median of \d+ runs[^,.;]*", table)
if not runs or runs.group(0) not in res:
    bad += 1
    print("the number of runs differs: README %r" % (runs.group(0) if runs else None))
if bad:
    print("%d disagreements" % bad)
else:
    print("%d verdicts, %d times, %d instruction counts and %d sizes agree" % (
        nverdicts, ntimes, ninstr, nbytes))
sys.exit(1 if bad else 0)
