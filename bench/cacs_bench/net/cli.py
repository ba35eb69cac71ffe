"""Run the network benchmarks (issue 15); called by scripts/bench-net.

Parts (--only, comma-separated; default all):
  echo      TCP echo, 512-byte messages over loopback: ping-pong with 100 and
            1,000 connections, and streaming (16 messages in flight per
            connection) with 100; our load generator (bench/net/loadgen.c,
            --load-engine: its io_uring engine where the kernel serves it).
  http      HTTP/1.1 keep-alive, small fixed response, 100 and 1,000
            connections, driven by net_loadgen -m http (--http-load wrk: wrk,
            which costs about twice the CPU per request on this machine).
  Both record, beside requests/s and latency, the CPU time per request of
  the server and of the load over the measured window (schedstat: exact;
  the user/system split from /proc/PID/stat: tick-sampled).
  mock      the paper's CPU-bound HTTP and RPC clients, network mocked,
            built three ways (full-save switch, CACS, CACS + APN).
  callgrind instructions per request: the mocked clients (-r 1 vs -r 2),
            and each echo server under callgrind serving N and 2N requests
            (-x), the difference divided by N.
  syscalls  system calls per request by kind, context switches, events per
            epoll wait: each server under `perf stat` (syscall tracepoints)
            serving N and 2N requests (-x) at the echo and HTTP load points.
  cpu       the server's CPU time per request (perf stat task-clock) in
            echo ping-pong, streaming echo and HTTP with 100 connections,
            --cpu-reps runs per server, interleaved.

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
import os
import shutil
import time

from . import servers as srv
from .counts import bench_cpu, bench_server_instr, bench_syscalls
from .loads import bench_echo, bench_http, bench_mock
from .report import loadavg, machine, plot, write_report
from ..common import add_replot, choose, log, replot_data
from .servers import (ECHO_POINTS, HTTP_POINTS, HTTP_SERVERS, QUICK_SERVERS, ROOT,
                      SERVER_NAME, SERVERS, rt_prefix)


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
    ap.add_argument("--points", default=None,
                    help="echo and http load points only these, comma-separated: "
                    "pp100,pp1000,st100,http100,http1000")
    ap.add_argument("--load-engine", default="auto", choices=["auto", "uring", "epoll"],
                    help="net_loadgen -e for the echo and HTTP points (auto: io_uring "
                    "where the kernel serves it, else epoll)")
    ap.add_argument("--http-load", default="loadgen", choices=["loadgen", "wrk"],
                    help="the HTTP load generator")
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
    add_replot(ap)
    a = ap.parse_args()
    stored = replot_data(a, "net")
    if stored:
        plot(*stored)
        return
    a.segs = [int(x) for x in a.segs.split(",")]
    if os.cpu_count() and os.cpu_count() < 2:
        a.server_cpu = a.load_cpu = None
    bdir = os.path.join(a.build, "bench")
    only = set(a.only.split(","))
    # pinned() (servers.py) puts it before every command it runs.
    srv.RT_PREFIX = rt_prefix(a.rt) if a.rt > 0 else []
    t0 = time.time()
    data = {"command": a.argv or "scripts/bench-net", "quick": a.quick,
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "machine": machine(a.build), "load_before": loadavg(), "notes": [],
            "rt": " ".join(srv.RT_PREFIX)}
    servers = [b for _, b, _ in SERVERS]
    points, http_conns = ECHO_POINTS, [c for c, _ in HTTP_POINTS]
    if a.points:
        names = [p[3] for p in ECHO_POINTS] + [n for _, n in HTTP_POINTS]
        want = choose(ap, "--points", a.points, names)
        points = [p for p in ECHO_POINTS if p[3] in want]
        http_conns = [c for c, n in HTTP_POINTS if n in want]
    if a.servers:
        servers = choose(ap, "--servers", a.servers, servers)
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
        log(f"http ({a.http_load}):")
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
