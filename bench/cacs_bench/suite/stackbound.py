"""stackbound (issue 34): stacks the compiler sizes, bench/stackbound's
programs built by its run.sh (`run.sh build`, the one build line) and run
as run.sh runs them (pinned, CACS_IO_ENGINE=epoll): the ring of exact.c on
exact, guarded 64 KiB and shared stacks with libaco's beside it, its ring
of yields (exact_ring, exact_aco_ring) of 10, 10,000 and 1,000,000
coroutines on the same four, the server shape's pool coroutines parked in
a wait (pool.c) on exact and guarded stacks, interleaved over the rounds,
then 10,000,000 parked at once. Each program prints one key=value line
and checks its own answers; the records go to results.json's
"stackbound"."""

import os
import shutil
import statistics
import subprocess
import time

from ..common import ROOT, log, sample_load
from .specs import SB_FIT, SB_POOL, SB_POOL_ROUNDS, SB_RING, SB_YRING, SB_YRING_SIZES


def programs_dir(bdir):
    """Where the workload's build puts bench/stackbound's programs."""
    return os.path.join(bdir, "stackbound")


def build_programs(build, bdir):
    """bench/stackbound's programs in bdir/stackbound (exact_aco only with
    LIBACO_DIR); (directory, None) or (None, the build's error)."""
    out = programs_dir(bdir)
    p = subprocess.run([os.path.join(ROOT, "bench", "stackbound", "run.sh"), "build", out,
                        "--build", build], capture_output=True, text=True)
    if p.returncode != 0:
        return None, (p.stdout + p.stderr)[-500:]
    return out, None


def parse_line(out):
    """The program's key=value line as a dict (numbers as numbers), or None."""
    lines = [l for l in out.splitlines() if l.startswith("mode=")]
    if not lines:
        return None
    kv = {}
    for item in lines[-1].split():
        k, v = item.split("=", 1)
        try:
            kv[k] = int(v)
        except ValueError:
            try:
                kv[k] = float(v)
            except ValueError:
                kv[k] = v
    return kv


def optional(rec):
    """Whether rec's program is libaco's, built only with LIBACO_DIR."""
    return rec["binary"].startswith("exact_aco")


def _record(spec, n, pdir):
    part, binary, mode = spec[:3]
    rec = {"workload": "stackbound", "part": part, "binary": binary, "mode": mode, "n": n,
           "runs": [], "wall_s": 0.0, "status": "ok"}
    if not pdir or not os.path.exists(os.path.join(pdir, binary)):
        rec["status"] = "missing"
    return rec


def _run(rec, pdir, cpu):
    """One process of rec's program; its line joins rec["runs"], or rec
    fails: a non-zero exit, no line, a wrong answer, or exact mode whose
    coroutines got no exact stack."""
    sample_load()
    cmd = ["taskset", "-c", str(cpu)] if cpu is not None and shutil.which("taskset") else []
    cmd += [os.path.join(pdir, rec["binary"])]
    cmd += [str(rec["n"])] if optional(rec) else [rec["mode"], str(rec["n"])]
    cmd += [str(rec["rounds"])] if "rounds" in rec else []
    rec["command"] = "CACS_IO_ENGINE=epoll " + " ".join(cmd)
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=1800,
                       env=dict(os.environ, CACS_IO_ENGINE="epoll"))
    rec["wall_s"] += time.time() - t0
    line = parse_line(p.stdout)
    why = None
    if p.returncode != 0 or not line:
        why = "exit status %d" % p.returncode
    elif line.get("ok") != rec["n"]:
        why = "%s of %d answers right" % (line.get("ok"), rec["n"])
    elif rec["mode"] == "exact" and line.get("exact") != 1:
        why = "exact mode, but its coroutines got no exact stack"
    if why:
        rec["status"] = "FAILED"
        rec["stderr"] = (why + ": " + p.stdout + p.stderr)[-500:]
        return
    rec["runs"].append(line)


def _summarize(rec):
    """The median of each figure over the runs; min and max of the times."""
    if rec["status"] != "ok" or not rec["runs"]:
        return
    keys = [k for k, v in rec["runs"][0].items() if isinstance(v, (int, float))]
    rec["median"] = {k: statistics.median(r[k] for r in rec["runs"]) for k in keys}
    rec["min"] = {k: min(r[k] for r in rec["runs"]) for k in keys if k.endswith("_ns")}
    rec["max"] = {k: max(r[k] for r in rec["runs"]) for k in keys if k.endswith("_ns")}


def _headline(m):
    """The time a record's log line gives: a round of the ring of yields,
    a run of the ring, or the pool's spawn and park."""
    if "round_ns" in m:
        return "round %.2f ns" % m["round_ns"]
    if "run_ns" in m:
        return "run %.1f ns" % m["run_ns"]
    return "spawn+park %.0f ns" % m["spawn_park_ns"]


def _yring_records(pdir, quick):
    """The ring of yields' records: each size (SB_YRING_SIZES) of each mode,
    with its rounds."""
    recs = []
    for full, small in SB_YRING_SIZES:
        size = small if quick else full
        if size is None:
            continue
        for binary, mode in SB_YRING:
            rec = _record(("yring", binary, mode), size[0], pdir)
            rec["rounds"] = size[1]
            recs.append(rec)
    return recs


def _mem_total():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) * 1024
    return None


def stackbound_runs(build, bdir, quick, rounds, cpu):
    """Every record of the workload: the ring's and the pool's modes
    interleaved over `rounds` (the pool's over SB_POOL_ROUNDS at most),
    then the 10,000,000 (the quick sizes with --quick)."""
    pdir, err = build_programs(build, bdir)
    if err:
        log("  stackbound: bench/stackbound/run.sh build failed: %s" % err)
    size = 4 if quick else 3
    ring = [_record(s, s[size], pdir) for s in SB_RING]
    pool = [_record(s, s[size], pdir) for s in SB_POOL]
    fit = _record(SB_FIT, SB_FIT[size], pdir)
    fit["mem_total"] = _mem_total()
    yring = _yring_records(pdir, quick)
    for k in range(rounds):
        for rec in ring + yring + (pool if k < SB_POOL_ROUNDS else []):
            if rec["status"] == "ok":
                _run(rec, pdir, cpu)
    if fit["status"] == "ok":
        _run(fit, pdir, cpu)
    recs = ring + yring + pool + [fit]
    for rec in recs:
        _summarize(rec)
        if rec["status"] == "missing" and optional(rec):
            rec["stderr"] = "not built: LIBACO_DIR names no libaco source tree"
        if rec["status"] == "missing" and err:
            rec["stderr"] = "not built: " + err
        m = rec.get("median", {})
        log("  stackbound %-4s %-10s n=%-8d %s" % (
            rec["part"], rec["mode"], rec["n"],
            rec["status"] if rec["status"] != "ok" else
            "rss %.0f B/coroutine, %s, %.0f s" % (
                m["rss_per_coro"], _headline(m), rec["wall_s"])))
    return recs
