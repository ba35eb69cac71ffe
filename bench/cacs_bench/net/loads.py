"""The load points of scripts/bench-net: echo (our load generator),
HTTP (wrk), and the mocked clients."""

import os
import re
import shutil
import statistics
import subprocess
import time

from ..common import instr_per_op, log
from .report import loadavg
from .servers import (MOCK_VARIANTS, SERVER_ENV, Server, cpu_per_req, fmt_point, free_port,
                      kv_line, pinned, proc_cpu, run_cmd, server_cpu, shown, wait_port)


def run_load(cmd, srv, start, length, timeout):
    """Run the load `cmd` beside the server `srv`; the server's and the
    load's CPU time (proc_cpu) from `start` s after the load starts, over
    `length` s (no sample if length < 0.5). (rc, stdout, stderr, samples)."""
    g = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    samples = None
    try:
        if length >= 0.5:
            time.sleep(start)
            s0, g0 = proc_cpu(srv.proc.pid), proc_cpu(g.pid)
            t0 = time.monotonic()
            time.sleep(length)
            s1, g1 = proc_cpu(srv.proc.pid), proc_cpu(g.pid)
            samples = (s0, s1, g0, g1, time.monotonic() - t0)
        out, err = g.communicate(timeout=timeout)
        return g.returncode, out, err, samples
    except subprocess.TimeoutExpired:
        g.kill()
        out, err = g.communicate()
        return -1, out, "timeout", samples


def add_cpu(rec, samples):
    """Per-request CPU of the server (srv_*) and of the load (load_*) at the
    record's request rate; the machine's 1-minute load average (load1)."""
    rec["load1"] = float(loadavg()[0])
    if not samples:
        return
    s0, s1, g0, g1, span = samples
    nreq = rec["rps"] * span
    for who, (x, y) in (("srv", (s0, s1)), ("load", (g0, g1))):
        for k, v in cpu_per_req(x, y, nreq).items():
            rec[f"{who}_{k}"] = v


def loadgen_cmd(bdir, port, mode, conns, a):
    return pinned(a.load_cpu, [os.path.join(bdir, "net_loadgen"), "-p", str(port),
                               "-c", str(conns), "-m", mode, "-d", str(a.secs),
                               "-w", str(a.warm), "-e", a.load_engine])


# ---- echo (and HTTP from net_loadgen) ------------------------------------------


def echo_once(bdir, binary, env, mode, conns, a, proto="echo"):
    port = free_port()
    srv = Server(os.path.join(bdir, binary), port, proto, server_cpu(a, binary), env)
    rec = {"status": "FAILED"}
    try:
        if not wait_port(port, srv.proc, 10):
            rec["error"] = "server did not listen"
            return rec
        cmd = loadgen_cmd(bdir, port, mode, conns, a)
        # The load generator's window starts after its connections and the
        # warm-up; the samples sit inside it.
        rc, out, err, samples = run_load(cmd, srv, a.warm + 0.2, a.secs - 0.3,
                                         a.secs + a.warm + 60)
        kv = kv_line(out)
        rec["command"] = shown(cmd)
        if rc != 0 or not kv or int(kv["msgs"]) == 0:
            rec["error"] = (err or "no message came back")[-300:]
            return rec
        rec.update(status="ok", rps=float(kv["rps"]), p50_us=float(kv["p50_us"]),
                   p99_us=float(kv["p99_us"]), msgs=int(kv["msgs"]),
                   engine=kv.get("engine", "epoll"))
        # Fairness (net_loadgen only; wrk prints none): how many connections
        # completed nothing inside the window, and the fewest any completed.
        for k in ("conn_idle", "conn_min"):
            if k in kv:
                rec[k] = int(kv[k])
        add_cpu(rec, samples)
        return rec
    finally:
        src, _, serr = srv.stop()
        if rec["status"] != "ok" and serr:
            rec["server_stderr"] = serr[-300:]


