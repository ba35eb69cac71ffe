#!/usr/bin/env python3
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
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# (workload, binary, -v argument or None, full n, quick n, callgrind n)
SUMSEQ_N, SUMSEQ_CG = 50_000_000, 1_000_000
YIELD_N, YIELD_CG = 50_000_000, 1_000_000
WF_N, WF_CG = 100 << 20, 8 << 20  # bytes per task
APN_N, APN_CG = 2_000_000, 100_000
BENCHES = [
    ("sumseq", "sumseq_cpp20", "plain-loop", SUMSEQ_N, 10_000, SUMSEQ_CG),
    ("sumseq", "sumseq_cpp20", "cpp20-for", SUMSEQ_N, 10_000, SUMSEQ_CG),
    ("sumseq", "sumseq_cpp20", "cpp20-while", SUMSEQ_N, 10_000, SUMSEQ_CG),
    ("sumseq", "sumseq_boost", None, SUMSEQ_N, 10_000, SUMSEQ_CG),
    ("sumseq", "sumseq_instack", None, SUMSEQ_N, 10_000, SUMSEQ_CG),
    ("sumseq", "sumseq_instack_cpp", None, SUMSEQ_N, 10_000, SUMSEQ_CG),
    ("sumseq", "sumseq_libcacs", None, SUMSEQ_N, 10_000, SUMSEQ_CG),
    ("sumseq", "sumseq_libcacs_cpp", None, SUMSEQ_N, 10_000, SUMSEQ_CG),
    ("yield", "yield_libcacs", "empty", YIELD_N, 10_000, YIELD_CG),
    ("yield", "yield_boost", None, YIELD_N, 10_000, YIELD_CG),
    ("yield", "yield_ucontext", None, YIELD_N, 10_000, YIELD_CG),
    ("yield", "yield_boost_fiber", None, YIELD_N, 10_000, YIELD_CG),
    ("yield", "yield_libcacs", None, YIELD_N, 10_000, YIELD_CG),
    ("yield", "yield_libcacs_apn", None, YIELD_N, 10_000, YIELD_CG),
    ("yield", "yield_libcacs_apn", "small", YIELD_N, 10_000, YIELD_CG),
    ("yield", "switch_libcacs", None, YIELD_N, 10_000, YIELD_CG),
    ("yield", "switch_libcacs", "tail", YIELD_N, 10_000, YIELD_CG),
    # -fpreserve-none-callee-saved=none (x86-64, LLVM 22 builds only).
    ("yield", "yield_libcacs_csnone", None, YIELD_N, 10_000, YIELD_CG),
    ("yield", "yield_libcacs_apn_csnone", None, YIELD_N, 10_000, YIELD_CG),
    ("yield", "switch_libcacs_csnone", "tail", YIELD_N, 10_000, YIELD_CG),
    ("write_fully", "write_fully_cpp20", None, WF_N, 80_000, WF_CG),
    ("write_fully", "write_fully_boost", None, WF_N, 80_000, WF_CG),
    ("write_fully", "write_fully_libcacs", None, WF_N, 80_000, WF_CG),
    ("write_fully", "write_fully_libcacs_apn", None, WF_N, 80_000, WF_CG),
    ("apn_client", "apn_client_libcacs", None, APN_N, 2_000, APN_CG),
    ("apn_client", "apn_client_libcacs_apn", None, APN_N, 2_000, APN_CG),
    ("apn_client", "apn_client_libcacs_apn", "small", APN_N, 2_000, APN_CG),
    ("apn_client", "apn_client_libcacs_csnone", None, APN_N, 2_000, APN_CG),
    ("apn_client", "apn_client_libcacs_apn_csnone", None, APN_N, 2_000, APN_CG),
]
# The switch in the call patterns of real programs (issue 22,
# bench/patterns/patterns.h): every pattern on every runtime, interleaved.
# ops = switches; time = the thread's CPU time (bench_cpu_ns).
PAT_N, PAT_QUICK, PAT_CG = 10_000_000, 20_000, 200_000
PATTERNS = ["pingpong", "pipeline", "ring2", "ring10", "ring10same", "ring100",
            "ring10000", "chain", "server", "server-hinted"]
PAT_RUNTIMES = [("pat_cacs", "libcacs cacs_yield"),
                ("pat_asm", "inline-asm switch (cacs_switch inlined, no scheduler)"),
                ("pat_boost", "Boost jump_fcontext"),
                ("pat_fiber", "Boost.Fiber")]
# The slow ones (Boost.Fiber: ~2 us per switch in ring10000) run fewer.
# The server rows decide a margin of a few per cent over Boost
# jump_fcontext (both runtimes run the same byte loops, 84 % of the
# instructions): they run PAT_ROUNDS_X times the rounds at a third of the
# switches each (the same time), and the report gives the median of the
# per-round paired ratios (pat_paired).
PAT_N_SMALL = {"ring10000": 2_000_000, "server": 700_000,
               "server-hinted": 700_000}
PAT_ROUNDS_X = {"pat-server": 3, "pat-server-hinted": 3}
for _p in PATTERNS:
    for _b, _ in PAT_RUNTIMES:
        BENCHES.append(("pat-" + _p, _b, _p, PAT_N_SMALL.get(_p, PAT_N), PAT_QUICK,
                        # ring10000 under callgrind: 20 rounds of the ring.
                        PAT_CG))
# The paper's Figure 15 ablation (bench/libcacs/ablation.c), one run.
ABLATION_STEPS = ["vanilla", "cacs", "cacs+pn", "cacs+pn+random", "cacs+pn+random+small"]
for _s in ABLATION_STEPS:
    BENCHES.append(("ablation", "ablation", _s, PAT_N, PAT_QUICK, PAT_CG))
