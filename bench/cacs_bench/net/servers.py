"""The network benchmarks' servers and what running them takes: the
table of servers, pinning and real-time priority, ports, a server process
that is always killed."""

import os
import re
import shutil
import signal
import socket
import subprocess
import time

from ..common import ROOT

# (name, binary, extra env); the order is the order of the tables.
SERVERS = [
    ("epoll (callbacks)", "net_server_epoll", {}),
    # The io_uring ceiling: one ring, a state machine per connection.
    ("io_uring (callbacks)", "net_server_uring", {}),
    # libcacs on io_uring (where the kernel serves it), and on its epoll
    # loop (cacs/io.h, "Engines"; server_cacs.c asks for the engine).
    ("libcacs", "net_server_cacs", {}),
    ("libcacs on epoll", "net_server_cacs_epoll", {}),
    ("libcacs + APN", "net_server_cacs_apn", {}),
    ("State Threads", "net_server_st", {}),
    ("Asio spawn", "net_server_asio_spawn", {}),
    ("Asio C++20", "net_server_asio_cpp20", {}),
    ("Go", "net_server_go", {"GOMAXPROCS": "1"}),
    # Two threads: the M:N pool (cacs/pool.h) and Go, on both CPUs (the load
    # generator shares one of them: see SERVER_CPUS).
    ("libcacs pool, 1 worker", "net_server_cacs_pool1", {}),
    ("libcacs pool, 2 workers", "net_server_cacs_pool2", {}),
    # The pool on a ring per worker (io_uring asked for; lib/io_pool_uring.c).
    ("libcacs pool on io_uring, 1 worker", "net_server_cacs_pool1_uring", {}),
    ("libcacs pool on io_uring, 2 workers", "net_server_cacs_pool2_uring", {}),
    ("Go, GOMAXPROCS=2", "net_server_go2", {"GOMAXPROCS": "2"}),
]
# Servers that run two threads: pinned to the server's and the load's CPUs.
# On a 2-CPU machine the load generator then competes with the second
# worker, so their figures show what the second thread costs or gains
# against a load that takes a whole CPU, not how the server scales.
SERVER_CPUS = {"net_server_cacs_pool2": 2, "net_server_cacs_pool2_uring": 2,
               "net_server_go2": 2}
HTTP_SERVERS = ["net_server_epoll", "net_server_uring", "net_server_cacs",
                "net_server_cacs_epoll", "net_server_cacs_apn",
                "net_server_st", "net_server_asio_spawn", "net_server_go",
                "net_server_cacs_pool1", "net_server_cacs_pool2",
                "net_server_cacs_pool1_uring", "net_server_cacs_pool2_uring",
                "net_server_go2"]
# Servers callgrind cannot run, and why.
CG_UNSUPPORTED = {
    "net_server_st": "st_init fails under valgrind (valgrind refuses the "
                     "setrlimit(RLIMIT_NOFILE) call State Threads makes)",
}
QUICK_SERVERS = ["net_server_epoll", "net_server_uring", "net_server_cacs",
                 "net_server_cacs_epoll", "net_server_st",
                 "net_server_cacs_pool2"]
# (label, loadgen mode, connections, --points name)
ECHO_POINTS = [("ping-pong, 100 conns", "pingpong", 100, "pp100"),
               ("ping-pong, 1000 conns", "pingpong", 1000, "pp1000"),
               ("streaming, 100 conns", "stream", 100, "st100")]
HTTP_POINTS = [(100, "http100"), (1000, "http1000")]
MOCK_VARIANTS = [("full-save switch", "net_mock_full"),
                 ("CACS", "net_mock_cacs"),
                 ("CACS + APN", "net_mock_apn")]
PAPER_GAIN = {"http": (11.2, 18.8), "rpc": (26.2, 45.2)}

RESULT_RE = re.compile(r"^RESULT (.*)$", re.M)


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


HZ = os.sysconf("SC_CLK_TCK")


def proc_cpu(pid):
    """(CPU seconds, user seconds, system seconds) of process `pid`, all its
    threads: the first exact (/proc/PID/task/*/schedstat), the split
    tick-sampled (/proc/PID/stat), so indicative. None once it has gone."""
    try:
        run = 0
        for t in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{t}/schedstat") as f:
                    run += int(f.read().split()[0])
            except OSError:
                pass
        with open(f"/proc/{pid}/stat") as f:
            st = f.read().rsplit(")", 1)[1].split()
        return run / 1e9, int(st[11]) / HZ, int(st[12]) / HZ
    except (OSError, IndexError, ValueError):
        return None


def cpu_per_req(before, after, nreq):
    """The figures of `proc_cpu` between two samples, in µs per request."""
    if not before or not after or nreq <= 0:
        return {}
    return {k: 1e6 * (y - x) / nreq for k, x, y in zip(("us", "user_us", "sys_us"),
                                                       before, after)}


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


SERVER_ENV = {b: env for _, b, env in SERVERS}
SERVER_NAME = {b: name for name, b, _ in SERVERS}


def fmt_point(p):
    if p.get("status") != "ok":
        return p.get("status", "?")
    cpu = (f"  server {p['srv_us']:.2f} us/req (sys {p['srv_sys_us']:.2f})"
           f"  load {p['load_us']:.2f}" if "srv_us" in p else "")
    return (f"{p['rps']:10.0f} req/s  p50 {p['p50_us']:.0f} us  p99 {p['p99_us']:.0f} us"
            + cpu)
