"""skynet (issue 25, bench/skynet): libcacs's pool, goroutines and
Boost.Fiber on 1 and 2 workers; its own report (skynet.md, skynet.json)."""

import json
import os
import shutil
import statistics
import subprocess

from ..common import ROOT, WALL_RE, log, log_scale_if_wide, parse_result, pyplot
from .specs import SKYNET_BINS, SKYNET_WORKERS


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