HANOI = [
    ("hanoi_instack", "plain-callback"),
    ("hanoi_instack", None),
    ("hanoi_libcacs", None),
    ("hanoi_boost", None),
    ("hanoi_cpp20", "cpp20-symmetric"),
    ("hanoi_cpp20", "cpp20-nested"),
]
HANOI_BASE = ("hanoi_instack", "plain-callback")
HANOI_FULL_NS = list(range(1, 21))
HANOI_CG_N = 20
MEMORY_FULL = [("memory_libcacs", 1_000_000, "4112"),
               ("memory_libcacs", 1_000_000, "16384")]
MEMORY_QUICK = [("memory_libcacs", 10_000, "4112")]
# Binaries that only exist when the runtime (target `cacs`) is configured,
# or the peer library is installed.
OPTIONAL = {"yield_boost_fiber", "sumseq_libcacs", "sumseq_libcacs_cpp", "sumseq_instack",
            "sumseq_instack_cpp", "memory_libcacs", "yield_libcacs", "yield_libcacs_apn",
            "write_fully_libcacs", "write_fully_libcacs_apn", "hanoi_libcacs", "hanoi_instack",
            "apn_client_libcacs", "apn_client_libcacs_apn", "switch_libcacs"}
# Built only where -fpreserve-none-callee-saved=none is supported.
OPTIONAL |= {b for b, _ in PAT_RUNTIMES} | {"ablation"}
OPTIONAL |= {"switch_libcacs_csnone", "yield_libcacs_csnone", "yield_libcacs_apn_csnone",
             "apn_client_libcacs_csnone", "apn_client_libcacs_apn_csnone"}

RESULT_RE = re.compile(r"^RESULT (.*)$", re.M)
WALL_RE = re.compile(r"^WALL ns=([0-9,]*)$", re.M)

# skynet (issue 25, bench/skynet): a tree of 1,111,111 coroutines on 1 and
# 2 workers, libcacs's pool vs goroutines vs Boost.Fiber work_stealing.
# Multi-threaded, so not pinned to one CPU: each run gets CPUs 0..w-1.
# Figures: the process's CPU time (every thread) and the wall-clock time.
SKYNET_N, SKYNET_QUICK = 1_000_000, 1_000
SKYNET_WORKERS = [1, 2]
SKYNET_BINS = ["skynet_pool", "skynet_go", "skynet_fiber"]


def log(msg):
    print(msg, flush=True)


def parse_result(out):
    m = RESULT_RE.search(out)
    if not m:
        return None
    kv = dict(item.split("=", 1) for item in m.group(1).split())
    kv["ns"] = [int(x) for x in kv["ns"].split(",") if x]
    for k in ("n", "ops", "checksum", "ok"):
        kv[k] = int(kv[k])
    return kv


# The highest 1-minute load average seen when a timed run started: the
# start's figure alone hides a machine that got busy during the run.
LOAD_MAX = [0.0]


def sample_load():
    try:
        one = float(open("/proc/loadavg").read().split()[0])
    except (OSError, ValueError, IndexError):
        return
    LOAD_MAX[0] = max(LOAD_MAX[0], one)


def run_binary(path, n, reps, variant, cpu, timeout=600):
    sample_load()
    cmd = []
    if cpu is not None and shutil.which("taskset"):
        cmd += ["taskset", "-c", str(cpu)]
    cmd += [path, "-n", str(n), "-r", str(reps)]
    if variant:
        cmd += ["-v", variant]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    res = parse_result(p.stdout)
    return p.returncode, res, " ".join(cmd), p.stderr


def callgrind_total(path, n, reps, variant):
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
           path, "-n", str(n), "-r", str(reps)]
    if variant:
        cmd += ["-v", variant]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    m = re.search(r"Collected : (\d+)", p.stderr)
    res = parse_result(p.stdout)
    if p.returncode != 0 or not m or not res or not res["ok"]:
        return None, None
    return int(m.group(1)), res


def instr_per_op(path, n, variant):
    t1, r1 = callgrind_total(path, n, 1, variant)
    t2, r2 = callgrind_total(path, n, 2, variant)
    if t1 is None or t2 is None:
        return None
    return (t2 - t1) / r2["ops"]


def point(bdir, workload, binary, variant, n, reps, cpu, cg_n, quick):
    """One variant alone: one process running `reps` repetitions."""
    return points(bdir, [(workload, binary, variant, n, cg_n)], 1, cpu, quick,
                  inner_reps=reps)[0]


def points(bdir, specs, rounds, cpu, quick, inner_reps=1):
    """Several variants of one workload, interleaved: `rounds` rounds, each
    running every variant once (one pinned process, `inner_reps`
    repetitions), so that load changes on the shared machine hit all
    variants alike. Then callgrind for each."""
    recs = []
    for (workload, binary, variant, n, cg_n) in specs:
        rec = {"workload": workload, "binary": binary, "arg": variant, "n": n,
               "ns_runs": [], "commands": []}
        if not os.path.exists(os.path.join(bdir, binary)):
            rec["status"] = "missing"
        recs.append(rec)
    for _ in range(rounds):
        for rec in recs:
            if rec.get("status") in ("missing", "FAILED"):
                continue
            path = os.path.join(bdir, rec["binary"])
            rc, res, cmd, err = run_binary(path, rec["n"], inner_reps, rec["arg"], cpu)
            if cmd not in rec["commands"]:
                rec["commands"].append(cmd)
            if rc != 0 or not res or not res["ok"]:
                rec["status"] = "FAILED"
                rec["stderr"] = err[-500:]
                continue
            rec.update(variant=res["variant"], ops=res["ops"], checksum=res["checksum"])
            rec["ns_runs"] += res["ns"]
    for rec, spec in zip(recs, specs):
        if rec.get("status") in ("missing", "FAILED"):
            continue
        rec["status"] = "ok"
        rec["command"] = rec["commands"][0] if rec["commands"] else ""
        per = [t / rec["ops"] for t in rec["ns_runs"]]
        rec["ns_per_op_median"] = statistics.median(per)
        rec["ns_per_op_min"] = min(per)
        rec["ns_per_op_max"] = max(per)
        cg_n = spec[4]
        if not quick and cg_n:
            rec["callgrind_n"] = cg_n
            rec["instr_per_op"] = instr_per_op(os.path.join(bdir, rec["binary"]),
                                               cg_n, rec["arg"])
    return recs


