#!/usr/bin/env python3
"""The CES paper's lock microbenchmark (its Figure 8), every lock, every
critical-section length, on 1 and 2 workers (issue 25); see bench/locks/locks.h.

  bench/locks/run.py [--quick] [--build DIR] [--workers 1,2] [--cs 0,250,...]
                     [--reps N] [--window MS] [--tasks N] [--out DIR]
                     [--no-rw] [--impls locks_cacs:ces,locks_fiber,...]
                     [--limit N] [--shape fig8|counter]
                     [--extra 'LABEL=PATH[:VARIANT]']
                     [--object mutex|rw|sem|chan|cond] [--arg N,...]
                     [--iters N] [--timed MS]

--shape counter (issue 37): the shape of a counter, a cache or a connection
table behind a lock (locks.h, -k counter): 64 tasks on 2 workers by default,
each doing 20,000 lock pairs (16 updates of a shared array inside, 20
operations outside), critical sections padded from 0 to 10 us; throughput in
millions of lock pairs per second of wall-clock time; the libcacs mutex in a
pool that lets coroutines migrate and in a default pool; written to
bench/results/locks/counter/. --extra adds a binary of the same command line
under a label, e.g. locks_cacs built against an older libcacs.

--object (counter shape only, issue 37) puts another object of the pool in
the mutex's place, beside its peers, each point once per --arg value:
  rw    the reader-writer lock, --arg = writers in percent (default 10):
        writers update the array, readers read it and check it; Go
        sync.RWMutex, pthread_rwlock_t;
  sem   a counting semaphore of --arg units (default 1): the section
        checks that at most that many are inside; Go's buffered channel
        of that many slots (its idiom), POSIX sem_t;
  chan  a channel of capacity --arg (default 0: unbuffered): half the
        tasks send, half receive; Go's channel; throughput in items.
  cond  the same senders and receivers through a bounded queue of --arg
        slots (default 16) behind a mutex and two condition variables
        (not-empty, not-full), signalled under the mutex: the pool's
        cacs_pool_cond, Go sync.Cond (idiomatic Go would use a channel:
        --object chan), pthread_cond_t, Boost.Fiber's condition variable.
--iters N: lock pairs (items) per task, -n (default: locks.h's).
--timed MS (counter shape, mutex, rw, sem): a timed run (-T): the tasks meet
at a start gate, then each does lock pairs for MS ms; throughput is pairs
over the time from the gate to the last task's end. No spawning phase and
no tail of one worker's tasks alone: the contended steady state (what made
the rw shape's runs disagree: bench/results/locks/cond-rw-41/README.md).
--object rw runs timed by default (1000 ms); --timed 0 runs -n pairs as
before session 41.
Written to bench/results/locks/counter-<object>/ unless --out says.

Throughput (Mops/s: loop iterations finished in a fixed wall-clock window
over the window) is the median of REPS runs (processes), the
implementations of a point interleaved round-robin so that load changes hit
all alike. A run with W workers is confined with `taskset` to the first W
CPUs this process may use. Each binary checks its own critical-section
counter; a failed check is reported as FAILED, never as a number.

Writes bench/results/locks/{README.md,results.json} (--quick:
bench/results/locks/quick/). Exits non-zero if a binary failed.
"""

import argparse
import datetime
import json
import resource
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(ROOT, "bench"))  # cacs_bench
from cacs_bench.common import add_replot, choose, pyplot, replot_data  # noqa: E402

