#!/usr/bin/env python3
"""Run the network benchmarks (issue 15); called by scripts/bench-net.

Parts (--only, comma-separated; default all):
  echo      TCP echo, 512-byte messages over loopback: ping-pong with 100 and
            1,000 connections, and streaming (16 messages in flight per
            connection) with 100; our load generator (bench/net/loadgen.c).
  http      HTTP/1.1 keep-alive, small fixed response, driven by wrk.
  mock      the paper's CPU-bound HTTP and RPC clients, network mocked,
            built three ways (full-save switch, CACS, CACS + APN).
  callgrind instructions per request: the mocked clients (-r 1 vs -r 2),
            and each echo server under callgrind serving N and 2N requests
            (-x), the difference divided by N.
  syscalls  system calls per request by kind, context switches, events per
            epoll wait: each server under `perf stat` (syscall tracepoints)
            serving N and 2N requests (-x) at the echo and HTTP load points.
  cpu       the server's CPU time per request (perf stat task-clock) in
            echo ping-pong and HTTP with 100 connections, --cpu-reps runs
            per server, interleaved.

Every server runs pinned to --server-cpu, the load (loadgen, wrk) and the
mocked clients to --load-cpu. Each point is run --reps times, interleaved
round-robin over the variants so that load changes on a shared machine hit
all alike; the report gives medians. Where allowed (root, CAP_SYS_NICE),
they run SCHED_RR (--rt, on by default): on a shared machine, work of
normal priority then cannot preempt them, which keeps the request rates
near a quiet machine's. Everything is bounded in time: a
server that does not answer is killed, a run that hangs times out.
"""

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench", "tools"))
import run as bench_run  # noqa: E402  (scripts/bench's runner: shared helpers)

# (name, binary, extra env); the order is the order of the tables.
SERVERS = [
    ("epoll (callbacks)", "net_server_epoll", {}),
    ("libcacs", "net_server_cacs", {}),
    ("libcacs + APN", "net_server_cacs_apn", {}),
    ("State Threads", "net_server_st", {}),
    ("Asio spawn", "net_server_asio_spawn", {}),
    ("Asio C++20", "net_server_asio_cpp20", {}),
    ("Go", "net_server_go", {"GOMAXPROCS": "1"}),
    # Two threads: the M:N pool (cacs/pool.h) and Go, on both CPUs (the load
    # generator shares one of them: see SERVER_CPUS).
    ("libcacs pool, 1 worker", "net_server_cacs_pool1", {}),
    ("libcacs pool, 2 workers", "net_server_cacs_pool2", {}),
    ("Go, GOMAXPROCS=2", "net_server_go2", {"GOMAXPROCS": "2"}),
]
# Servers that run two threads: pinned to the server's and the load's CPUs.
# On a 2-CPU machine the load generator then competes with the second
# worker, so their figures show what the second thread costs or gains
# against a load that takes a whole CPU, not how the server scales.
SERVER_CPUS = {"net_server_cacs_pool2": 2, "net_server_go2": 2}
HTTP_SERVERS = ["net_server_epoll", "net_server_cacs", "net_server_cacs_apn",
                "net_server_st", "net_server_asio_spawn", "net_server_go",
                "net_server_cacs_pool1", "net_server_cacs_pool2", "net_server_go2"]
# Servers callgrind cannot run, and why.
CG_UNSUPPORTED = {
    "net_server_st": "st_init fails under valgrind (valgrind refuses the "
                     "setrlimit(RLIMIT_NOFILE) call State Threads makes)",
}
QUICK_SERVERS = ["net_server_epoll", "net_server_cacs", "net_server_st",
                 "net_server_cacs_pool2"]
# (label, loadgen mode, connections)
ECHO_POINTS = [("ping-pong, 100 conns", "pingpong", 100),
               ("ping-pong, 1000 conns", "pingpong", 1000),
               ("streaming, 100 conns", "stream", 100)]
MOCK_VARIANTS = [("full-save switch", "net_mock_full"),
                 ("CACS", "net_mock_cacs"),
                 ("CACS + APN", "net_mock_apn")]
PAPER_GAIN = {"http": (11.2, 18.8), "rpc": (26.2, 45.2)}

RESULT_RE = re.compile(r"^RESULT (.*)$", re.M)


def log(msg):
    print(msg, flush=True)


def kv_line(out):
    m = RESULT_RE.search(out or "")
    if not m:
        return None
    return dict(item.split("=", 1) for item in m.group(1).split())


def shown(cmd):
    """A command line for the report: paths relative to the source tree (a
    report names no machine's directories)."""
    return " ".join(os.path.relpath(x, ROOT) if os.path.isabs(x) and
                    x.startswith(ROOT + os.sep) else x for x in cmd)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# Real-time priority for the servers and the load (--rt): set by main() to
# the chrt prefix when the system allows it.
RT_PREFIX = []