# ---- compiler cost -------------------------------------------------------


def gen_module(nfuncs, path, heavy=False):
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "compile_cost",
                                                 "gen.py"), str(nfuncs), path]
                   + (["--heavy"] if heavy else []), check=True)


def time_passes(ir, build):
    opt = os.path.join(llvm_bindir(build), "opt")
    plugin = os.path.join(build, "lib", "CACSPasses.so")
    cmd = [opt, "-load-pass-plugin=" + plugin,
           "-passes=default<O2>,auto-preserve-none", "-time-passes",
           "-disable-output", ir]
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.time() - t0
    if p.returncode != 0:
        return {"status": "FAILED", "stderr": p.stderr[-500:],
                "command": " ".join(cmd)}
    # "Pass execution timing report": lines "  user  system  user+sys  wall  name"
    rep = p.stderr
    i = rep.find("Pass execution timing report")
    sect = rep[i:] if i >= 0 else rep
    total = apn = None
    for line in sect.splitlines():
        nums = re.findall(r"(\d+\.\d+) \(\s*[\d.]+%\)", line)
        if not nums:
            continue
        name = line.split(")")[-1].strip()
        wall_s = float(nums[-1])
        if name == "Total" and total is None:
            total = wall_s
        elif "AutoPreserveNone" in name:
            apn = (apn or 0.0) + wall_s
    return {"status": "ok", "command": " ".join(cmd), "opt_wall_s": wall,
            "total_pass_s": total, "apn_pass_s": apn or 0.0}


def llvm_bindir(build):
    cache = os.path.join(build, "CMakeCache.txt")
    ver = "19"
    if os.path.exists(cache):
        m = re.search(r"^CACS_LLVM_VERSION:STRING=(\d+)", open(cache).read(), re.M)
        if m:
            ver = m.group(1)
    return "/usr/lib/llvm-%s/bin" % ver


def compile_cost(build, sizes, workdir):
    out = []
    clang = os.path.join(llvm_bindir(build), "clang")
    inputs = []
    for n in sizes:
        c = os.path.join(workdir, "gen_%d.c" % n)
        gen_module(n, c)
        inputs.append(("generated-%d-functions" % n, n, c))
    # The "large C file": realistic bodies (loops, switches), 1/10 of the
    # largest function count (10k in the full run).
    heavy_n = max(sizes[-1] // 10, 100)
    big = os.path.join(workdir, "large_%d.c" % heavy_n)
    gen_module(heavy_n, big, heavy=True)
    inputs.append(("large-c-file-%d-functions" % heavy_n, heavy_n, big))
    for name, n, c in inputs:
        ir = c + ".ll"
        cmd = [clang, "-O0", "-Xclang", "-disable-O0-optnone", "-S",
               "-emit-llvm", "-I", os.path.join(ROOT, "runtime", "include"),
               c, "-o", ir]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            out.append({"input": name, "status": "FAILED", "stderr": p.stderr[-500:]})
            continue
        r = time_passes(ir, build)
        r.update(input=name, functions=n)
        out.append(r)
        log("  compile-cost %-28s %s" % (name, fmt_cc(r)))
    return out


def fmt_cc(r):
    if r.get("status") != "ok":
        return "FAILED"
    return "O2+APN total %.3fs, APN %.4fs (%.2f%%)" % (
        r["total_pass_s"] or 0, r["apn_pass_s"],
        100.0 * r["apn_pass_s"] / r["total_pass_s"] if r["total_pass_s"] else 0)


# ---- reporting -----------------------------------------------------------


def machine_info(build):
    info = {}
    try:
        info["lscpu"] = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    except OSError:
        info["lscpu"] = "?"
    vers = []
    for exe in [os.path.join(llvm_bindir(build), "clang"),
                os.path.join(build, "bin", "clang"), "valgrind"]:
        try:
            v = subprocess.run([exe, "--version"], capture_output=True,
                               text=True).stdout.splitlines()[0]
        except (OSError, IndexError):
            v = "?"
        # Paths inside the tree are given relative to it.
        name = os.path.relpath(exe, ROOT) if exe.startswith(ROOT + os.sep) else exe
        vers.append("%s: %s" % (name, v))
    info["compilers"] = vers
    info["kernel"] = platform.platform()
    try:
        info["git"] = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"],
                                     capture_output=True, text=True).stdout.strip()
        info["git_dirty"] = subprocess.run(
            ["git", "-C", ROOT, "status", "--short", "--", "runtime", "llvm",
             "clang", "bench"], capture_output=True, text=True).stdout.strip()
    except OSError:
        pass
    info["date"] = datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC")
    info["loadavg"] = open("/proc/loadavg").read().strip()
    return info


def find(recs, workload, binary, arg=None):
    for r in recs:
        if (r["workload"] == workload and r["binary"] == binary
                and r.get("arg") == arg and r.get("status") == "ok"):
            return r
    return None


def fmt(x, d=2):
    return "-" if x is None else ("%.*f" % (d, x))