# (label, binary, -v variant, has a reader-writer variant)
IMPLS = [
    ("cacs CES", "locks_cacs", "ces", True),
    ("cacs dispatch", "locks_cacs", "dispatch", True),
    ("Boost.Fiber mutex (work_stealing)", "locks_fiber", None, False),
    ("Go sync.Mutex / RWMutex", "locks_go", None, True),
    ("pthread mutex / rwlock (OS threads)", "locks_pthread", None, True),
]
# The counter shape adds the default pool (no migration of started
# coroutines), where the mutex cannot run a waiter of another worker in place.
IMPLS_COUNTER = IMPLS[:2] + [
    ("cacs CES, default pool", "locks_cacs", "ces-default", False),
    ("cacs dispatch, default pool", "locks_cacs", "dispatch-default", False),
] + IMPLS[2:]
CS_COUNTER = [0, 50, 100, 250, 500, 1000, 2500, 5000, 10000]
# --object: (label, binary, -v variant) per object; --arg's default; the
# flag --arg becomes; the label of a point.
OBJECTS = {
    "rw": ([("cacs CES", "locks_cacs", "ces"),
            ("cacs CES, default pool", "locks_cacs", "ces-default"),
            ("Go sync.RWMutex", "locks_go", None),
            ("pthread rwlock (OS threads)", "locks_pthread", None)],
           "10", "-W", "rw, %g %% writers"),
    "sem": ([("cacs CES", "locks_cacs", "ces"),
             ("cacs CES, default pool", "locks_cacs", "ces-default"),
             ("Go buffered-channel semaphore", "locks_go", None),
             ("POSIX sem_t (OS threads)", "locks_pthread", None)],
            "1", "-u", "semaphore, %g units"),
    "chan": ([("cacs CES", "locks_cacs", "ces"),
              ("cacs CES, default pool", "locks_cacs", "ces-default"),
              ("Go channel", "locks_go", None)],
             "0", "-u", "channel, capacity %g"),
    "cond": ([("cacs CES", "locks_cacs", "ces"),
              ("cacs CES, default pool", "locks_cacs", "ces-default"),
              ("Go sync.Cond", "locks_go", None),
              ("pthread cond (OS threads)", "locks_pthread", None),
              ("Boost.Fiber condition_variable", "locks_fiber", None)],
             "16", "-u", "cond queue, %g slots"),
}
# Built only when the runtime / the peer's library or compiler is there.
OPTIONAL = {"locks_cacs", "locks_fiber", "locks_go"}
CS_FULL = [0, 50, 100, 250, 500, 1000, 2500, 5000, 7500]
CS_QUICK = [0, 1000]
RW_WRITERS = [6.25, 50]
RESULT_RE = re.compile(r"^RESULT (.*)$", re.M)


def log(msg):
    print(msg, flush=True)


def cpus(n):
    allowed = sorted(os.sched_getaffinity(0))
    if len(allowed) < n:
        return None
    return ",".join(str(c) for c in allowed[:n])


def pad_rate(path):
    """The padding loop's iterations per ns, measured once by a C peer (`-k
    calibrate`, the best of three processes on the first CPU) and handed to
    every binary (-p), so that every peer's critical section is the same
    instructions: each calibrating itself, Go's binary padded its sections
    20-30 % short (its first timed runs overlap its runtime's start)."""
    rates = []
    for _ in range(3):
        p = subprocess.run(["taskset", "-c", cpus(1), path, "-k", "calibrate"],
                           capture_output=True, text=True, timeout=60)
        m = re.search(r"PAD per_ns=([0-9.]+)", p.stdout)
        if p.returncode != 0 or not m:
            raise SystemExit("locks: %s -k calibrate failed: %s" % (path, p.stderr.strip()))
        rates.append(float(m.group(1)))
    return max(rates)


