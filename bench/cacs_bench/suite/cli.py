"""Run the cacs benchmarks (issue 6); see bench/README.md.

Invoked by scripts/bench. Two figures per point:
  * time (the thread's CPU time, bench_cpu_ns in bench/common/bench.h):
    REPS runs (processes) of each binary pinned with
    `taskset -c CPU`, interleaved round-robin with the other variants of the
    same workload so that load changes hit all alike; we report the median
    per operation and the spread (min..max);
  * instructions per operation from `valgrind --tool=callgrind`: the binary
    runs once with -r 1 and once with -r 2; the difference of the two totals
    is exactly one repetition (process start-up, set-up and the harness
    cancel out), divided by the operations of one repetition.
Every binary checks its own result; a wrong checksum exits 2 and the point is
reported as FAILED, never as a number.
"""

import argparse
import json
import os
import sys

from ..common import LOAD_MAX, ROOT, add_replot, fmt, log, machine_info, replot_data
from .compile_cost import compile_cost
from .plots import draw_plots
from .points import point, points
from .report import write_all, write_data
from .results import Results
from .skynet import plot_skynet, skynet_runs, write_skynet
from .stackbound import optional as sb_optional, stackbound_runs
from .stackbound_call import call_runs
from .targets import targets
from .specs import (BENCHES, HANOI, HANOI_CG_N, HANOI_FULL_NS, MEMORY_FULL, MEMORY_QUICK,
                    OPTIONAL, PAT_ROUNDS_X, SKYNET_N, SKYNET_QUICK)


