#!/usr/bin/env python3
"""Interleaved CPU-per-request measurement (issue 35, bench/results/net/uring35):
server pinned to CPU 0, load (net_loadgen or wrk) to CPU 1, both SCHED_RR 10
(--rt 0: normal priority, as bench/results/net/loadgen35 ran).
Over the measured window (after --warm): the server's CPU time from
/proc/PID/task/*/schedstat (exact), its user/system split from
/proc/PID/stat (tick-sampled), and the iou-wrk threads' CPU (io-wq); the load generator's the same way
(gen_*; --engine: net_loadgen's -e, --http-load: wrk or net_loadgen -m http).
Points: pp<N> (echo ping-pong, N conns), st<N> (streaming), http<N> (wrk).
  measure.py --servers "epoll=net_server_epoll;pool_ur=net_server_cacs_pool1_uring:CACS_IO_BATCH_US=0" \
             --points pp1000,http100,st100 --reps 4 --secs 3"""
import os, sys, subprocess, time, socket, re, statistics, json, argparse
HZ = os.sysconf("SC_CLK_TCK")
ap = argparse.ArgumentParser()
ap.add_argument("--bdir", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../../../build/bench"))
ap.add_argument("--servers", required=True)  # name=binary[:ENV=V,ENV=V]
ap.add_argument("--points", default="pp1000,http100")
ap.add_argument("--reps", type=int, default=5)
ap.add_argument("--secs", type=float, default=3)
ap.add_argument("--warm", type=float, default=1)
ap.add_argument("--json")
ap.add_argument("--rt", type=int, default=10, help="chrt -r PRIO; 0: none")
ap.add_argument("--engine", default="epoll", help="net_loadgen -e")
ap.add_argument("--http-load", default="wrk", choices=["wrk", "loadgen"])
a = ap.parse_args()
RT = ["chrt", "-r", str(a.rt)] if a.rt > 0 else []
def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p
def wait_port(p):
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", p), 0.2).close(); return True
        except OSError: time.sleep(0.05)
    return False
def cpu(pid):
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(f[11]) / HZ, int(f[12]) / HZ
def runtime(pid):
    t = 0
    for x in os.listdir(f"/proc/{pid}/task"):
        try: t += int(open(f"/proc/{pid}/task/{x}/schedstat").read().split()[0])
        except OSError: pass
    return t / 1e9
def threads(pid):
    out = {}
    for t in os.listdir(f"/proc/{pid}/task"):
        try:
            n = open(f"/proc/{pid}/task/{t}/comm").read().strip()
            f = open(f"/proc/{pid}/task/{t}/stat").read().rsplit(")", 1)[1].split()
            out[t] = (n, (int(f[11]) + int(f[12])) / HZ)
        except OSError: pass
    return out
servers = []
for s in a.servers.split(";"):
    name, rest = s.split("=", 1)
    b, _, envs = rest.partition(":")
    env = dict(os.environ)
    for kv in filter(None, envs.split(",")):
        k, v = kv.split("=", 1); env[k] = v
    servers.append((name, b, env))
def once(name, b, env, point):
    port = free_port()
    mode = "http" if point.startswith("http") else "echo"
    conns = int(re.sub(r"\D", "", point))
    srv = subprocess.Popen(RT + ["taskset", "-c", "0", os.path.join(a.bdir, b), "-p", str(port), "-m", mode],
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert wait_port(port)
        wrk = point.startswith("http") and a.http_load == "wrk"
        if wrk:
            load = ["wrk", "-t1", f"-c{conns}", f"-d{int(a.warm + a.secs)}s", f"http://127.0.0.1:{port}/"]
        else:
            m = "stream" if point.startswith("st") else "http" if point.startswith("http") else "pingpong"
            load = [os.path.join(a.bdir, "net_loadgen"), "-p", str(port), "-c", str(conns), "-m", m,
                    "-d", str(a.secs), "-w", str(a.warm), "-e", a.engine]
        t0 = time.time()
        g = subprocess.Popen(RT + ["taskset", "-c", "1"] + load, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        time.sleep(a.warm)
        u0, s0 = cpu(srv.pid); th0 = threads(srv.pid); r0 = runtime(srv.pid)
        gu0, gs0 = cpu(g.pid); gr0 = runtime(g.pid)
        time.sleep(a.secs)
        u1, s1 = cpu(srv.pid); th1 = threads(srv.pid); r1 = runtime(srv.pid)
        gu1, gs1 = cpu(g.pid); gr1 = runtime(g.pid)
        out = g.communicate(timeout=60)[0]
        if g.returncode != 0:
            raise RuntimeError(f"load exited {g.returncode}: {out[-200:]}")
        if wrk:
            m = re.search(r"Requests/sec:\s+([\d.]+)", out); rps = float(m.group(1))
            # wrk's rps covers warm+secs; fine for rate
        else:
            m = re.search(r"rps=([\d.]+)", out); rps = float(m.group(1))
        nreq = rps * a.secs
        iou = sum(v[1] - th0.get(k, (0, 0))[1] for k, v in th1.items() if v[0].startswith("iou"))
        names = sorted(set(v[0] for v in th1.values()))
        return dict(rps=rps, run_us=(r1 - r0) / nreq * 1e6, user_us=(u1 - u0) / nreq * 1e6, sys_us=(s1 - s0) / nreq * 1e6,
                    util=(u1 - u0 + s1 - s0) / a.secs, iou_us=iou / nreq * 1e6, threads=names,
                    gen_us=(gr1 - gr0) / nreq * 1e6, gen_user_us=(gu1 - gu0) / nreq * 1e6,
                    gen_sys_us=(gs1 - gs0) / nreq * 1e6, gen_util=(gr1 - gr0) / a.secs,
                    load=open("/proc/loadavg").read().split()[0])
    finally:
        srv.kill(); srv.wait()
res = {}
for point in a.points.split(","):
    for r in range(a.reps):
        for name, b, env in servers:
            try:
                x = once(name, b, env, point)
            except Exception as e:
                print("FAIL", point, name, e, flush=True); continue
            res.setdefault(point, {}).setdefault(name, []).append(x)
            print(f"{point} {name:14s} rps={x['rps']:9.0f} run={x['run_us']:.2f} user={x['user_us']:.2f} sys={x['sys_us']:.2f} util={x['util']:.2f} iou={x['iou_us']:.2f} gen={x['gen_us']:.2f} (u {x['gen_user_us']:.2f} s {x['gen_sys_us']:.2f} util {x['gen_util']:.2f}) load={x['load']} {x['threads'] if len(x['threads'])>1 else ''}", flush=True)
print("load", open("/proc/loadavg").read().strip())
for point, d in res.items():
    print(f"== {point} (medians of {a.reps})")
    for name, v in d.items():
        med = lambda k: statistics.median(x[k] for x in v)
        print(f"  {name:14s} rps={med('rps'):9.0f} cpu_us(schedstat)={med('run_us'):.2f} min..max={min(x['run_us'] for x in v):.2f}..{max(x['run_us'] for x in v):.2f} ticks: user_us={med('user_us'):.2f} sys_us={med('sys_us'):.2f} cpu_us={med('user_us')+med('sys_us'):.2f} util={med('util'):.2f} gen_us={med('gen_us'):.2f} gen_sys_us={med('gen_sys_us'):.2f} gen_util={med('gen_util'):.2f}")
if a.json:
    json.dump(res, open(a.json, "w"), indent=1)