def run(path, variant, workers, tasks, cs, writers, window, limit=None, shape="fig8",
        obj="mutex", iters=None, timed=None, rate=None):
    cmd = [path, "-w", str(workers), "-t", str(tasks), "-c", str(cs), "-d", str(window),
           "-k", obj if obj in ("chan", "cond") else shape]
    if rate:
        cmd += ["-p", "%.6f" % rate]
    if iters:
        cmd += ["-n", str(iters)]
    if timed:
        cmd += ["-T", "%g" % timed]
    if limit:
        cmd += ["-s", str(limit)]
    if variant:
        cmd += ["-v", variant]
    if writers is not None:
        cmd += [OBJECTS[obj][2] if obj != "mutex" else "-W", "%g" % writers]
    cl = cpus(workers)
    if cl is None:
        return {"status": "SKIPPED (%d CPUs)" % len(os.sched_getaffinity(0))}
    cmd = ["taskset", "-c", cl] + cmd
    # The process's CPU time (all its threads, set-up included): RUSAGE_CHILDREN
    # grows by exactly this child's once it has been waited for.
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120 + window / 1e3 * 4)
    except subprocess.TimeoutExpired:
        return {"status": "FAILED (timeout)", "cmd": cmd}
    m = RESULT_RE.search(p.stdout)
    if p.returncode != 0 or not m:
        return {"status": "FAILED (exit %d: %s)" % (p.returncode, p.stderr.strip()[-200:]),
                "cmd": cmd}
    kv = dict(x.split("=", 1) for x in m.group(1).split())
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime)
    return {"status": "ok", "mops": float(kv["mops"]), "ops": int(kv["ops"]),
            "cpu_s": cpu, "cmd": cmd}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--cs", default=None, help="critical-section lengths, ns")
    ap.add_argument("--reps", type=int, default=None)
    ap.add_argument("--window", type=float, default=None, help="ms")
    ap.add_argument("--tasks", type=int, default=None)
    ap.add_argument("--no-rw", action="store_true")
    ap.add_argument("--limit", type=int, default=None,
                    help="primes below LIMIT (-s: the sieve's size, the parallel part)")
    ap.add_argument("--impls", default=None,
                    help="comma-separated binaries[:variant] to run, e.g. "
                    "locks_cacs:ces,locks_cacs:dispatch (default: all)")
    ap.add_argument("--out", default=None)
    add_replot(ap)
    ap.add_argument("--shape", default="fig8", choices=["fig8", "counter"])
    ap.add_argument("--extra", action="append", default=[],
                    help="LABEL=PATH[:VARIANT]: one more binary, same command line")
    ap.add_argument("--object", default="mutex", choices=["mutex"] + sorted(OBJECTS),
                    help="counter shape: the object under test (see the top)")
    ap.add_argument("--arg", default=None,
                    help="--object's parameter(s), comma-separated")
    ap.add_argument("--iters", type=int, default=None,
                    help="counter shape: lock pairs (items) per task (-n)")
    ap.add_argument("--timed", type=float, default=None,
                    help="counter shape: a timed run of MS ms from a start gate (-T)")
    ap.add_argument("--pad-rate", type=float, default=None,
                    help="the padding loop's iterations per ns for every binary (-p; "
                    "default: measured once by locks_pthread -k calibrate; 0: each binary "
                    "calibrates itself, for --extra builds older than -p)")
    a = ap.parse_args()
    if a.object != "mutex" and a.shape != "counter":
        ap.error("--object needs --shape counter")
    if a.timed and (a.shape != "counter" or a.object in ("chan", "cond")):
        ap.error("--timed needs --shape counter and a lock (mutex, rw, sem)")
    if a.timed is None and a.object == "rw":
        a.timed = 1000.0  # the rw shape's stable form (see --timed)
    stored = replot_data(a, "locks/counter" if a.shape == "counter" else "locks")
    if stored:
        log("plots: %s" % ", ".join(plot(stored[0], stored[1]["results"])))
        return 0
    counter = a.shape == "counter"
    if counter:
        a.no_rw = True
        if a.workers == "1,2":
            a.workers = "2"
    workers = [int(w) for w in a.workers.split(",")]
    cs_list = ([float(x) for x in a.cs.split(",")] if a.cs
               else CS_QUICK if a.quick else CS_COUNTER if counter else CS_FULL)
    reps = a.reps or (1 if a.quick else 3)
    window = a.window or (50 if a.quick else 1000)
    tasks = a.tasks or (64 if counter else 200 if a.quick else 5000)
    out = a.out or os.path.join(ROOT, "bench", "results", "locks",
                                "quick" if a.quick else "",
                                ("counter" + ("-" + a.object if a.object != "mutex" else ""))
                                if counter else "")
    bdir = os.path.join(a.build, "bench")

    impls = []
    rc = 0
    # --impls names a binary (all its variants) or binary:variant.
    table = IMPLS_COUNTER if counter else IMPLS
    if a.object != "mutex":
        table = [(l, b, v, True) for l, b, v in OBJECTS[a.object][0]]
    names = list(dict.fromkeys([b for _, b, _, _ in table] +
                               ["%s:%s" % (b, v) for _, b, v, _ in table if v]))
    keep = set(choose(ap, "--impls", a.impls, names))
    for label, b, v, rw in table:
        if b not in keep and "%s:%s" % (b, v) not in keep:
            continue
        path = os.path.join(bdir, b)
        if os.path.exists(path):
            impls.append((label, path, v, rw))
        elif b in OPTIONAL:
            log("locks: %s not built, skipped" % b)
        else:
            log("locks: %s missing: FAILED" % b)
            rc = 1
    extras = []
    for e in a.extra:
        label, spec = e.split("=", 1)
        path, _, v = spec.partition(":")
        extras.append((label, os.path.abspath(path), v or None, a.object != "mutex"))
    # Another object's extras (libcacs builds compared) lead its tables.
    impls = extras + impls if a.object != "mutex" else impls + extras
    loads = [open("/proc/loadavg").read().strip()]
    rate = a.pad_rate
    if rate is None:
        rate = pad_rate(os.path.join(bdir, "locks_pthread"))
        log("locks: padding loop %.4f iterations per ns (locks_pthread -k calibrate)" % rate)
    recs = []
    points = [(w, cs, None) for w in workers for cs in cs_list]
    if a.object != "mutex":
        args = [float(x) for x in (a.arg or OBJECTS[a.object][1]).split(",")]
        points = [(w, cs, x) for w in workers for x in args for cs in cs_list]
    elif not a.no_rw:
        points += [(w, cs_list[0], wr) for w in workers for wr in RW_WRITERS]
    for (w, cs, wr) in points:
        todo = [i for i in impls if wr is None or i[3]]
        runs = {i[0]: [] for i in todo}
        for _ in range(reps):
            for label, path, v, _rw in todo:
                r = run(path, v, w, tasks, cs, wr, window, a.limit, a.shape, a.object,
                        a.iters, a.timed, rate)
                runs[label].append(r)
        for label, path, v, _rw in todo:
            rs = runs[label]
            bad = [r for r in rs if r["status"] != "ok"]
            rec = {"impl": label, "binary": os.path.basename(path), "variant": v,
                   "workers": w, "cs_ns": cs, "writers_pct": wr, "tasks": tasks,
                   "window_ms": window, "object": a.object}
            if bad:
                rec["status"] = bad[0]["status"]
                if not bad[0]["status"].startswith("SKIPPED"):
                    rc = 1
            else:
                m = [r["mops"] for r in rs]
                # Iterations per CPU-second: what the lock costs in work, which
                # a loaded machine's share of CPU does not change.
                pc = [r["ops"] / r["cpu_s"] / 1e6 for r in rs if r["cpu_s"] > 0]
                if pc:
                    rec["mops_per_cpu_s"] = statistics.median(pc)
                rec.update(status="ok", mops_median=statistics.median(m),
                           mops_min=min(m), mops_max=max(m), mops_runs=m,
                           cmd=" ".join(os.path.relpath(x, ROOT) if x.startswith(ROOT) else x
                                        for x in rs[0]["cmd"]))
            recs.append(rec)
            log("locks: w=%d cs=%gns %s %-36s %s" % (
                w, cs, point_name(a.object, wr), label,
                "%.4f Mops/s" % rec["mops_median"] if rec["status"] == "ok" else rec["status"]))
    loads.append(open("/proc/loadavg").read().strip())
    write(out, recs, a, reps, window, tasks, loads, rate)
    return rc


