#!/usr/bin/env python3
"""Many-connection echo servers (issue 24): memory per connection.

Each server of bench/net (libcacs: a coroutine per connection; State
Threads, Asio spawn, Go: the same design in each) runs as its own process;
bench/net's load generator, another process, opens CONNS connections over
loopback and ping-pongs on all of them. The server's resident memory is read
from /proc before the load and at its peak while every connection is open;
the difference over CONNS is the memory per connection. The descriptor
limit bounds CONNS (here the hard limit is 20,000: `ulimit -Hn`): each side
needs one descriptor per connection. Bounded in time: a server that does
not answer is killed, a load that hangs times out.

    bench/scale/conns.py [--conns N] [--secs S] [--build DIR] [--quick]
                         [--server PATH --loadgen PATH]

--server/--loadgen: only that libcacs server, with that load generator (the
test suite's slice builds its own).

--quick: 500 connections, 1 second, libcacs and State Threads only (for
scripts/test and scripts/bench --quick). Exits non-zero if a server failed
(wrong echo, a connection refused, no message back). Writes
bench/results/scale/conns.md (quick: bench/results/scale/quick/conns.md).
"""

import argparse
import os
import re
import resource
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(ROOT, "bench"))  # cacs_bench
from cacs_bench.net.servers import free_port, wait_port  # noqa: E402
SERVERS = [("libcacs", "net_server_cacs", {}),
           ("State Threads", "net_server_st", {}),
           ("Asio spawn", "net_server_asio_spawn", {}),
           ("Go", "net_server_go", {"GOMAXPROCS": "1"})]
QUICK = ["net_server_cacs", "net_server_st"]
# Debian's State Threads library polls with select(): st_init lowers the
# process's descriptor limit to FD_SETSIZE (1,024), so it runs fewer.
MAX_CONNS = {"net_server_st": 1000}


def raise_nofile():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def rss_kb(pid, key="VmRSS"):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def one(server, loadgen, env, conns, secs, warm):
    port = free_port()
    e = dict(os.environ)
    e.update(env)
    srv = subprocess.Popen([server, "-p", str(port), "-m", "echo"],
                           env=e, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True, start_new_session=True, preexec_fn=raise_nofile)
    rec = {"status": "FAILED"}
    try:
        if not wait_port(port, srv, 10):
            rec["error"] = "server did not listen"
            return rec
        time.sleep(0.2)
        base = rss_kb(srv.pid)
        # A source address per 4,000 connections (net_loadgen -a).
        cmd = [loadgen, "-p", str(port), "-c", str(conns),
               "-m", "pingpong", "-d", str(secs), "-w", str(warm),
               "-a", str(min(254, conns // 4000 + 1))]
        rec["command"] = " ".join(["net_loadgen"] + cmd[1:])
        load = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, preexec_fn=raise_nofile)
        peak = base
        end = time.time() + warm + secs + 300
        while load.poll() is None and time.time() < end:
            r = rss_kb(srv.pid)
            if r and r > peak:
                peak = r
            time.sleep(0.05)
        if load.poll() is None:
            load.kill()
            rec["error"] = "load generator timed out"
            load.communicate()
            return rec
        out, err = load.communicate()
        m = re.search(r"^RESULT (.*)$", out, re.M)
        kv = dict(x.split("=", 1) for x in m.group(1).split()) if m else {}
        if load.returncode != 0 or not kv or int(kv.get("msgs", 0)) == 0:
            rec["error"] = (err or out or "no message came back")[-300:].strip()
            return rec
        hwm = rss_kb(srv.pid, "VmHWM") or peak
        peak = max(peak, hwm)
        rec.update(status="ok", base_kb=base, peak_kb=peak,
                   per_conn_b=(peak - base) * 1024 / conns, rps=float(kv["rps"]),
                   msgs=int(kv["msgs"]))
        return rec
    finally:
        if srv.poll() is None:
            os.killpg(srv.pid, signal.SIGTERM)
        try:
            srv.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(srv.pid, signal.SIGKILL)
            srv.communicate()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--conns", type=int)
    ap.add_argument("--secs", type=float)
    ap.add_argument("--warm", type=float)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out")
    ap.add_argument("--server", help="run only this libcacs server binary")
    ap.add_argument("--loadgen", help="the load generator (default: the build's)")
    a = ap.parse_args()
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    conns = a.conns or (500 if a.quick else min(19000, hard - 1000))
    secs = a.secs or (1 if a.quick else 3)
    warm = a.warm if a.warm is not None else (0.5 if a.quick else 2)
    bdir = os.path.join(os.path.abspath(a.build), "bench")
    out = a.out or os.path.join(ROOT, "bench", "results", "scale",
                                "quick" if a.quick else "", "conns.md")
    loadgen = a.loadgen or os.path.join(bdir, "net_loadgen")
    servers = [(label, os.path.join(bdir, b), b, env) for label, b, env in SERVERS]
    if a.server:
        servers = [("libcacs", a.server, "net_server_cacs", {})]
    rows, ok = [], True
    for label, path, binary, env in servers:
        if a.quick and binary not in QUICK:
            continue
        if not os.path.exists(path):
            rows.append(f"| {label} | missing (build target bench-net) | | | |")
            if binary in QUICK:
                ok = False
            continue
        n = min(conns, MAX_CONNS.get(binary, conns))
        r = one(path, loadgen, env, n, secs, warm)
        print(f"conns: {label}: {r}", file=sys.stderr)
        shown = label if n == conns else f"{label} ({n} connections: select())"
        if r["status"] != "ok":
            ok = False
            rows.append(f"| {shown} | FAILED: {r.get('error', '')} | | | |")
        else:
            rows.append(f"| {shown} | {r['per_conn_b']:.0f} | {r['base_kb']} | "
                        f"{r['peak_kb']} | {r['rps']:.0f} |")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        f.write(f"# Memory per connection, {conns} connections"
                f"{' (quick smoke run)' if a.quick else ''}\n\n")
        f.write(f"Generated by `bench/scale/conns.py{' --quick' if a.quick else ''}` on "
                f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} CPUs, "
                f"load average {os.getloadavg()[0]:.1f}; descriptor limit {hard}.\n")
        f.write("Command: `bench/scale/conns.py" + (" --quick" if a.quick else f" --conns {conns}") + "`.\n")
        f.write("Server and load generator are separate processes over loopback; load: "
                f"`net_loadgen -p PORT -c {conns} -m pingpong -d {secs:g} -w {warm:g} "
                f"-a {min(254, conns // 4000 + 1)}`. "
                "Per connection: (server VmRSS peak while all are open - VmRSS before) / "
                "connections. Every server's stack or coroutine for a connection is 64 KiB "
                "(bench/net/net_common.h: NET_STACK); Go's goroutines grow their own.\n\n")
        f.write("| server | bytes per connection | RSS before (KiB) | RSS peak (KiB) | "
                "echo msgs/s (all connections) |\n|---|---|---|---|---|\n")
        f.write("\n".join(rows) + "\n")
    print(open(out).read())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