def rt_prefix(priority):
    """["chrt", "-r", P] if this process may run a command SCHED_RR, else
    []: on a shared machine, other work then cannot preempt the measured
    processes (the kernel still keeps 5% of each second for others).
    Round-robin, not FIFO: wrk's timer thread and Go's threads share their
    pinned CPU with a busy thread of the same priority, which FIFO never
    preempts (wrk ran past its duration until killed)."""
    cmd = ["chrt", "-r", str(priority)]
    if not shutil.which("chrt"):
        return []
    try:
        ok = subprocess.run(cmd + ["true"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        ok = False
    return cmd if ok else []


def pinned(cpu, cmd):
    if cpu is not None and shutil.which("taskset"):
        return RT_PREFIX + ["taskset", "-c", str(cpu)] + cmd
    return RT_PREFIX + cmd


def wait_port(port, proc, timeout):
    end = time.time() + timeout
    while time.time() < end:
        if proc.poll() is not None:
            return False
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return True
        except OSError:
            time.sleep(0.05)
    return False


def server_cpu(a, binary):
    """The CPU list a server is pinned to (SERVER_CPUS)."""
    if a.server_cpu is None or SERVER_CPUS.get(binary, 1) < 2:
        return a.server_cpu
    return f"{a.server_cpu},{a.load_cpu}"


class Server:
    """A server process pinned to a CPU, killed on exit."""

    def __init__(self, path, port, mode, cpu, env, max_req=0, wrap=None):
        cmd = [path, "-p", str(port), "-m", mode]
        if max_req:
            cmd += ["-x", str(max_req)]
        cmd = (wrap or []) + cmd
        self.cmd = pinned(cpu, cmd)
        e = dict(os.environ)
        e.update(env)
        self.proc = subprocess.Popen(self.cmd, env=e, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True,
                                     start_new_session=True)

    def stop(self, timeout=10):
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        try:
            out, err = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            out, err = self.proc.communicate()
        return self.proc.returncode, out, err


def run_cmd(cmd, timeout, env=None):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                           env=env)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        return -1, e.stdout or "", "timeout"


# ---- echo -------------------------------------------------------------------


def echo_once(bdir, binary, env, mode, conns, a):
    port = free_port()
    srv = Server(os.path.join(bdir, binary), port, "echo", server_cpu(a, binary), env)
    rec = {"status": "FAILED"}
    try:
        if not wait_port(port, srv.proc, 10):
            rec["error"] = "server did not listen"
            return rec
        cmd = pinned(a.load_cpu, [os.path.join(bdir, "net_loadgen"), "-p", str(port),
                                  "-c", str(conns), "-m", mode, "-d", str(a.secs),
                                  "-w", str(a.warm)])
        rc, out, err = run_cmd(cmd, a.secs + a.warm + 60)
        kv = kv_line(out)
        rec["command"] = shown(cmd)
        if rc != 0 or not kv or int(kv["msgs"]) == 0:
            rec["error"] = (err or "no message came back")[-300:]
            return rec
        rec.update(status="ok", rps=float(kv["rps"]), p50_us=float(kv["p50_us"]),
                   p99_us=float(kv["p99_us"]), msgs=int(kv["msgs"]))
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
    s["command"] = ok[0].get("command", "")
    return s


def bench_echo(bdir, a, servers, points):
    res = {}
    for label, mode, conns in points:
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
        rc, out, err = run_cmd(cmd, a.secs + 60)
        r = wrk_parse(out)
        rec["command"] = shown(cmd)
        if rc != 0 or not r or r["non2xx"] or r["socket_errors"]:
            rec["error"] = (err or out or "")[-300:]
            return rec
        rec.update(status="ok", **r)
        return rec
    finally:
        srv.stop()


def bench_http(bdir, a, servers, conns_list):
    res = {}
    if not shutil.which("wrk"):
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
                    rec["instr_per_req"] = bench_run.instr_per_op(
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


# ---- server instructions per request ------------------------------------------------


def server_instr_total(bdir, binary, proto, n, a, attempts=2):
    """Callgrind on the server until it has served n requests. A server that
    dies before it listens is started once more: the Go runtime under
    valgrind sometimes does (a full run lost net_server_go's echo row so)."""
    port = free_port()
    srv = Server(os.path.join(bdir, binary), port, proto, server_cpu(a, binary),
                 SERVER_ENV.get(binary, {}), max_req=n,
                 wrap=["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"])
    try:
        if not wait_port(port, srv.proc, 60):
            if attempts > 1 and srv.proc.poll() is not None:
                srv.stop()
                log(f"  callgrind {proto} server {binary}: exited before listening; once more")
                return server_instr_total(bdir, binary, proto, n, a, attempts - 1)
            return None, "server did not listen under callgrind"
        cmd = pinned(a.load_cpu, [os.path.join(bdir, "net_loadgen"), "-p", str(port),
                                  "-c", str(a.cg_conns), "-d", "300", "-w", "0",
                                  "-m", "http" if proto == "http" else "pingpong"])
        run_cmd(cmd, 360)
        rc, _, err = srv.stop(timeout=120)
        m = re.search(r"Collected : (\d+)", err or "")
        if rc != 0 or not m:
            return None, (err or "")[-300:]
        return int(m.group(1)), ""
    finally:
        srv.stop()


def bench_server_instr(bdir, a, servers):
    """{proto: {binary: record}} for the echo and the HTTP servers."""
    res = {"echo": {}, "http": {}}
    n = a.cg_requests
    for proto, names in (("echo", servers), ("http", HTTP_SERVERS)):
        for b in [x for x in names if x in servers]:
            r = res[proto][b] = {"status": "missing"}
            if not os.path.exists(os.path.join(bdir, b)):
                continue
            if b in CG_UNSUPPORTED:
                r["status"] = "not measured: " + CG_UNSUPPORTED[b]
            else:
                t1, e1 = server_instr_total(bdir, b, proto, n, a)
                t2, e2 = (server_instr_total(bdir, b, proto, 2 * n, a) if t1
                          else (None, ""))
                if t1 and t2:
                    r.update(status="ok", instr_per_req=(t2 - t1) / n, n=n,
                             conns=a.cg_conns)
                else:
                    r.update(status="FAILED", error=e1 or e2)
            log(f"  callgrind {proto} server {b:24s} "
                + (f"{r['instr_per_req']:.0f} instr/req" if r["status"] == "ok"
                   else r["status"]))
    return res


# ---- system calls per request (perf stat) ------------------------------------------

# (column, system calls counted in it); "total" counts every system call.
SYSCALL_KINDS = [("read", ("read", "recvfrom", "readv", "recvmsg")),
                 ("write", ("write", "sendto", "writev", "sendmsg")),
                 ("wait", ("epoll_wait", "epoll_pwait", "epoll_pwait2", "pselect6",
                           "select", "poll", "ppoll")),
                 ("epoll_ctl", ("epoll_ctl",)),
                 ("futex", ("futex",))]
EAGAIN_CALLS = ("read", "recvfrom", "readv", "recvmsg")
WAITS = SYSCALL_KINDS[2][1]
# (label, load, connections): load is a loadgen mode, or "wrk".
SYSCALL_POINTS = [("echo ping-pong, 100 conns", "pingpong", 100),
                  ("echo ping-pong, 1000 conns", "pingpong", 1000),
                  ("echo streaming, 100 conns", "stream", 100),
                  ("HTTP (wrk), 100 conns", "wrk", 100),
                  ("HTTP (wrk), 1000 conns", "wrk", 1000)]


def tracepoints():
    """The syscall tracepoints perf can count here (empty: none)."""
    if not shutil.which("perf"):
        return set()
    rc, out, _ = run_cmd(["perf", "list", "tracepoint"], 60)
    return set(re.findall(r"syscalls:sys_(?:enter|exit)_\w+", out)) if rc == 0 else set()


def perf_events(tps):
    """[(key, perf arguments)] counted in one run, in perf's output order."""
    ev = [("total", ["-e", "raw_syscalls:sys_enter"]),
          ("cs", ["-e", "context-switches"]),
          ("cpu_ms", ["-e", "task-clock"])]
    for _, calls in SYSCALL_KINDS:
        ev += [(c, ["-e", f"syscalls:sys_enter_{c}"]) for c in calls
               if f"syscalls:sys_enter_{c}" in tps]
    ev += [("eagain_" + c, ["-e", f"syscalls:sys_exit_{c}", "--filter", "ret == -11"])
           for c in EAGAIN_CALLS if f"syscalls:sys_exit_{c}" in tps]
    return ev


def syscall_load(bdir, port, load, conns, a):
    if load == "wrk":
        if shutil.which("wrk"):
            return ["wrk", "-t1", f"-c{conns}", "-d60s", f"http://127.0.0.1:{port}/"]
        load = "http"
    return [os.path.join(bdir, "net_loadgen"), "-p", str(port), "-c", str(conns),
            "-m", load, "-d", "60", "-w", "0"]


def syscall_run(bdir, binary, proto, load, conns, n, a, wrap, outfile):
    """Run `binary` under `wrap` until it has served n requests; its stderr."""
    port = free_port()
    srv = Server(os.path.join(bdir, binary), port, proto, server_cpu(a, binary),
                 SERVER_ENV.get(binary, {}), max_req=n, wrap=wrap)
    gen = None
    try:
        if not wait_port(port, srv.proc, 30):
            return None, "server did not listen"
        gen = subprocess.Popen(pinned(a.load_cpu, syscall_load(bdir, port, load, conns, a)),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
        try:
            srv.proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            return None, "server did not serve its requests in time"
        rc, _, err = srv.stop()
        if rc != 0 or not os.path.exists(outfile):
            return None, (err or "")[-300:]
        return err, ""
    finally:
        if gen and gen.poll() is None:
            os.killpg(gen.pid, signal.SIGKILL)
            gen.wait()
        srv.stop()


def syscall_counts(bdir, binary, proto, load, conns, n, a, events, tmp):
    out = os.path.join(tmp, "perf-stat.csv")
    if os.path.exists(out):
        os.unlink(out)
    wrap = ["perf", "stat", "-x,", "-o", out] + [x for _, e in events for x in e] + ["--"]
    err, why = syscall_run(bdir, binary, proto, load, conns, n, a, wrap, out)
    if err is None:
        return None, why
    vals = []
    for line in open(out):
        if line.strip() and not line.startswith("#"):
            f = line.split(",")
            try:
                vals.append(float(f[0]))
            except ValueError:  # <not counted>, <not supported>
                vals.append(0.0)
    if len(vals) != len(events):
        return None, "perf stat: unexpected output"
    c = dict(zip([k for k, _ in events], vals))
    m = re.search(r"RUSAGE nvcsw=(\d+) nivcsw=(\d+)", err)
    if m:
        c["nvcsw"], c["nivcsw"] = int(m.group(1)), int(m.group(2))
    return c, ""


def epoll_batch(bdir, binary, proto, load, conns, n, a, tps, tmp):
    """Mean events (ready descriptors) returned per wait: a perf record of
    the waits' exits."""
    evs = [f"syscalls:sys_exit_{c}" for c in WAITS if f"syscalls:sys_exit_{c}" in tps]
    if not evs:
        return None
    out = os.path.join(tmp, "perf.data")
    wrap = ["perf", "record", "-q", "-o", out] + [x for e in evs for x in ("-e", e)] + ["--"]
    err, _ = syscall_run(bdir, binary, proto, load, conns, n, a, wrap, out)
    if err is None:
        return None
    rc, txt, _ = run_cmd(["perf", "script", "-i", out, "-F", "trace"], 120)
    rets = [int(x, 16) for x in re.findall(r"^\s*(0x[0-9a-f]+)\s*$", txt, re.M)]
    return sum(rets) / len(rets) if rc == 0 and rets else None


def bench_syscalls(bdir, a, servers):
    """{point label: {binary: record}}: per-request figures, (2N - N) / N."""
    tps = tracepoints()
    if "syscalls:sys_enter_read" not in tps:
        log("  syscalls: perf cannot count syscall tracepoints here, skipped")
        return {"status": "missing: perf with syscall tracepoints"}
    events = perf_events(tps)
    tmp = os.path.join(a.out or os.path.join(ROOT, "bench", "results", "net"), ".perf-tmp")
    os.makedirs(tmp, exist_ok=True)
    res = {}
    for label, load, conns in SYSCALL_POINTS:
        # Enough requests per connection that the requests in flight when
        # the server stops are noise.
        n = a.sc_requests * max(1, conns // 200)
        proto = "echo" if load in ("pingpong", "stream") else "http"
        res[label] = {}
        for b in [x for x in servers if proto == "echo" or x in HTTP_SERVERS]:
            r = res[label][b] = {"status": "missing"}
            if not os.path.exists(os.path.join(bdir, b)):
                continue
            c1, e1 = syscall_counts(bdir, b, proto, load, conns, n, a, events, tmp)
            c2, e2 = (syscall_counts(bdir, b, proto, load, conns, 2 * n, a, events, tmp)
                      if c1 else (None, ""))
            if not (c1 and c2):
                r.update(status="FAILED", error=e1 or e2)
                log(f"  syscalls {label:28s} {b:24s} FAILED {r['error'][-80:]}")
                continue
            per = {k: (c2[k] - c1[k]) / n for k in c1 if k in c2}
            r.update(status="ok", n=n, conns=conns, per=per)
            for kind, calls in SYSCALL_KINDS:
                r[kind] = sum(per.get(x, 0) for x in calls)
            r["other"] = per["total"] - sum(r[k] for k, _ in SYSCALL_KINDS)
            r["eagain"] = sum(per.get("eagain_" + x, 0) for x in EAGAIN_CALLS)
            r["batch"] = epoll_batch(bdir, b, proto, load, conns, n, a, tps, tmp)
            log(f"  syscalls {label:28s} {b:24s} {per['total']:.2f}/req "
                f"(read {r['read']:.2f}, EAGAIN {r['eagain']:.2f}, write {r['write']:.2f},"
                f" wait {r['wait']:.3f}, cs {per['cs']:.3f}, "
                f"cpu {1000 * per['cpu_ms']:.2f} us, "
                f"events/wait {r['batch'] or 0:.1f})")
    shutil.rmtree(tmp, ignore_errors=True)
    return res


# ---- server CPU time per request (perf stat, interleaved) -------------------------

CPU_POINTS = [("echo ping-pong, 100 conns", "pingpong", 100),
              ("HTTP (loadgen), 100 conns", "http", 100)]


def bench_cpu(bdir, a, servers):
    """{point label: {binary: record}}: the server's CPU time (user + kernel)
    per request, serving N requests, --cpu-reps times interleaved."""
    if not shutil.which("perf"):
        log("  cpu: perf not found, skipped")
        return {"status": "missing: perf"}
    events = [("cpu_ms", ["-e", "task-clock"])]
    tmp = os.path.join(a.out or os.path.join(ROOT, "bench", "results", "net"), ".perf-tmp")
    os.makedirs(tmp, exist_ok=True)
    n = 3 * a.sc_requests
    res = {}
    for label, load, conns in CPU_POINTS:
        proto = "echo" if load == "pingpong" else "http"
        names = [b for b in servers if (proto == "echo" or b in HTTP_SERVERS)
                 and os.path.exists(os.path.join(bdir, b))]
        runs = {b: [] for b in names}
        errs = {}
        for _ in range(a.cpu_reps):
            for b in names:
                c, why = syscall_counts(bdir, b, proto, load, conns, n, a, events, tmp)
                if c:
                    runs[b].append(1000 * c["cpu_ms"] / n)
                else:
                    errs[b] = why
        res[label] = {}
        for b in names:
            v = runs[b]
            r = res[label][b] = ({"status": "ok", "n": n, "us": statistics.median(v),
                                  "min": min(v), "max": max(v), "runs": len(v)}
                                 if len(v) == a.cpu_reps else
                                 {"status": "FAILED", "error": errs.get(b, "")})
            log(f"  cpu {label:28s} {b:24s} " + (f"{r['us']:.2f} us/req "
                                                 f"({r['min']:.2f}..{r['max']:.2f})"
                                                 if r["status"] == "ok" else "FAILED"))
    shutil.rmtree(tmp, ignore_errors=True)
    return res


SERVER_ENV = {b: env for _, b, env in SERVERS}
SERVER_NAME = {b: name for name, b, _ in SERVERS}


def fmt_point(p):
    if p.get("status") != "ok":
        return p.get("status", "?")
    return f"{p['rps']:10.0f} req/s  p50 {p['p50_us']:.0f} us  p99 {p['p99_us']:.0f} us"


# ---- report ------------------------------------------------------------------------------


def machine(build):
    info = bench_run.machine_info(build)
    for tool, arg in (("go", "version"), ("wrk", "-v")):
        if shutil.which(tool):
            p = subprocess.run([tool, arg], capture_output=True, text=True)
            info[tool] = ((p.stdout or p.stderr).splitlines() or [""])[0]
    return info


def cpu_model(info):
    m = re.search(r"Model name:\s*(.*)", info.get("lscpu", ""))
    return m.group(1).strip() if m else "?"


def loadavg():
    try:
        return open("/proc/loadavg").read().split()[:3]
    except OSError:
        return []


def table_points(lines, title, echo):
    for label, pts in echo.items():
        lines.append(f"### {title}, {label}\n")
        lines.append("| server | requests/s (median) | min..max | p50 µs | p99 µs | vs epoll |")
        lines.append("|---|---:|---|---:|---:|---:|")
        base = pts.get("net_server_epoll", {})
        for b, p in pts.items():
            name = SERVER_NAME.get(b, b)
            if p.get("status") != "ok":
                lines.append(f"| {name} | {p.get('status')} | | | | |")
                continue
            rel = (f"{100 * p['rps'] / base['rps']:.0f}%"
                   if base.get("status") == "ok" else "")
            lines.append(f"| {name} | {p['rps']:.0f} | {p['rps_min']:.0f}..{p['rps_max']:.0f} "
                         f"| {p['p50_us']:.0f} | {p['p99_us']:.0f} | {rel} |")
        lines.append("")


def write_report(outdir, data, a):
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "results.json"), "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
    # One analysis for every output directory (--out): link it from there.
    analysis = os.path.relpath(
        os.path.join(ROOT, "bench", "results", "net", "ANALYSIS.md"), outdir)
    L = ["# Network benchmarks (issue 15)", "",
         f"Generated by `{data['command']}` on {data['date']} "
         f"({data['duration_s']:.0f} s). See bench/net/README.md; what the numbers "
         f"mean: [ANALYSIS.md]({analysis}).", "",
         f"Machine: {cpu_model(data['machine'])}, {os.cpu_count()} cores, "
         f"{data['machine'].get('kernel', '')}. Server pinned to CPU {a.server_cpu}, "
         f"load (loadgen, wrk, mocked clients) to CPU {a.load_cpu}; the "
         "two-thread servers (2-worker pool, Go with GOMAXPROCS=2) to both, "
         "sharing the load's CPU"
         + (f", both real-time (`{data['rt']}`: other work on the machine "
            "cannot preempt them)." if data.get("rt") else "."), "",
         f"**Load average** (1/5/15 min) before: {' '.join(data['load_before'])}, "
         f"after: {' '.join(data['load_after'])}. "
         + (("Other work ran on the machine at normal priority; the measured "
             "processes preempted it (real-time), and the min..max ranges show "
             "the noise left." if data.get("rt") else
             "The machine was shared with other work: times are indicative; "
             "callgrind and system call counts are the repeatable figures.") if
            data['load_before'] and float(data['load_before'][0]) > 0.5 else ""), ""]
    if "echo" in data or "http" in data:
        L += [f"Each point: {a.reps} runs of {a.secs} s after {a.warm} s of warm-up, "
              "interleaved across servers; the median is shown with the min..max.", ""]
    if "echo" in data:
        L += ["## TCP echo, 512-byte messages, loopback", "",
              "Load generator: `bench/net/loadgen.c` (one thread, epoll; ping-pong: "
              "one message in flight per connection; streaming: 16). Latency: "
              "send of a message to the arrival of its last echoed byte.", ""]
        table_points(L, "Echo", data["echo"])
    if "http" in data:
        L += ["## HTTP/1.1 keep-alive (wrk, one thread)", ""]
        if isinstance(data["http"], dict) and data["http"].get("status"):
            L += [data["http"]["status"], ""]
        else:
            table_points(L, "HTTP", data["http"])
    if "mock" in data:
        L += ["## Mocked HTTP and RPC clients (paper section 5)", "",
              "1 MiB per response; the mocked socket delivers at most *read* bytes "
              f"per read and yields (cacs_yield) before each; {a.coros} client "
              f"coroutines on one core; {a.mock_n} requests per run. Gain = "
              "throughput (or fewer instructions) over the full-save switch.", "",
              "| client | read | variant | requests/s | instr/request | gain (time) | "
              "gain (instr) | paper |",
              "|---|---:|---|---:|---:|---:|---:|---:|"]
        for key, recs in data["mock"].items():
            kind, seg = key.split()
            for i, (label, b) in enumerate(MOCK_VARIANTS):
                r = recs[b]
                paper = ("" if i == 0 else f"+{PAPER_GAIN[kind][i - 1]}%")
                if r["status"] != "ok":
                    L.append(f"| {kind} | {seg} | {label} | {r['status']} | | | | "
                             f"{paper} |")
                    continue
                ipr = f"{r['instr_per_req']:.0f}" if r.get("instr_per_req") else ""
                gt = f"{r['gain_time_pct']:+.1f}%" if "gain_time_pct" in r else ""
                gi = f"{r['gain_instr_pct']:+.1f}%" if "gain_instr_pct" in r else ""
                L.append(f"| {kind} | {seg} | {label} | {r['req_per_s']:.0f} | {ipr} | "
                         f"{gt} | {gi} | {paper} |")
        L.append("")
    if "server_instr" in data:
        L += ["## Instructions per request in the server (callgrind)", "",
              f"The server runs under `valgrind --tool=callgrind` and exits after N "
              f"and after 2N requests (`-x`); (total(2N) - total(N)) / N, "
              f"N = {a.cg_requests}, {a.cg_conns} connections of `net_loadgen` "
              "(ping-pong echo; `-m http`: one GET at a time per connection). "
              "User-space instructions only: the system calls' kernel work, most "
              "of a request's time on loopback, is not counted. The count "
              "depends on how many connections each wait returns, hence on "
              "scheduling: the server and the load are pinned as in the timed "
              "runs (unpinned, libcacs's echo count drops by a third); counts "
              "repeat within 1% between runs.", "",
              "| server | echo | HTTP |", "|---|---:|---:|"]
        si = data["server_instr"]

        def cell(r):
            if not r:
                return ""
            return f"{r['instr_per_req']:.0f}" if r["status"] == "ok" else r["status"]
        for b in si["echo"]:
            L.append(f"| {SERVER_NAME.get(b, b)} | {cell(si['echo'].get(b))} | "
                     f"{cell(si['http'].get(b))} |")
        L.append("")
    if isinstance(data.get("syscalls"), dict) and not data["syscalls"].get("status"):
        L += ["## System calls per request in the server (perf stat)", "",
              "Each server runs under `perf stat` (syscall tracepoints, counting "
              "only) and exits after N and after 2N requests (`-x`): (count(2N) "
              f"- count(N)) / N, N = {a.sc_requests} per 200 connections (at least "
              f"{a.sc_requests}); load as in the timed runs. "
              "*read*: read/recv/readv/recvmsg, of which *EAGAIN* failed; "
              "*write*: write/send/writev/sendmsg; *wait*: epoll_wait and "
              "variants, select, poll; *other*: every other call (epoll_ctl, futex, "
              "...); *cs*: context switches of the server (perf; voluntary + "
              "involuntary, split by getrusage where the server prints it); "
              "*events/wait*: mean descriptors returned per wait (a separate "
              "run under `perf record`, which slows every wait: its batches "
              "are not those of the counted run, where 1/*wait* is the "
              "number of requests per wait); *CPU µs*: the server's CPU time per "
              "request (perf's task-clock: user and kernel, the softirq work "
              "done in its context included). Counts depend on batching, hence "
              "on timing, less than times do.", ""]
        for label, pts in data["syscalls"].items():
            L += [f"### {label}", "",
                  "| server | total | read | EAGAIN | write | wait | other | cs "
                  "(vol/invol) | events/wait | CPU µs |",
                  "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|"]
            for b, r in pts.items():
                name = SERVER_NAME.get(b, b)
                if r.get("status") != "ok":
                    L.append(f"| {name} | {r.get('status')} | | | | | | | | |")
                    continue
                p = r["per"]
                cs = f"{p['cs']:.3f}"
                if "nvcsw" in p:
                    cs += f" ({p['nvcsw']:.3f}/{p['nivcsw']:.3f})"
                other = r["other"] + r["epoll_ctl"]
                batch = f"{r['batch']:.1f}" if r.get("batch") else ""
                L.append(f"| {name} | {p['total']:.2f} | {r['read']:.2f} | "
                         f"{r['eagain']:.2f} | {r['write']:.2f} | "
                         f"{r['wait']:.3f} | {other:.3f} | {cs} | {batch} | "
                         f"{1000 * p['cpu_ms']:.2f} |")
            L.append("")
    if isinstance(data.get("cpu"), dict) and not data["cpu"].get("status"):
        labels = list(data["cpu"])
        L += ["## Server CPU time per request (perf stat)", "",
              "The server's CPU time (perf's task-clock: user and kernel, the "
              f"softirq work done in its context included) while it serves "
              f"{3 * a.sc_requests} requests from `net_loadgen` (`-m pingpong` "
              "or `-m http`), start-up included; "
              f"{a.cpu_reps} runs per server, interleaved across the servers so "
              "that changes in the machine's load hit all alike; median and "
              "min..max. Less sensitive to other work on the machine than "
              "requests per second, which also depend on the load generator's "
              "share of its core.", "",
              "| server | " + " | ".join(f"{l}: µs (min..max)" for l in labels) + " |",
              "|---|" + "---:|" * len(labels)]
        names = list(dict.fromkeys(b for l in labels for b in data["cpu"][l]))
        for b in names:
            cells = []
            for l in labels:
                r = data["cpu"][l].get(b)
                cells.append("" if not r else
                             f"{r['us']:.2f} ({r['min']:.2f}..{r['max']:.2f})"
                             if r["status"] == "ok" else r["status"])
            L.append(f"| {SERVER_NAME.get(b, b)} | " + " | ".join(cells) + " |")
        L.append("")
    if data.get("notes"):
        L += ["## Notes", ""] + [f"- {n}" for n in data["notes"]] + [""]
    with open(os.path.join(outdir, "README.md"), "w") as f:
        f.write("\n".join(L))
    plot(outdir, data)


def legend_beside(ax):
    """The legend right of the axes, where it covers no bar."""
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1),
              borderaxespad=0)


def plot(outdir, data):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    for part in ("echo", "http"):
        pts = data.get(part)
        if not isinstance(pts, dict) or pts.get("status"):
            continue
        labels = list(pts.keys())
        servers = [b for b in SERVER_NAME if any(pts[l].get(b, {}).get("status") == "ok"
                                                  for l in labels)]
        if not servers:
            continue
        fig, ax = plt.subplots(figsize=(8, 4))
        w = 0.8 / max(1, len(servers))
        for i, b in enumerate(servers):
            ys = [pts[l].get(b, {}).get("rps", 0) if pts[l].get(b, {}).get("status") == "ok"
                  else 0 for l in labels]
            ax.bar([x + i * w for x in range(len(labels))], ys, w, label=SERVER_NAME[b])
        ax.set_xticks([x + w * (len(servers) - 1) / 2 for x in range(len(labels))])
        ax.set_xticklabels(labels)
        ax.set_ylabel("requests/s (median)")
        ax.set_title(f"{part}: server on one core, load on the other")
        legend_beside(ax)
        fig.tight_layout()
        fig.savefig(os.path.join(outdir, f"{part}.png"), dpi=100,
                    bbox_inches="tight")
        plt.close(fig)
    # file -> (title, {group label: {series: instructions per request}})
    charts = {"mock_instr": ("mocked clients, 1 MiB responses (client, read size)", {}),
              "server_instr": ("servers, user space (callgrind)", {})}
    for key, recs in (data.get("mock") or {}).items():
        for label, b in MOCK_VARIANTS:
            if recs[b].get("instr_per_req"):
                charts["mock_instr"][1].setdefault(key, {})[label] = recs[b]["instr_per_req"]
    for proto, recs in (data.get("server_instr") or {}).items():
        for b, r in recs.items():
            if r.get("status") == "ok":
                charts["server_instr"][1].setdefault(proto, {})[SERVER_NAME.get(b, b)] = \
                    r["instr_per_req"]
    for fname, (title, g) in charts.items():
        if not g:
            continue
        labels = list(g)
        series = list(dict.fromkeys(s for v in g.values() for s in v))
        fig, ax = plt.subplots(figsize=(8, 4))
        w = 0.8 / max(1, len(series))
        for j, name in enumerate(series):
            ax.bar([x + j * w for x in range(len(labels))],
                   [g[l].get(name, 0) for l in labels], w, label=name)
        ax.set_xticks([x + w * (len(series) - 1) / 2 for x in range(len(labels))])
        ax.set_xticklabels(labels)
        ax.set_ylabel("instructions per request")
        # Log where the series span a decade (epoll's 66 beside Go's 2,428).
        vals = [v for s in g.values() for v in s.values() if v and v > 0]
        if vals and max(vals) >= 10 * min(vals):
            ax.set_yscale("log")
        ax.set_title(title)
        legend_beside(ax)
        fig.tight_layout()
        fig.savefig(os.path.join(outdir, fname + ".png"), dpi=100,
                    bbox_inches="tight")
        plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", default=None)
    ap.add_argument("--only", default="echo,mock,http,callgrind,syscalls,cpu")
    ap.add_argument("--servers", default=None, metavar="BINARIES",
                    help="only these servers (comma-separated binaries, e.g. "
                    "net_server_cacs_pool1); the report then goes to "
                    "BUILD/bench-net-servers unless --out is given")
    ap.add_argument("--quick", action="store_true",
                    help="CI smoke run: a few servers, 0.3 s each, no callgrind")
    ap.add_argument("--secs", type=float, default=5.0)
    ap.add_argument("--warm", type=float, default=1.0)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--server-cpu", type=int, default=0)
    ap.add_argument("--load-cpu", type=int, default=1)
    ap.add_argument("--rt", type=int, default=10, metavar="PRIORITY",
                    help="run servers and load SCHED_RR at PRIORITY (chrt) "
                    "where allowed, so that other work on a shared machine "
                    "does not preempt them; 0: normal scheduling")
    ap.add_argument("--segs", default="4096,1448",
                    help="mocked clients: bytes per socket read, comma-separated")
    ap.add_argument("--coros", type=int, default=64)
    ap.add_argument("--mock-n", type=int, default=16384)
    ap.add_argument("--mock-cg-n", type=int, default=128)
    ap.add_argument("--cg-requests", type=int, default=10000)
    ap.add_argument("--cg-conns", type=int, default=100)
    ap.add_argument("--sc-requests", type=int, default=20000,
                    help="syscalls: N (the server serves N and 2N requests)")
    ap.add_argument("--cpu-reps", type=int, default=7,
                    help="cpu: runs per server and point")
    ap.add_argument("--argv", default=None)
    ap.add_argument("--replot", action="store_true",
                    help="only redraw the plots from OUT/results.json")
    a = ap.parse_args()
    if a.replot:
        outdir = a.out or os.path.join(ROOT, "bench", "results", "net")
        with open(os.path.join(outdir, "results.json")) as f:
            plot(outdir, json.load(f))
        return
    a.segs = [int(x) for x in a.segs.split(",")]
    if os.cpu_count() and os.cpu_count() < 2:
        a.server_cpu = a.load_cpu = None
    bdir = os.path.join(a.build, "bench")
    only = set(a.only.split(","))
    global RT_PREFIX
    RT_PREFIX = rt_prefix(a.rt) if a.rt > 0 else []
    t0 = time.time()
    data = {"command": a.argv or "scripts/bench-net", "quick": a.quick,
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "machine": machine(a.build), "load_before": loadavg(), "notes": [],
            "rt": " ".join(RT_PREFIX)}
    servers = [b for _, b, _ in SERVERS]
    points, http_conns = ECHO_POINTS, [100, 1000]
    if a.servers:
        known = {b for _, b, _ in SERVERS}
        wanted = a.servers.split(",")
        unknown = [b for b in wanted if b not in known]
        if unknown:
            ap.error("--servers: unknown " + ", ".join(unknown)
                     + " (known: " + ", ".join(servers) + ")")
        servers = [b for b in servers if b in wanted]
        # A partial run does not overwrite the full report.
        a.out = a.out or os.path.join(a.build, "bench-net-servers")
    if a.quick:
        a.secs, a.warm, a.reps, a.mock_n = 0.3, 0.0, 1, 128
        a.segs = a.segs[:1]
        servers = [b for b in QUICK_SERVERS if not a.servers or b in servers]
        points, http_conns = ECHO_POINTS[:1], []
        only.discard("callgrind")
        only.discard("syscalls")
        only.discard("cpu")
        only.discard("http")
        a.out = a.out or os.path.join(ROOT, "bench", "results", "net", "quick")
    outdir = a.out or os.path.join(ROOT, "bench", "results", "net")
    if "echo" in only:
        log("echo:")
        data["echo"] = bench_echo(bdir, a, servers, points)
    if "mock" in only:
        log("mocked clients:")
        data["mock"] = bench_mock(bdir, a, ["http", "rpc"], "callgrind" in only)
    if "http" in only:
        log("http (wrk):")
        data["http"] = bench_http(bdir, a, [b for b in HTTP_SERVERS if b in servers],
                                  http_conns)
    if "syscalls" in only:
        log("system calls per request:")
        data["syscalls"] = bench_syscalls(bdir, a, servers)
    if "cpu" in only:
        log("server CPU time per request:")
        data["cpu"] = bench_cpu(bdir, a, servers)
    if "callgrind" in only and shutil.which("valgrind"):
        log("callgrind, echo servers:")
        data["server_instr"] = bench_server_instr(bdir, a, servers)
    data["load_after"] = loadavg()
    data["duration_s"] = time.time() - t0
    for b in servers:
        if not os.path.exists(os.path.join(bdir, b)):
            data["notes"].append(f"{SERVER_NAME.get(b, b)} ({b}): not built, no numbers.")
    write_report(outdir, data, a)
    log(f"wrote {outdir}/README.md, results.json")
    # Exit status: every binary that exists must have run correctly.
    bad = []
    for part in ("echo", "http", "syscalls", "cpu"):
        for label, pts in (data.get(part) or {}).items():
            if isinstance(pts, dict):
                bad += [f"{part} {label} {b}" for b, p in pts.items()
                        if isinstance(p, dict) and p.get("status") == "FAILED"]
    for kind, recs in (data.get("mock") or {}).items():
        bad += [f"mock {kind} {b}" for b, r in recs.items() if r["status"] == "FAILED"]
    for proto, recs in (data.get("server_instr") or {}).items():
        bad += [f"callgrind {proto} {b}" for b, r in recs.items()
                if r["status"] == "FAILED"]
    if bad:
        log("FAILED: " + ", ".join(bad))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