def targets(recs, hanoi):
    """Where each target of issue 6 (and issue 22) stands."""
    t = pat_targets(recs)

    def ipo(w, b, a=None):
        r = find(recs, w, b, a)
        return r.get("instr_per_op") if r else None

    def ns(w, b, a=None):
        r = find(recs, w, b, a)
        return r.get("ns_per_op_median") if r else None

    def nsmin(w, b, a=None):
        r = find(recs, w, b, a)
        return r.get("ns_per_op_min") if r else None

    empty_i = ipo("yield", "yield_libcacs", "empty")
    boost = ipo("yield", "yield_boost")
    boost_ns = ns("yield", "yield_boost")
    for b in ("yield_libcacs", "yield_libcacs_apn"):
        v = ipo("yield", b)
        if v is None or empty_i is None:
            continue
        t.append(("cacs_yield <= 15 instructions per switch, loop and call included (%s)" % b,
                  "%.1f (net of the empty loop: %.1f)" % (v, v - empty_i), round(v, 1) <= 15))
        vns = ns("yield", b)
        if boost_ns and vns:
            t.append((">= 3x faster than Boost jump_fcontext (%s)" % b,
                      "%.2f vs %.2f ns/yield: %.2fx; instructions %s vs %.1f" % (
                          vns, boost_ns, boost_ns / vns, fmt(boost, 1), v),
                      boost_ns / vns >= 3))
    c20i = ipo("sumseq", "sumseq_cpp20", "cpp20-for")
    c20 = ns("sumseq", "sumseq_cpp20", "cpp20-for")
    for b in ("sumseq_instack", "sumseq_instack_cpp", "sumseq_libcacs", "sumseq_libcacs_cpp"):
        v, vi = ns("sumseq", b), ipo("sumseq", b)
        if vi and c20i:
            t.append(("sum of sequence <= C++20's instructions per value (%s)" % b,
                      "%.1f vs %.1f instr (time %s)" % (
                          vi, c20i, "%.2fx" % (v / c20) if v and c20 else "-"),
                      round(vi, 1) <= round(c20i, 1)))
    h = {(r["binary"], r.get("arg")): r for r in hanoi if r.get("n") == 20 and r.get("status") == "ok"}
    plain = h.get(HANOI_BASE)
    hb = h.get(("hanoi_boost", None))
    for key in (("hanoi_instack", None), ("hanoi_libcacs", None)):
        r = h.get(key)
        if r and plain:
            ratio = r["ns_per_op_median"] / plain["ns_per_op_median"]
            ri, pi = r.get("instr_per_op"), plain.get("instr_per_op")
            t.append(("Hanoi(20) within 1.2x of plain recursion (%s)" % key[0],
                      "time %.2fx (min-based %.2fx), instr %s" % (
                          ratio, r["ns_per_op_min"] / plain["ns_per_op_min"],
                          "%.2fx" % (ri / pi) if ri and pi else "-"),
                      ratio <= 1.2))
            if hb:
                sp = hb["ns_per_op_median"] / r["ns_per_op_median"]
                bi = hb.get("instr_per_op")
                t.append(("Hanoi(20) >= 2x faster than Boost (%s)" % key[0],
                          "time %.2fx (min-based %.2fx), instr %s" % (
                              sp, hb["ns_per_op_min"] / r["ns_per_op_min"],
                              "%.2fx" % (bi / ri) if ri and bi else "-"),
                          sp >= 2))
    wb, wc = ns("write_fully", "write_fully_boost"), ns("write_fully", "write_fully_cpp20")
    for b in ("write_fully_libcacs_apn", "write_fully_libcacs"):
        v = ns("write_fully", b)
        if v and wb and wc:
            t.append(("write_fully faster than Boost and C++20 (%s)" % b,
                      "%.2f ns/op vs Boost %.2f, C++20 %.2f (min %.2f / %.2f / %.2f); instr %s vs %s / %s" % (
                          v, wb, wc, nsmin("write_fully", b), nsmin("write_fully", "write_fully_boost"),
                          nsmin("write_fully", "write_fully_cpp20"), fmt(ipo("write_fully", b), 1),
                          fmt(ipo("write_fully", "write_fully_boost"), 1),
                          fmt(ipo("write_fully", "write_fully_cpp20"), 1)),
                      v < wb and v < wc))
    a, b = ns("apn_client", "apn_client_libcacs"), ns("apn_client", "apn_client_libcacs_apn")
    ai, bi = ipo("apn_client", "apn_client_libcacs"), ipo("apn_client", "apn_client_libcacs_apn")
    if a and b:
        gain = a / b - 1
        gmin = nsmin("apn_client", "apn_client_libcacs") / nsmin("apn_client", "apn_client_libcacs_apn") - 1
        t.append(("APN client >= 15% faster with -fauto-preserve-none (libcacs)",
                  "time %+.1f%% (min-based %+.1f%%), instr %s" % (
                      100 * gain, 100 * gmin, "%+.1f%%" % (100 * (ai / bi - 1)) if ai and bi else "-"),
                  gain >= 0.15))
    return t


