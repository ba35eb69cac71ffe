"""What a request costs a server: instructions (callgrind), system calls
and events per wait (perf stat tracepoints), CPU time (task-clock)."""

import os
import re
import shutil
import signal
import statistics
import subprocess

from ..common import log
from .servers import (CG_UNSUPPORTED, HTTP_SERVERS, ROOT, SERVER_ENV, Server, free_port, pinned,
                      run_cmd, server_cpu, wait_port)


# ---- server instructions per request ------------------------------------------------


def cg_cannot_run(err):
    """Why valgrind cannot run a server at all on this machine, from its
    report, or None. Go's runtime reads the clock with rdtscp where the CPU
    has it (AMD's do), and valgrind 3.19 stops on that instruction with
    SIGILL: no attempt can pass, so the row says so instead of FAILED."""
    if re.search(r"unhandled instruction bytes: 0xF 0x1 0xF9 ", err):
        return ("valgrind does not decode rdtscp, which the Go runtime reads "
                "the clock with on this CPU")
    return None


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
            if srv.proc.poll() is not None:
                _, _, err = srv.stop()
                why = cg_cannot_run(err or "")
                if why:
                    return None, "not measured: " + why
                if attempts > 1:
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
                elif e1.startswith("not measured: "):
                    r["status"] = e1
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
              ("echo streaming, 100 conns", "stream", 100),
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
        proto = "echo" if load in ("pingpong", "stream") else "http"
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