def summarize(runs):
    ok = [r for r in runs if r["status"] == "ok"]
    if not ok or len(ok) < len(runs):
        return {"status": "FAILED" if runs else "missing",
                "errors": [r.get("error", "") for r in runs if r["status"] != "ok"][:2]}
    s = {"status": "ok", "runs": len(ok)}
    for k in ("rps", "p50_us", "p99_us"):
        vals = [r[k] for r in ok]
        s[k] = statistics.median(vals)
        s[k + "_min"], s[k + "_max"] = min(vals), max(vals)
    for k in ("srv_us", "srv_user_us", "srv_sys_us", "load_us", "load_user_us",
              "load_sys_us"):
        vals = [r[k] for r in ok if k in r]
        if len(vals) == len(ok):
            s[k] = statistics.median(vals)
            s[k + "_min"], s[k + "_max"] = min(vals), max(vals)
    # The worst run decides: a server that starves connections in one run
    # of five starves them.
    if all("conn_idle" in r for r in ok):
        s["conn_idle"] = max(r["conn_idle"] for r in ok)
        s["conn_min"] = min(r["conn_min"] for r in ok)
    s["command"] = ok[0].get("command", "")
    s["engine"] = ok[0].get("engine", "")
    s["load1"] = [r["load1"] for r in ok if "load1" in r]
    return s


def bench_echo(bdir, a, servers, points):
    res = {}
    for label, mode, conns, _ in points:
        runs = {b: [] for b in servers}
        for _ in range(a.reps):
            for b in servers:
                if not os.path.exists(os.path.join(bdir, b)):
                    continue
                env = dict(SERVER_ENV.get(b, {}))
                runs[b].append(echo_once(bdir, b, env, mode, conns, a))
        res[label] = {}
        for b in servers:
            if not os.path.exists(os.path.join(bdir, b)):
                res[label][b] = {"status": "missing"}
            else:
                res[label][b] = summarize(runs[b])
            log(f"  echo {label:24s} {b:24s} {fmt_point(res[label][b])}")
    return res


# ---- http (wrk) -----------------------------------------------------------------

WRK_LAT_RE = re.compile(r"^\s+(50|99)(?:\.000)?%\s+([\d.]+)(us|ms|s)\s*$", re.M)


def wrk_parse(out):
    m = re.search(r"Requests/sec:\s+([\d.]+)", out)
    if not m:
        return None
    r = {"rps": float(m.group(1))}
    scale = {"us": 1, "ms": 1000, "s": 1e6}
    for q, v, u in WRK_LAT_RE.findall(out):
        r["p%s_us" % q] = float(v) * scale[u]
    errs = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    r["socket_errors"] = sum(int(x) for x in errs.groups()) if errs else 0
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    r["non2xx"] = int(non2xx.group(1)) if non2xx else 0
    return r


def http_once(bdir, binary, conns, a):
    if a.http_load == "loadgen":
        return echo_once(bdir, binary, SERVER_ENV.get(binary, {}), "http", conns, a,
                         proto="http")
    port = free_port()
    srv = Server(os.path.join(bdir, binary), port, "http", server_cpu(a, binary),
                 SERVER_ENV.get(binary, {}))
    rec = {"status": "FAILED"}
    try:
        if not wait_port(port, srv.proc, 10):
            rec["error"] = "server did not listen"
            return rec
        url = f"http://127.0.0.1:{port}/"
        if a.warm > 0:
            run_cmd(pinned(a.load_cpu, ["wrk", "-t1", f"-c{conns}",
                                        f"-d{max(1, round(a.warm))}s", url]), a.warm + 30)
        cmd = pinned(a.load_cpu, ["wrk", "-t1", f"-c{conns}",
                                  f"-d{max(1, round(a.secs))}s", "--latency", url])
        secs = max(1, round(a.secs))
        rc, out, err, samples = run_load(cmd, srv, 0.1, secs - 0.3, a.secs + 60)
        r = wrk_parse(out)
        rec["command"] = shown(cmd)
        if rc != 0 or not r or r["non2xx"] or r["socket_errors"]:
            rec["error"] = (err or out or "")[-300:]
            return rec
        rec.update(status="ok", engine="wrk", **r)
        add_cpu(rec, samples)
        return rec
    finally:
        srv.stop()