def write_report(outdir, recs, hanoi, mem, cc, info, argv, quick, plots):
    os.makedirs(outdir, exist_ok=True)
    data = {"machine": info, "command": argv, "quick": quick,
            "results": recs, "hanoi": hanoi, "memory": mem, "compile_cost": cc}
    # Machine paths stay out of the recorded results: paths inside the tree
    # are written relative to it.
    with open(os.path.join(outdir, "results.json"), "w") as f:
        f.write(json.dumps(data, indent=1).replace(ROOT + os.sep, "") + "\n")
    with open(os.path.join(outdir, "results.csv"), "w") as f:
        f.write("workload,variant,binary,arg,n,ops,ns_per_op_median,ns_per_op_min,"
                "ns_per_op_max,instr_per_op,status\n")
        for r in recs + hanoi:
            f.write("%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n" % (
                r["workload"], r.get("variant", ""), r["binary"], r.get("arg") or "",
                r["n"], r.get("ops", ""), fmt(r.get("ns_per_op_median"), 3),
                fmt(r.get("ns_per_op_min"), 3), fmt(r.get("ns_per_op_max"), 3),
                fmt(r.get("instr_per_op"), 2), r["status"]))
    L = []
    L.append("# cacs benchmark results%s\n" % (" (quick smoke run: sizes are tiny, numbers meaningless)" if quick else ""))
    L.append("Generated by `%s` on %s. Raw data: `results.json`, `results.csv`.\n" % (" ".join(argv), info["date"]))
    if info.get("partial"):
        L.append("Partial re-run: %s.\n" % info["partial"])
    reps_used = max([len(r.get("ns_runs", [])) for r in recs] + [0])
    L.append("Time: the CPU time of the benchmark's thread (`CLOCK_THREAD_CPUTIME_ID`: time the "
             "scheduler gives other processes is left out, cache and branch misses stay in), median "
             "of %d runs (processes) pinned with `taskset -c 1`, the variants of "
             "a workload interleaved round-robin (min..max in brackets); the machine is a shared "
             "2-core VM, so treat times as indicative. Instructions/op: callgrind, "
             "(Ir(-r 2) - Ir(-r 1)) / ops, at the size in column `cg n`.\n" % reps_used)
    order = ["sumseq", "yield", "write_fully", "apn_client"]
    titles = {"sumseq": "1. Sum of sequence (ops = values)",
              "yield": "4. yield among 10 coroutines (ops = yields; instr/op includes the loop and the call, net = minus the empty loop); libcacs-switch rows: ping-pong between two contexts through cacs/switch.h, no scheduler (ops = switches)",
              "write_fully": "3. write_fully, 10 tasks x 100 MB, 800-byte send_some (ops = wait_for_ready+send_some)",
              "apn_client": "5. APN on a multi-level client (ops = response messages)"}
    for w in order:
        L.append("\n## %s\n" % titles[w])
        L.append("| variant | binary | n | ns/op median [min..max] | instr/op | cg n |")
        L.append("|---|---|---|---|---|---|")
        empty = find(recs, "yield", "yield_libcacs", "empty")
        for r in recs:
            if r["workload"] != w:
                continue
            if r["status"] != "ok":
                L.append("| %s | %s | %s | **%s** | | |" % (r.get("arg") or "", r["binary"], r["n"], r["status"]))
                continue
            ipo = r.get("instr_per_op")
            extra = ""
            if w == "yield" and empty and ipo is not None and empty.get("instr_per_op") is not None and r is not empty:
                extra = " (%.1f net)" % (ipo - empty["instr_per_op"])
            L.append("| %s | %s | %s | %s [%s..%s] | %s%s | %s |" % (
                r["variant"], r["binary"], r["n"], fmt(r["ns_per_op_median"]),
                fmt(r["ns_per_op_min"]), fmt(r["ns_per_op_max"]), fmt(ipo, 1), extra,
                r.get("callgrind_n", "-")))
    pat_report(L, recs)
    abl = [r for r in recs if r["workload"] == "ablation"]
    if abl:
        L.append("\n## 9. The paper's Figure 15 ablation: yield among 10 coroutines "
                 "(bench/libcacs/ablation.c; ops = yields, time = thread CPU time)\n")
        L.append("| step | ns/yield median [min..max] | instr/yield |")
        L.append("|---|---|---|")
        for r in abl:
            if r["status"] != "ok":
                L.append("| %s | **%s** | |" % (r.get("arg"), r["status"]))
                continue
            L.append("| %s | %s [%s..%s] | %s |" % (
                r["arg"], fmt(r["ns_per_op_median"]), fmt(r["ns_per_op_min"]),
                fmt(r["ns_per_op_max"]), fmt(r.get("instr_per_op"), 1)))
    L.append("\n## 2. Hanoi (time per move normalized to plain recursion + callback)\n")
    ns_list = sorted({r["n"] for r in hanoi})
    names = []
    for r in hanoi:
        key = (r["binary"], r.get("arg"))
        if key not in names:
            names.append(key)
    by = {(r["binary"], r.get("arg"), r["n"]): r for r in hanoi}
    def label(b, a):
        for r in hanoi:
            if r["binary"] == b and r.get("arg") == a and r.get("variant"):
                return r["variant"]
        return a or b
    L.append("| n | " + " | ".join(label(b, a) for b, a in names) + " |")
    L.append("|---" * (len(names) + 1) + "|")
    for n in ns_list:
        base = by.get(HANOI_BASE + (n,))
        cells = []
        for b, a in names:
            r = by.get((b, a, n))
            if not r or r["status"] != "ok":
                cells.append(r["status"] if r else "-")
            elif base and base["status"] == "ok":
                cells.append("%.2fx (%.2f ns)" % (r["ns_per_op_median"] / base["ns_per_op_median"], r["ns_per_op_median"]))
            else:
                cells.append("%.2f ns" % r["ns_per_op_median"])
        L.append("| %d | %s |" % (n, " | ".join(cells)))
    hc = [r for r in hanoi if r.get("instr_per_op") is not None]
    if hc:
        L.append("\nInstructions per move at n=%d (callgrind): " % HANOI_CG_N + ", ".join(
            "%s %.1f" % (r.get("variant"), r["instr_per_op"]) for r in hc) + "\n")
    L.append("\n## 6. Compiler cost (opt -passes='default<O2>,auto-preserve-none' -time-passes)\n")
    L.append("| input | functions | O2+APN pass time (s) | APN pass (s) | APN share |")
    L.append("|---|---|---|---|---|")
    for r in cc:
        if r.get("status") != "ok":
            L.append("| %s | %s | FAILED | | |" % (r.get("input"), r.get("functions")))
            continue
        share = 100.0 * r["apn_pass_s"] / r["total_pass_s"] if r["total_pass_s"] else 0
        L.append("| %s | %s | %.3f | %.4f | %.2f%% |" % (r["input"], r["functions"], r["total_pass_s"] or 0, r["apn_pass_s"], share))
    L.append("\n## 7. Resident memory per idle coroutine (VmRSS growth / n; control block + stack)\n")
    L.append("| binary | coroutines | stack bytes | bytes per idle coroutine | status |")
    L.append("|---|---|---|---|---|")
    for r in mem:
        if r["status"] == "ok":
            L.append("| %s | %d | %s | %.0f | ok |" % (r["binary"], r["n"], r["arg"], r["ns_runs"][0] / 1000.0))
        else:
            L.append("| %s | %d | %s | - | %s |" % (r["binary"], r["n"], r["arg"], r["status"]))
    if not quick:
        L.append("\n## Targets\n")
        L.append("| target | measured | met |")
        L.append("|---|---|---|")
        for name, val, ok in targets(recs, hanoi):
            L.append("| %s | %s | %s |" % (name, val, "yes" if ok else "**no**"))
    if plots:
        L.append("\n## Plots\n")
        for p in plots:
            L.append("![%s](%s)" % (p, p))
    L.append("\n## Machine\n")
    L.append("```\n%s\n```" % info["lscpu"].strip())
    L.append("\n```\n%s\nkernel: %s\nload average at start: %s\nload average at end: %s (highest 1-minute figure when a timed run started: %s)\ngit HEAD: %s\nuncommitted in runtime/llvm/clang/bench:\n%s\n```\n" % (
        "\n".join(info["compilers"]), info["kernel"], info["loadavg"], info.get("loadavg_end", "?"),
        info.get("loadavg_max", "?"), info.get("git", "?"),
        info.get("git_dirty", "") or "(none)"))
    with open(os.path.join(outdir, "README.md"), "w") as f:
        f.write(("\n".join(L) + "\n").replace(ROOT + os.sep, ""))


