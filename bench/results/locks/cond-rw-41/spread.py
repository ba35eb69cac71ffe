#!/usr/bin/env python3
"""Session 41: the rw shape's spread, before and after its fix, interleaved.

  spread.py BUILD_BENCH_DIR OUT.json [ROUNDS] [CS,...]

Each round runs every implementation of bench/locks/run.py's rw object
(10 % writers, 64 tasks, 2 workers, taskset -c 0,1) at each critical
section twice, in turn: as before (-n: 20,000 pairs per task, spawned from
main) and fixed (-T 1000: a start gate, a 1 s timed run, and for libcacs the
tasks spawned balanced over the workers). Records M pairs/s (wall) and the
process's CPU seconds per run, and the load average before each round.
"""
import json
import os
import re
import resource
import subprocess
import sys

B, OUT = sys.argv[1], sys.argv[2]
ROUNDS = int(sys.argv[3]) if len(sys.argv) > 3 else 5
CS = [float(x) for x in (sys.argv[4] if len(sys.argv) > 4 else "0,1000").split(",")]
IMPLS = [("cacs CES", "locks_cacs", "ces"), ("cacs CES, default pool", "locks_cacs", "ces-default"),
         ("Go sync.RWMutex", "locks_go", None), ("pthread rwlock", "locks_pthread", None)]
MODES = [("before (-n 20000)", []), ("fixed (-T 1000)", ["-T", "1000"])]
recs = []
for rnd in range(ROUNDS):
    load = open("/proc/loadavg").read().strip()
    for cs in CS:
        for label, b, v in IMPLS:
            for mode, extra in MODES:
                cmd = ["taskset", "-c", "0,1", os.path.join(B, b), "-w", "2", "-t", "64",
                       "-c", "%g" % cs, "-k", "counter", "-W", "10"] + extra
                if v:
                    cmd += ["-v", v]
                r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
                p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
                r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
                m = re.search(r"mops=([0-9.]+) ok=1", p.stdout)
                cpu = r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime
                rec = {"round": rnd, "load": load, "cs_ns": cs, "impl": label, "mode": mode,
                       "mops": float(m.group(1)) if m and p.returncode == 0 else None,
                       "ops": int(re.search(r"ops=(\d+)", p.stdout).group(1)) if m else None,
                       "cpu_s": cpu, "cmd": " ".join(cmd[3:])}
                recs.append(rec)
                print(rnd, load.split()[0], cs, label, mode, rec["mops"], flush=True)
json.dump(recs, open(OUT, "w"), indent=1)