def ring_functions(build):
    """The ring pattern's distinct functions in BUILD (CMake's
    CACS_BENCH_RING_FUNCTIONS; 10000 where the cache does not say)."""
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            for line in f:
                if line.startswith("CACS_BENCH_RING_FUNCTIONS:"):
                    return int(line.split("=", 1)[1])
    except (OSError, ValueError):
        pass
    return 10000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--cpu", default="1")
    ap.add_argument("--out", default=None)
    ap.add_argument("--only", default=None, help="comma list of workloads")
    ap.add_argument("--argv", default=None, help=argparse.SUPPRESS)
    add_replot(ap)
    a = ap.parse_args()
    stored = replot_data(a, "")
    if stored:
        out = stored[0]
        made = draw_plots(Results(out), out)
        if os.path.exists(os.path.join(out, "skynet.json")):
            with open(os.path.join(out, "skynet.json")) as f:
                made += plot_skynet(out, json.load(f).get("results", []))
        log("plots: %s" % ", ".join(made))
        return
    argv = (a.argv or "scripts/bench " + " ".join(sys.argv[1:])).split()
    only = set(a.only.split(",")) if a.only else None
    bdir = os.path.join(a.build, "bench")
    out = a.out or os.path.join(ROOT, "bench", "results", "quick" if a.quick else "")
    os.makedirs(out, exist_ok=True)
    reps = 1 if a.quick else a.reps
    cpu = a.cpu
    ring = ring_functions(a.build)
    if not a.quick and ring != 10000 and (only is None or any(
            w.startswith("pat-") for w in only)):
        log("scripts/bench: %s has %d ring functions, not 10000 (configure "
            "with -DCACS_BENCH_RING_FUNCTIONS=10000): its patterns are for "
            "--quick only" % (a.build, ring))
        return 2
    info = machine_info(a.build)
    failures = []

    def want(w):
        return only is None or w in only

    recs = []
    groups = []
    for (w, b, v, n_full, n_quick, cg) in BENCHES:
        if not want(w):
            continue
        if not groups or groups[-1][0] != w:
            groups.append((w, []))
        groups[-1][1].append((w, b, v, n_quick if a.quick else n_full, cg))
    for w, specs in groups:
        rounds = reps * (1 if a.quick else PAT_ROUNDS_X.get(w, 1))
        for r in points(bdir, specs, rounds, cpu, a.quick):
            recs.append(r)
            b, v = r["binary"], r["arg"]
            if r["status"] == "missing" and b in OPTIONAL:
                log("  %-12s %-26s %-8s missing (libcacs not built)" % (w, b, v or ""))
                continue
            if r["status"] != "ok":
                failures.append("%s %s %s: %s %s" % (w, b, v or "", r["status"], r.get("stderr", "")))
                log("  %-12s %-26s %-8s %s" % (w, b, v or "", r["status"]))
                continue
            log("  %-12s %-26s %-8s %s ns/op  %s instr/op" % (
                w, b, v or "", fmt(r.get("ns_per_op_median")), fmt(r.get("instr_per_op"), 1)))
    hanoi = []
    if want("hanoi"):
        for n in ([3, 10] if a.quick else HANOI_FULL_NS):
            specs = [("hanoi", b, v, n, HANOI_CG_N if n == HANOI_CG_N else None)
                     for b, v in HANOI]
            for r in points(bdir, specs, reps, cpu, a.quick):
                hanoi.append(r)
                if r["status"] == "missing" and r["binary"] in OPTIONAL:
                    continue
                if r["status"] != "ok":
                    failures.append("hanoi %s %s n=%d: %s" % (r["binary"], r["arg"], n, r["status"]))
            log("  hanoi n=%-2d " % n + "  ".join(
                "%s=%s" % (r.get("variant", r["binary"]), fmt(r.get("ns_per_op_median")))
                for r in hanoi if r["n"] == n))
    mem = []
    if want("memory"):
        for b, n, st in (MEMORY_QUICK if a.quick else MEMORY_FULL):
            r = point(bdir, "memory", b, st, n, 1, None, None, True)
            mem.append(r)
            if r["status"] == "missing" and b in OPTIONAL:
                continue
            if r["status"] != "ok":
                failures.append("memory %s %s: %s" % (b, st, r["status"]))
            else:
                log("  %s n=%d stack=%s: %.0f bytes/coroutine" % (b, n, st, r["ns_runs"][0] / 1000.0))
    if want("skynet"):
        sky = skynet_runs(bdir, SKYNET_QUICK if a.quick else SKYNET_N, reps)
        for r in sky:
            if r["status"] == "missing":
                log("  skynet %-14s %dw missing" % (r["binary"], r["workers"]))
            elif r["status"] != "ok":
                failures.append("skynet %s %dw: %s %s" % (r["binary"], r["workers"],
                                                         r["status"], r.get("stderr", "")))
            else:
                log("  skynet %-14s %dw cpu %.1f ms wall %.1f ms" % (
                    r["binary"], r["workers"], r["cpu_ms_median"], r["wall_ms_median"]))
        write_skynet(out, sky, a.quick)
    sb = []
    if want("stackbound"):
        sb = stackbound_runs(a.build, bdir, a.quick, reps, cpu)
        sb += call_runs(bdir, a.quick, reps, cpu)
        failures += ["stackbound %s %s n=%d: %s %s" % (r["part"], r["mode"], r["n"], r["status"],
                                                     r.get("stderr", ""))
                     for r in sb if r["status"] == "FAILED"
                     or (r["status"] == "missing" and not sb_optional(r))]
    cc = []
    if want("compile_cost"):
        work = os.path.join(a.build, "bench", "compile_cost")
        os.makedirs(work, exist_ok=True)
        cc = compile_cost(a.build, [1000] if a.quick else [25000, 50000, 100000], work)
        failures += ["compile_cost %s" % r.get("input") for r in cc if r.get("status") != "ok"]
    # --only on an existing full result: keep the other workloads' records
    # (and say so in the report), replace the re-run ones.
    old_json = os.path.join(out, "results.json")
    if only and not a.quick and os.path.exists(old_json):
        prev = json.load(open(old_json))
        recs = [r for r in prev.get("results", []) if r["workload"] not in only] + recs
        order = [b[0] for b in BENCHES]
        recs.sort(key=lambda r: order.index(r["workload"]) if r["workload"] in order else 99)
        if "hanoi" not in only:
            hanoi = prev.get("hanoi", [])
        if "memory" not in only:
            mem = prev.get("memory", [])
        if "compile_cost" not in only:
            cc = prev.get("compile_cost", [])
        if "stackbound" not in only:
            sb = prev.get("stackbound", [])
        # One entry per partial re-run still in the data: a re-run of the
        # same workloads replaces an earlier one's numbers, so its entry.
        reruns = [r for r in prev.get("machine", {}).get("reruns", [])
                  if not set(r["only"]) <= set(only)]
        info["reruns"] = reruns + [{
            "only": sorted(only), "command": " ".join(argv), "date": info["date"],
            "loadavg": " ".join(info.get("loadavg", "?").split()[:3]),
            "loadavg_max": "%.2f" % LOAD_MAX[0]}]
        info["partial"] = "%s; the rest from `%s` on %s" % (
            "; ".join("%s re-run by `%s` on %s (load average at its start: %s; highest "
                      "1-minute figure: %s)" % (",".join(r["only"]), r["command"], r["date"],
                                                r["loadavg"], r["loadavg_max"])
                      for r in info["reruns"]),
            " ".join(prev.get("command", [])), prev.get("machine", {}).get("date", "?"))
        info["date"] = prev.get("machine", {}).get("date", info["date"])
        argv = prev.get("command", argv)
    info["loadavg_end"] = open("/proc/loadavg").read().strip()
    info["loadavg_max"] = "%.2f" % LOAD_MAX[0]
    if info.get("partial") and prev.get("machine"):
        # The load figures stay the full run's; the re-runs' are in their entries.
        for k in ("loadavg", "loadavg_end", "loadavg_max"):
            if k in prev["machine"]:
                info[k] = prev["machine"][k]
    # The data first, then the reports from it (bench/tools/report.py
    # writes the same from the stored data); the README's table is
    # scripts/bench's last step, after the network benchmarks' refresh.
    write_data(out, recs, hanoi, mem, cc, sb, info, argv, a.quick)
    write_all(out)
    log("wrote %s" % os.path.join(out, "README.md"))
    if not a.quick:
        for t in targets(Results(out)):
            log("  target %-72s %-48s %s" % (t.goal, t.measured, "met" if t.met else "MISSED"))
    if failures:
        log("FAILED:\n  " + "\n  ".join(failures))
        return 1
    return 0