def pat_report(L, recs):
    """The pattern matrix (issue 22): ns/switch and instructions/switch of
    every runtime in every pattern, and libcacs's ratios to the peers."""
    if not any(r["workload"].startswith("pat-") for r in recs):
        return
    L.append("\n## 8. The switch in the call patterns of real programs "
             "(bench/patterns; ops = switches)\n")
    L.append("ns/switch: median of the interleaved runs, **CPU time of the thread** "
             "(`CLOCK_THREAD_CPUTIME_ID`: on the shared machine the time the scheduler "
             "gives other processes is left out); instructions/switch (callgrind) in "
             "brackets. Every side of a pattern is a separately compiled file built by "
             "`build/bin/clang -O2 -fauto-preserve-none` and yields from its own call "
             "sites.\n")
    L.append("| pattern | " + " | ".join(lab for _, lab in PAT_RUNTIMES) +
             " | libcacs vs Boost jump_fcontext | libcacs vs Boost.Fiber | "
             "libcacs / inline asm |")
    L.append("|---" * (len(PAT_RUNTIMES) + 4) + "|")
    for p in PATTERNS:
        w = "pat-" + p
        cells, ns = [], {}
        for b, _ in PAT_RUNTIMES:
            r = next((x for x in recs if x["workload"] == w and x["binary"] == b), None)
            if not r or r["status"] != "ok":
                cells.append(r["status"] if r else "-")
                continue
            ns[b] = r["ns_per_op_median"]
            cells.append("%s (%s)" % (fmt(r["ns_per_op_median"]), fmt(r.get("instr_per_op"), 1)))
        c = ns.get("pat_cacs")

        def ratio(b, inv=False):
            if not c or b not in ns:
                return "-"
            if inv:
                return "%.2fx" % (c / ns[b])
            text = "%.2fx faster" % (ns[b] / c)
            pr = pat_paired(recs, p, b)
            if pr:
                text += " (paired %.3fx; libcacs faster in %d of %d rounds)" % pr
            return text
        L.append("| %s | %s | %s | %s | %s |" % (
            p, " | ".join(cells), ratio("pat_boost"), ratio("pat_fiber"),
            ratio("pat_asm", inv=True)))
    L.append("\n\"paired\": the median over the rounds of the peer's time divided by "
             "libcacs's in the same round (the runs of one round are back to back, so "
             "a load change hits both), and in how many rounds libcacs's was the "
             "smaller; %s run %s rounds of a third of the switches each.\n" % (
                 " and ".join(w[4:] for w in PAT_ROUNDS_X),
                 "/".join(str(x) for x in sorted(set(PAT_ROUNDS_X.values())))
                 + "x the others'"))


def pat_paired(recs, p, peer):
    """(median of the per-round ratios peer / libcacs, rounds libcacs won,
    rounds) in pattern p, or None. Round k's runs of the interleaved
    binaries are ns_runs[k] of each record (points(): one repetition per
    process), so they pair by index."""
    w = "pat-" + p
    c = next((x for x in recs if x["workload"] == w and x["binary"] == "pat_cacs"), None)
    o = next((x for x in recs if x["workload"] == w and x["binary"] == peer), None)
    if not c or not o or c.get("status") != "ok" or o.get("status") != "ok":
        return None
    pairs = list(zip(c["ns_runs"], o["ns_runs"]))
    if len(pairs) < 3 or len(c["ns_runs"]) != len(o["ns_runs"]):
        return None
    ratios = [y / x * c["ops"] / o["ops"] for x, y in pairs]
    return (statistics.median(ratios), sum(1 for r in ratios if r > 1), len(ratios))