def point_name(obj, arg):
    """The "lock" column of a point: the object and its parameter."""
    if obj != "mutex":
        return OBJECTS[obj][3] % arg
    return "rw, %g %% writers" % arg if arg is not None else "mutex"


def plot(out, recs):
    """locks.png: each lock's throughput (median, Mops/s, wall-clock and per
    CPU-second) over the critical-section length, one row per worker count;
    rw.png: the reader-writer points. Nothing without matplotlib."""
    plt = pyplot()
    ok = [r for r in recs if r.get("status") == "ok"]
    if plt is None or not ok:
        return []
    made = []
    labels = []
    for r in ok:
        if r["impl"] not in labels:
            labels.append(r["impl"])
    mutex = [r for r in ok if r["writers_pct"] is None]
    workers = sorted({r["workers"] for r in mutex})
    cs_list = sorted({r["cs_ns"] for r in mutex})
    if mutex:
        fig, axes = plt.subplots(len(workers), 2, figsize=(12, 3.6 * len(workers)),
                                 squeeze=False)
        for row, w in enumerate(workers):
            for col, (key, name) in enumerate((("mops_median", "Mops/s (wall-clock)"),
                                               ("mops_per_cpu_s", "Mops per CPU-second"))):
                ax = axes[row][col]
                for lab in labels:
                    pts = {r["cs_ns"]: r.get(key) for r in mutex
                           if r["impl"] == lab and r["workers"] == w}
                    xs = [i for i, cs in enumerate(cs_list) if pts.get(cs)]
                    if xs:
                        ax.plot(xs, [pts[cs_list[i]] for i in xs], marker="o", label=lab)
                ax.set_xticks(range(len(cs_list)))
                ax.set_xticklabels(["%g" % cs for cs in cs_list])
                ax.set_xlabel("critical section, ns")
                ax.set_ylabel(name)
                ax.set_yscale("log")
                ax.set_title("mutex, %d worker%s" % (w, "s" if w > 1 else ""))
        axes[0][1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
        fig.tight_layout()
        fig.savefig(os.path.join(out, "locks.png"), dpi=90, bbox_inches="tight")
        plt.close(fig)
        made.append("locks.png")
    rw = [r for r in ok if r["writers_pct"] is not None]
    # Another object than the mutex (--object): a bar per point, its
    # critical-section length included.
    obj = ok[0].get("object", "mutex")
    if rw:
        groups = sorted({(r["workers"], r["writers_pct"], r["cs_ns"] if obj != "mutex" else 0)
                         for r in rw})
        rw_labels = [l for l in labels if any(r["impl"] == l for r in rw)]
        fig, ax = plt.subplots(figsize=(9 if obj == "mutex" else 12, 4))
        width = 0.8 / len(rw_labels)
        for j, lab in enumerate(rw_labels):
            get = {(r["workers"], r["writers_pct"], r["cs_ns"] if obj != "mutex" else 0):
                   r["mops_median"] for r in rw if r["impl"] == lab}
            ax.bar([i + j * width for i in range(len(groups))],
                   [get.get(g, 0) for g in groups], width, label=lab)
        ax.set_xticks([i + width * (len(rw_labels) - 1) / 2 for i in range(len(groups))])
        ax.set_xticklabels(["%d worker%s\n%s%s" % (
            g[0], "s" if g[0] > 1 else "",
            point_name(obj, g[1]) if obj != "mutex" else "%g %% writers" % g[1],
            "\ncs %g ns" % g[2] if obj not in ("mutex", "chan", "cond") else "")
            for g in groups],
            fontsize=7)
        ax.set_ylabel("Mops/s (wall-clock, median)")
        ax.set_title({"mutex": "reader-writer lock", "rw": "reader-writer lock",
                      "sem": "semaphore", "chan": "channel",
                      "cond": "condition variables (bounded queue)"}[obj])
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
        fig.tight_layout()
        png = "rw.png" if obj == "mutex" else obj + ".png"
        fig.savefig(os.path.join(out, png), dpi=90, bbox_inches="tight")
        plt.close(fig)
        made.append(png)
    return made


def write(out, recs, a, reps, window, tasks, loads, rate=None):
    os.makedirs(out, exist_ok=True)
    date = datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC")
    # Paths inside the tree are written relative to it (scripts/bench passes
    # an absolute --build).
    argv = ("bench/locks/run.py " + " ".join(sys.argv[1:])).replace(ROOT + os.sep, "")
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump({"command": argv, "date": date, "loadavg": loads, "reps": reps,
                   "window_ms": window, "tasks": tasks, "pad_per_ns": rate,
                   "results": recs}, f, indent=1)
        f.write("\n")
    counter = a.shape == "counter"
    title = {"mutex": "Locks in the shape of a counter behind a mutex",
             "rw": "Reader-writer locks in the shape of a counter",
             "sem": "Semaphores in the shape of a counter",
             "chan": "Channels, half the tasks sending, half receiving",
             "cond": "Condition variables: a bounded queue, half the tasks producing, "
                     "half consuming"}
    L = ["# %s%s\n" % (
        title[a.object] if counter
        else "The CES paper's lock microbenchmark",
        " (quick smoke run: tiny sizes, numbers meaningless)" if a.quick else "")]
    L.append("Generated by `%s` on %s; load average before / after: `%s` / `%s`. "
             "Raw data: `results.json`.\n" % (argv, date, loads[0], loads[1]))
    if rate:
        L.append("Critical sections are padded with the same busy loop in every peer, "
                 "%.4f iterations per ns, measured once by `locks_pthread -k calibrate` and "
                 "passed to each binary (`-p`).\n" % rate)
    if counter and a.object in ("chan", "cond"):
        L.append("%d tasks, each sending or receiving %s items; median of %d interleaved "
                 "runs (min..max); W workers = the first W CPUs by `taskset`.\n" % (
                     tasks, "%d" % a.iters if a.iters else "20,000", reps))
    elif counter:
        L.append("%d tasks, each doing the same number of lock pairs (%s): lock, 16 updates of a "
                 "shared array, the critical section padded to the given length (calibrated "
                 "busy work), unlock, 20 dependent operations outside (bench/locks/locks.h, "
                 "`-k counter`). Throughput: millions of lock pairs per second of wall-clock "
                 "time from the first spawn to the last join, median of %d interleaved runs "
                 "(min..max); W workers = the first W CPUs by `taskset`.\n" % (
                     tasks,
                     "a timed run, `--timed %g`: every task for %g ms from a start gate; "
                     "throughput over the time from the gate to the last task's end"
                     % (a.timed, a.timed) if a.timed else
                     "%d, `--iters`" % a.iters if a.iters else
                     "20,000, fewer for long critical sections: about 1.5 s of them in all",
                     reps))
    if counter:
        L.append({
            "mutex": "",
            "rw": "The reader-writer lock in the mutex's place (`-W`): each pair a writer "
                  "(the updates above) with the given percentage, else a reader, which "
                  "reads the array and checks that its slots agree, padded alike.\n",
            "sem": "A counting semaphore in the mutex's place (`-u`): the section checks "
                   "that at most that many tasks are inside and updates the task's own "
                   "array (sections may overlap); Go's peer is its idiom, a buffered "
                   "channel of that many slots.\n",
            "chan": "No lock (`-k chan`): the even tasks send 20,000 items each into one "
                    "channel of the given capacity (0: unbuffered), the odd ones receive "
                    "as many, 20 dependent operations per item on each side; the sums "
                    "sent and received must agree. Throughput: millions of items per "
                    "second; the critical-section column does not apply.\n",
            "cond": "No lock object alone (`-k cond`): the even tasks put items, each "
                    "its own, into a bounded queue of the given slots behind a mutex, "
                    "waiting on a not-full condition variable, the odd ones take as "
                    "many, waiting on not-empty; each side signals the other's "
                    "condition under the mutex; 20 dependent operations per item on "
                    "each side; the sums of the items' hashes put and taken must "
                    "agree (a lost or duplicated item fails the run). Go's sync.Cond "
                    "is here for the comparison; idiomatic Go would use a channel, "
                    "which `--object chan` measures. Throughput: millions of items "
                    "per second; the critical-section column does not apply.\n",
        }[a.object])
    else:
        L.append("%d tasks, each looping: a random prime, a shared map updated under the lock "
               "with the critical section padded to the given length (calibrated busy work), "
               "a sieve outside it (bench/locks/locks.h). Throughput: iterations finished in a "
               "%g ms wall-clock window, in Mops/s, median of %d interleaved runs "
               "(min..max); W workers = the first W CPUs by `taskset`; sieve limit %s.\n" % (
                   tasks, window, reps, a.limit or "4096 (default)"))
    def cell(r):
        if r is None:
            return "-"
        if r["status"] != "ok":
            return r["status"]
        return "%.4f (%.4f..%.4f)" % (r["mops_median"], r["mops_min"], r["mops_max"])
    labels = []
    for r in recs:
        if r["impl"] not in labels:
            labels.append(r["impl"])
    get = {(r["impl"], r["workers"], r["cs_ns"], r["writers_pct"]): r for r in recs}
    keys = sorted({(r["workers"], r["writers_pct"] is not None, r["writers_pct"] or 0, r["cs_ns"])
                   for r in recs})
    L.append("| workers | lock | critical section | " + " | ".join(labels) + " |")
    L.append("|---|---|---|" + "---|" * len(labels))
    for (w, isrw, wr, cs) in keys:
        wrv = wr if isrw else None
        L.append("| %d | %s | %g ns | %s |" % (
            w, point_name(a.object, wrv), cs,
            " | ".join(cell(get.get((l, w, cs, wrv))) for l in labels)))
    # CES (or the first implementation: with --object, the first --extra)
    # over each other lock, where both are there.
    base = "cacs CES" if "cacs CES" in labels else labels[0]
    others = [l for l in labels if l != base]
    ratios = []
    for (w, isrw, wr, cs) in keys:
        wrv = wr if isrw else None
        ces = get.get((base, w, cs, wrv))
        if not ces or ces["status"] != "ok":
            continue
        row = []
        for other in others:
            o = get.get((other, w, cs, wrv))
            row.append("%.2fx" % (ces["mops_median"] / o["mops_median"])
                       if o and o["status"] == "ok" and o["mops_median"] > 0 else "-")
        ratios.append("| %d | %s | %g ns | %s |" % (
            w, point_name(a.object, wrv), cs, " | ".join(row)))
    if any("mops_per_cpu_s" in r for r in recs):
        L.append("\nThe same runs per CPU-second: iterations finished in the window over "
                 "the process's CPU time (all its threads, its set-up and tear-down "
                 "included; median of the runs), in millions. Less dependent on the "
                 "machine's load than the wall-clock figure, since it counts only the "
                 "CPU each runtime got:\n")
        L.append("| workers | lock | critical section | " + " | ".join(labels) + " |")
        L.append("|---|---|---|" + "---|" * len(labels))
        for (w, isrw, wr, cs) in keys:
            wrv = wr if isrw else None
            def pcell(r):
                if r is None or r.get("status") != "ok" or "mops_per_cpu_s" not in r:
                    return "-"
                return "%.4f" % r["mops_per_cpu_s"]
            L.append("| %d | %s | %g ns | %s |" % (
                w, point_name(a.object, wrv), cs,
                " | ".join(pcell(get.get((l, w, cs, wrv))) for l in labels)))
    if ratios:
        L.append("\n%s throughput over each other lock (above 1: %s faster):\n" % (
            base, base))
        L.append("| workers | lock | critical section | " + " | ".join(others) + " |")
        L.append("|---|---|---|" + "---|" * len(others))
        L += ratios
    L.append("\nReading these numbers: on a shared machine the load average above is "
             "the first thing to look at. Wall-clock throughput measures the CPU share the "
             "benchmark gets as much as the lock; the pthread peer runs one OS thread per "
             "task, and the kernel's per-thread fairness gives its thousands of threads a "
             "larger share of busy CPUs than the 2 worker threads of the coroutine runtimes "
             "get. With 1 worker a cooperative scheduler never switches inside a critical "
             "section, so the mutex is never contended there and CES and dispatch do the "
             "same work: their difference at 1 worker is the noise of the run. A 0.0000 "
             "means no iteration finished inside the window.")
    for png in plot(out, recs):
        L.append("\n![%s](%s)" % (png[:-4], png))
    with open(os.path.join(out, "README.md"), "w") as f:
        f.write("\n".join(L) + "\n")


if __name__ == "__main__":
    sys.exit(main())
