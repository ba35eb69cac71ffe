"""The compiler's cost (bench/README.md, 6): opt -time-passes over
generated modules, the APN pass's share."""

import os
import re
import subprocess
import sys
import time

from ..common import ROOT, llvm_bindir, log


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