def pat_targets(recs):
    """Issue 22's benchmark goals (not gates)."""
    t = []

    def get(p, b):
        r = find(recs, "pat-" + p, b, p)
        return r["ns_per_op_median"] if r else None
    c, bo, asm = get("pingpong", "pat_cacs"), get("pingpong", "pat_boost"), get("pingpong", "pat_asm")
    if c and bo:
        t.append(("pingpong of two functions: libcacs >= 3x faster than Boost jump_fcontext",
                  "%.2f vs %.2f ns: %.2fx" % (c, bo, bo / c), bo / c >= 3))
    if c and asm:
        t.append(("pingpong of two functions: libcacs within 1.5x of the inline-asm switch",
                  "%.2f vs %.2f ns: %.2fx" % (c, asm, c / asm), c / asm <= 1.5))
    for p in PATTERNS:
        c = get(p, "pat_cacs")
        for b, lab in (("pat_boost", "Boost jump_fcontext"), ("pat_fiber", "Boost.Fiber")):
            o = get(p, b)
            if c and o:
                pr = pat_paired(recs, p, b)
                t.append(("%s: libcacs faster than %s" % (p, lab),
                          "%.2f vs %.2f ns" % (c, o) +
                          (" (paired %.3fx, %d/%d)" % pr if pr else ""), c < o))
    return t

def log_scale_if_wide(set_scale, values):
    """A log axis where the values span a decade or more: on a linear one the
    cheap bars (cacs's, a few ns) vanish under the expensive ones
    (swapcontext's, a microsecond)."""
    v = [x for x in values if x and x > 0]
    if v and max(v) >= 10 * min(v):
        set_scale("log")


