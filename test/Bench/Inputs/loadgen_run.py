#!/usr/bin/env python3
"""Run bench/net's load generator against a server on a free port and print
its output; exit with the load generator's status.

  loadgen_run.py --server BINARY --mode echo|http -- LOADGEN [ARGS...]
  loadgen_run.py --bad-echo N [--mute M] -- LOADGEN [ARGS...]

--bad-echo: the server is this script, an echo server that flips one bit of
every N-th 512-byte message it echoes (the load generator must count it; 0:
none). --mute M: it also never answers the M-th, 2M-th, ... connection it
accepts (the load generator must count them as starved).
The port is added to the load generator's arguments (-p PORT)."""

import argparse
import socket
import subprocess
import sys
import threading
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def bad_echo(listener, every, mute):
    def serve(c, silent):
        seen = 0
        # The load generator hangs up at its end, echoes in flight: a reset
        # ends the connection, it is no error of the test. Uncaught, the
        # daemon threads' tracebacks raced the interpreter's shutdown for
        # stderr, and Python aborted (SIGABRT: `not` then fails the test).
        with c:
            try:
                while True:
                    data = bytearray(c.recv(65536))
                    if not data:
                        return
                    if silent:
                        continue
                    for i in range(len(data) if every else 0):
                        if (seen + i) % (512 * every) == 100:
                            data[i] ^= 1
                    seen += len(data)
                    c.sendall(data)
            except OSError:
                return

    accepted = 0
    while True:
        c, _ = listener.accept()
        accepted += 1
        silent = bool(mute) and accepted % mute == 0
        threading.Thread(target=serve, args=(c, silent), daemon=True).start()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server")
    ap.add_argument("--mode", default="echo")
    ap.add_argument("--bad-echo", type=int)
    ap.add_argument("--mute", type=int, default=0)
    ap.add_argument("load", nargs="+")
    a = ap.parse_args()
    port = free_port()
    srv = None
    if a.bad_echo is not None:
        ls = socket.socket()
        ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        ls.bind(("127.0.0.1", port))
        ls.listen(128)
        threading.Thread(target=bad_echo, args=(ls, a.bad_echo, a.mute),
                         daemon=True).start()
    else:
        srv = subprocess.Popen([a.server, "-p", str(port), "-m", a.mode])
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                time.sleep(0.05)
    try:
        p = subprocess.run(a.load + ["-p", str(port)], capture_output=True, text=True,
                           timeout=120)
    finally:
        if srv:
            srv.kill()
            srv.wait()
    sys.stdout.write(p.stdout)
    sys.stdout.write(p.stderr)
    return p.returncode


if __name__ == "__main__":
    sys.exit(main())