def bench_http(bdir, a, servers, conns_list):
    res = {}
    if a.http_load == "wrk" and not shutil.which("wrk"):
        log("  http: wrk not found (apt-get install wrk), skipped")
        return {"status": "missing: wrk"}
    for conns in conns_list:
        label = f"{conns} conns"
        runs = {b: [] for b in servers}
        for _ in range(a.reps):
            for b in servers:
                if os.path.exists(os.path.join(bdir, b)):
                    runs[b].append(http_once(bdir, b, conns, a))
        res[label] = {}
        for b in servers:
            res[label][b] = (summarize(runs[b]) if os.path.exists(os.path.join(bdir, b))
                             else {"status": "missing"})
            log(f"  http {label:24s} {b:24s} {fmt_point(res[label][b])}")
    return res


# ---- mocked clients -----------------------------------------------------------------


def mock_run(path, n, reps, variant, cpu, timeout=600):
    cmd = pinned(cpu, [path, "-n", str(n), "-r", str(reps), "-v", variant])
    rc, out, err = run_cmd(cmd, timeout)
    kv = kv_line(out)
    if rc != 0 or not kv or kv.get("ok") != "1":
        return None, shown(cmd), err[-300:]
    return kv, shown(cmd), ""


def bench_mock(bdir, a, kinds, cg):
    """{"<kind> <seg>": {binary: record}} for each client and read size."""
    res = {}
    for kind, seg in [(k, g) for k in kinds for g in a.segs]:
        variant = f"{kind}:{seg}:{a.coros}"
        recs = {}
        for label, b in MOCK_VARIANTS:
            path = os.path.join(bdir, b)
            recs[b] = {"label": label, "binary": b, "arg": variant, "ns": [],
                       "status": "ok" if os.path.exists(path) else "missing"}
        for _ in range(a.reps):
            for label, b in MOCK_VARIANTS:
                rec = recs[b]
                if rec["status"] != "ok":
                    continue
                kv, cmd, err = mock_run(os.path.join(bdir, b), a.mock_n, 1, variant,
                                        a.load_cpu)
                rec["command"] = cmd
                if not kv:
                    rec["status"] = "FAILED"
                    rec["error"] = err
                    continue
                rec["ops"] = int(kv["ops"])
                rec["ns"] += [int(x) for x in kv["ns"].split(",") if x]
        for label, b in MOCK_VARIANTS:
            rec = recs[b]
            if rec["status"] == "ok":
                per = [t / rec["ops"] for t in rec["ns"]]
                rec["ns_per_req"] = statistics.median(per)
                rec["req_per_s"] = 1e9 / rec["ns_per_req"]
                if cg and shutil.which("valgrind"):
                    rec["callgrind_n"] = a.mock_cg_n
                    rec["instr_per_req"] = instr_per_op(
                        os.path.join(bdir, b), a.mock_cg_n, variant)
            log(f"  mock {kind:5s} {seg:6d} {label:18s} "
                + (f"{rec['req_per_s']:10.0f} req/s  "
                   + (f"{rec['instr_per_req']:.0f} instr/req"
                      if rec.get("instr_per_req") else "")
                   if rec["status"] == "ok" else rec["status"]))
        base = recs["net_mock_full"]
        for b in ("net_mock_cacs", "net_mock_apn"):
            r = recs[b]
            if r["status"] == "ok" and base["status"] == "ok":
                r["gain_time_pct"] = 100 * (r["req_per_s"] / base["req_per_s"] - 1)
                if r.get("instr_per_req") and base.get("instr_per_req"):
                    r["gain_instr_pct"] = 100 * (base["instr_per_req"]
                                                 / r["instr_per_req"] - 1)
        res[f"{kind} {seg}"] = recs
    return res