def pyplot():
    """matplotlib.pyplot drawing to files (Agg), or None (and a note) where
    matplotlib is not installed: the reports do without their plots."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log("NOTE: matplotlib is not installed for %s: no plots. "
            "Install it with: apt-get install python3-matplotlib" % sys.executable)
        return None
    return plt


def make_plots(outdir, recs, hanoi, cc):
    plt = pyplot()
    if plt is None:
        return []
    made = []
    for w in ("sumseq", "yield", "write_fully", "apn_client"):
        rs = [r for r in recs if r["workload"] == w and r["status"] == "ok"]
        if not rs:
            continue
        fig, ax = plt.subplots(1, 2, figsize=(12, 0.45 * len(rs) + 1.5))
        labels = [r["variant"] for r in rs]
        ax[0].barh(labels, [r["ns_per_op_median"] for r in rs],
                   xerr=[[r["ns_per_op_median"] - r["ns_per_op_min"] for r in rs],
                         [r["ns_per_op_max"] - r["ns_per_op_median"] for r in rs]])
        ax[0].set_xlabel("ns/op (median, min..max)")
        log_scale_if_wide(ax[0].set_xscale, [r["ns_per_op_median"] for r in rs])
        ax[1].barh(labels, [r.get("instr_per_op") or 0 for r in rs])
        ax[1].set_xlabel("instructions/op (callgrind)")
        log_scale_if_wide(ax[1].set_xscale, [r.get("instr_per_op") for r in rs])
        ax[1].set_yticklabels([])
        fig.suptitle(w)
        fig.tight_layout()
        name = "%s.png" % w
        fig.savefig(os.path.join(outdir, name), dpi=90)
        plt.close(fig)
        made.append(name)
    if hanoi:
        fig, ax = plt.subplots(figsize=(8, 5))
        keys = []
        for r in hanoi:
            k = (r["binary"], r.get("arg"))
            if k not in keys:
                keys.append(k)
        by = {(r["binary"], r.get("arg"), r["n"]): r for r in hanoi if r["status"] == "ok"}
        for k in keys:
            xs, ys = [], []
            for n in sorted({r["n"] for r in hanoi}):
                r, b = by.get(k + (n,)), by.get(HANOI_BASE + (n,))
                if r and b:
                    xs.append(n)
                    ys.append(r["ns_per_op_median"] / b["ns_per_op_median"])
            if xs:
                lab = next((r["variant"] for r in hanoi if (r["binary"], r.get("arg")) == k
                            and r.get("variant")), k[1] or k[0])
                ax.plot(xs, ys, marker="o", label=lab)
        ax.set_yscale("log")
        ax.set_xlabel("disks n")
        ax.set_ylabel("time / plain recursion+callback")
        ax.legend()
        ax.set_title("Hanoi(1..20)")
        fig.tight_layout()
        fig.savefig(os.path.join(outdir, "hanoi.png"), dpi=90)
        plt.close(fig)
        made.append("hanoi.png")
    okcc = [r for r in cc if r.get("status") == "ok" and r["input"].startswith("generated")]
    if okcc:
        fig, ax = plt.subplots(figsize=(7, 4))
        ax.plot([r["functions"] for r in okcc], [r["total_pass_s"] for r in okcc], marker="o", label="O2 + APN")
        ax.plot([r["functions"] for r in okcc], [r["apn_pass_s"] for r in okcc], marker="o", label="APN pass")
        ax.set_xlabel("functions in module")
        ax.set_ylabel("seconds (opt -time-passes, wall)")
        ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(outdir, "compile_cost.png"), dpi=90)
        plt.close(fig)
        made.append("compile_cost.png")
    return made


def build_go_skynet(bdir):
    """skynet_go from bench/skynet/skynet_go.go, when Go is installed."""
    go = shutil.which("go")
    out = os.path.join(bdir, "skynet_go")
    if not go:
        return
    env = dict(os.environ, GOCACHE=os.path.abspath(os.path.join(bdir, "go-cache")),
               GO111MODULE="off")
    p = subprocess.run([go, "build", "-o", out,
                        os.path.join(ROOT, "bench", "skynet", "skynet_go.go")],
                       env=env, check=False, capture_output=True, text=True)
    if p.returncode != 0:
        log("  skynet_go: go build failed: %s" % p.stderr[-300:])


def skynet_runs(bdir, n, rounds):
    """Every binary on every worker count, interleaved over `rounds`."""
    build_go_skynet(bdir)
    recs = []
    for w in SKYNET_WORKERS:
        group = [{"workload": "skynet", "binary": b, "workers": w, "n": n,
                  "cpu_ns": [], "wall_ns": [], "status": "ok"} for b in SKYNET_BINS]
        for _ in range(rounds):
            for rec in group:
                path = os.path.join(bdir, rec["binary"])
                if not os.path.exists(path):
                    rec["status"] = "missing"
                    continue
                if rec["status"] != "ok":
                    continue
                cmd = []
                if shutil.which("taskset"):
                    cmd += ["taskset", "-c", "0" if w == 1 else "0-%d" % (w - 1)]
                cmd += [path, "-n", str(n), "-r", "1", "-v", str(w)]
                rec["command"] = " ".join(cmd)
                p = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
                res, wall = parse_result(p.stdout), WALL_RE.search(p.stdout)
                if p.returncode != 0 or not res or not res["ok"] or not wall:
                    rec["status"] = "FAILED"
                    rec["stderr"] = p.stderr[-500:]
                    continue
                rec.update(variant=res["variant"], ops=res["ops"])
                rec["cpu_ns"] += res["ns"]
                rec["wall_ns"] += [int(x) for x in wall.group(1).split(",") if x]
        for rec in group:
            if rec["status"] == "ok" and rec["cpu_ns"]:
                rec["cpu_ms_median"] = statistics.median(rec["cpu_ns"]) / 1e6
                rec["wall_ms_median"] = statistics.median(rec["wall_ns"]) / 1e6
                rec["cpu_ns_per_coroutine"] = statistics.median(rec["cpu_ns"]) / rec["ops"]
        recs += group
    return recs


def write_skynet(out, recs, quick):
    # Paths inside the tree are written relative to it, as in the other reports.
    with open(os.path.join(out, "skynet.json"), "w") as f:
        f.write(json.dumps({"loadavg": os.getloadavg(), "quick": quick, "results": recs},
                           indent=1).replace(ROOT + os.sep, ""))
    L = ["# skynet (bench/skynet)%s\n" % (" (quick: tiny, meaningless)" if quick else ""),
         "Load average at the end: %.1f %.1f %.1f. CPU = the process's CPU time (all "
         "threads), wall = wall-clock; medians of interleaved runs.\n" % os.getloadavg(),
         "| workers | runtime | CPU ms | wall ms | CPU ns/coroutine | command |",
         "|---|---|---|---|---|---|"]
    for r in recs:
        if r["status"] != "ok":
            L.append("| %d | %s | %s | | | |" % (r["workers"], r["binary"], r["status"]))
            continue
        L.append("| %d | %s | %.1f | %.1f | %.1f | `%s` |" % (
            r["workers"], r.get("variant", r["binary"]), r["cpu_ms_median"],
            r["wall_ms_median"], r["cpu_ns_per_coroutine"], r.get("command", "")))
    if plot_skynet(out, recs):
        L.append("\n![skynet](skynet.png)")
    with open(os.path.join(out, "skynet.md"), "w") as f:
        f.write(("\n".join(L) + "\n").replace(ROOT + os.sep, ""))


def plot_skynet(out, recs):
    """skynet.png: each runtime's CPU and wall time (medians) on 1 and 2
    workers; a log axis where they span a decade (Boost.Fiber's seconds
    beside the pool's milliseconds)."""
    plt = pyplot()
    ok = [r for r in recs if r.get("status") == "ok"]
    if plt is None or not ok:
        return []
    workers = sorted({r["workers"] for r in ok})
    fig, axes = plt.subplots(1, 2, figsize=(11, 0.5 * len(ok) + 1.5))
    labels = [r.get("variant", r["binary"]) for r in ok]
    for ax, key, name in ((axes[0], "cpu_ms_median", "CPU ms (all threads)"),
                          (axes[1], "wall_ms_median", "wall-clock ms")):
        ax.barh(labels, [r[key] for r in ok],
                color=["C%d" % workers.index(r["workers"]) for r in ok])
        ax.set_xlabel(name + ", median")
        log_scale_if_wide(ax.set_xscale, [r[key] for r in ok])
        ax.invert_yaxis()
    axes[1].set_yticklabels([])
    fig.suptitle("skynet: %s coroutines (bench/skynet)" % format(ok[0]["ops"], ","))
    fig.tight_layout()
    fig.savefig(os.path.join(out, "skynet.png"), dpi=90)
    plt.close(fig)
    return ["skynet.png"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--cpu", default="1")
    ap.add_argument("--out", default=None)
    ap.add_argument("--only", default=None, help="comma list of workloads")
    ap.add_argument("--argv", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--replot", action="store_true",
                    help="only redraw the plots from OUT/results.json")
    a = ap.parse_args()
    if a.replot:
        out = a.out or os.path.join(ROOT, "bench", "results")
        with open(os.path.join(out, "results.json")) as f:
            prev = json.load(f)
        made = make_plots(out, prev.get("results", []), prev.get("hanoi", []),
                          prev.get("compile_cost", []))
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
        info["partial"] = "%s re-run by `%s` on %s; the rest from `%s` on %s" % (
            ",".join(sorted(only)), " ".join(argv), info["date"],
            " ".join(prev.get("command", [])), prev.get("machine", {}).get("date", "?"))
        if prev.get("machine", {}).get("partial"):
            info["partial"] += " (earlier: %s)" % prev["machine"]["partial"]
        info["date"] = prev.get("machine", {}).get("date", info["date"])
        argv = prev.get("command", argv)
    info["loadavg_end"] = open("/proc/loadavg").read().strip()
    info["loadavg_max"] = "%.2f" % LOAD_MAX[0]
    plots = [] if a.quick else make_plots(out, recs, hanoi, cc)
    write_report(out, recs, hanoi, mem, cc, info, argv, a.quick, plots)
    log("wrote %s" % os.path.join(out, "README.md"))
    if not a.quick:
        for name, val, ok in targets(recs, hanoi):
            log("  target %-62s %-40s %s" % (name, val, "met" if ok else "MISSED"))
    if failures:
        log("FAILED:\n  " + "\n  ".join(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
