"""What every benchmark runner shares: running a binary pinned and
reading its RESULT line, callgrind's instructions per operation, the load
seen while timing, the machine's description, plots."""

import datetime
import json
import os
import platform
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

RESULT_RE = re.compile(r"^RESULT (.*)$", re.M)
WALL_RE = re.compile(r"^WALL ns=([0-9,]*)$", re.M)


def log(msg):
    print(msg, flush=True)


def parse_result(out):
    m = RESULT_RE.search(out)
    if not m:
        return None
    kv = dict(item.split("=", 1) for item in m.group(1).split())
    kv["ns"] = [int(x) for x in kv["ns"].split(",") if x]
    for k in ("n", "ops", "checksum", "ok"):
        kv[k] = int(kv[k])
    return kv


# The highest 1-minute load average seen when a timed run started: the
# start's figure alone hides a machine that got busy during the run.
LOAD_MAX = [0.0]


def sample_load():
    try:
        one = float(open("/proc/loadavg").read().split()[0])
    except (OSError, ValueError, IndexError):
        return
    LOAD_MAX[0] = max(LOAD_MAX[0], one)


def run_binary(path, n, reps, variant, cpu, timeout=600):
    sample_load()
    cmd = []
    if cpu is not None and shutil.which("taskset"):
        cmd += ["taskset", "-c", str(cpu)]
    cmd += [path, "-n", str(n), "-r", str(reps)]
    if variant:
        cmd += ["-v", variant]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    res = parse_result(p.stdout)
    return p.returncode, res, " ".join(cmd), p.stderr


def callgrind(argv, timeout=1800):
    """argv under callgrind: (the instructions it executed, or None, the
    finished process)."""
    p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + argv,
                       capture_output=True, text=True, timeout=timeout)
    m = re.search(r"Collected : (\d+)", p.stderr)
    return (int(m.group(1)) if m else None), p


def callgrind_total(path, n, reps, variant):
    total, p = callgrind([path, "-n", str(n), "-r", str(reps)] + (["-v", variant] if variant else []))
    res = parse_result(p.stdout)
    if p.returncode != 0 or total is None or not res or not res["ok"]:
        return None, None
    return total, res


def instr_per_op(path, n, variant):
    t1, r1 = callgrind_total(path, n, 1, variant)
    t2, r2 = callgrind_total(path, n, 2, variant)
    if t1 is None or t2 is None:
        return None
    return (t2 - t1) / r2["ops"]


def llvm_bindir(build):
    cache = os.path.join(build, "CMakeCache.txt")
    ver = "19"
    if os.path.exists(cache):
        m = re.search(r"^CACS_LLVM_VERSION:STRING=(\d+)", open(cache).read(), re.M)
        if m:
            ver = m.group(1)
    return "/usr/lib/llvm-%s/bin" % ver


def machine_info(build):
    info = {}
    try:
        info["lscpu"] = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    except OSError:
        info["lscpu"] = "?"
    vers = []
    for exe in [os.path.join(llvm_bindir(build), "clang"),
                os.path.join(build, "bin", "clang"), "valgrind"]:
        try:
            v = subprocess.run([exe, "--version"], capture_output=True,
                               text=True).stdout.splitlines()[0]
        except (OSError, IndexError):
            v = "?"
        # Paths inside the tree are given relative to it.
        name = os.path.relpath(exe, ROOT) if exe.startswith(ROOT + os.sep) else exe
        vers.append("%s: %s" % (name, v))
    info["compilers"] = vers
    info["kernel"] = platform.platform()
    try:
        info["git"] = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"],
                                     capture_output=True, text=True).stdout.strip()
        info["git_dirty"] = subprocess.run(
            ["git", "-C", ROOT, "status", "--short", "--", "runtime", "llvm",
             "clang", "bench"], capture_output=True, text=True).stdout.strip()
    except OSError:
        pass
    info["date"] = datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC")
    info["loadavg"] = open("/proc/loadavg").read().strip()
    return info


def choose(ap, option, value, known):
    """The names of `known` a comma-separated option value picks, in
    known's order (all of them when the option is not given); a name not
    known is an error of the command line that lists the known ones."""
    if not value:
        return list(known)
    wanted = value.split(",")
    unknown = [w for w in wanted if w not in known]
    if unknown:
        ap.error("%s: unknown %s (known: %s)" % (option, ", ".join(unknown), ", ".join(known)))
    return [k for k in known if k in wanted]


def add_replot(ap):
    ap.add_argument("--replot", action="store_true",
                    help="only redraw the plots from OUT/results.json")


def replot_data(a, name):
    """With --replot (add_replot): (OUT, the results.json stored there),
    OUT being --out or bench/results/NAME; else None: the runner measures."""
    if not a.replot:
        return None
    out = a.out or os.path.join(ROOT, "bench", "results", name)
    with open(os.path.join(out, "results.json")) as f:
        return out, json.load(f)


def fmt(x, d=2):
    return "-" if x is None else ("%.*f" % (d, x))


def log_scale_if_wide(set_scale, values):
    """A log axis where the values span a decade or more: on a linear one the
    cheap bars (cacs's, a few ns) vanish under the expensive ones
    (swapcontext's, a microsecond)."""
    v = [x for x in values if x and x > 0]
    if v and max(v) >= 10 * min(v):
        set_scale("log")


def pyplot():
    """matplotlib.pyplot drawing to files (Agg), or None (and a note) where
    matplotlib is not installed: the reports do without their plots."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log("NOTE: matplotlib is not installed for %s: no plots. "
            "Install it with: apt-get install python3-matplotlib" % sys.executable)
        return None
    return plt
