"""Shared pieces of scripts/difftest: tools, running with a timeout, results,
worker processes."""

import concurrent.futures
import functools
import multiprocessing
import os
import resource
import shutil
import subprocess
import sys
import time

_HERE = os.path.dirname(os.path.realpath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(_HERE)))  # scripts/cacs_tools/difftest
AARCH64_SYSROOT = "/usr/aarch64-linux-gnu"
AARCH64_FLAGS = ["--target=aarch64-linux-gnu"]
CSMITH_INCLUDE = "/usr/include/csmith"


# In a worker process (parallel below) the lines a test logs are kept and
# printed by the main process, all of one test together.
_captured = None


def log(msg):
    if _captured is not None:
        _captured.append(msg)
    else:
        print(msg, flush=True)


def shown(path):
    """A path as log lines show it: relative to the source tree if inside."""
    rel = os.path.relpath(path, ROOT)
    return path if rel.startswith("..") else rel


def regression_dir(args):
    """Where reduced failures are saved as lit tests (--regression-dir)."""
    d = getattr(args, "regression_dir", None)
    return os.path.abspath(d) if d else os.path.join(ROOT, "test", "Reliability", "regressions")


class Tools:
    """Where the stock LLVM and the cacs build of one LLVM version live."""

    def __init__(self, llvm, build=None):
        self.llvm = str(llvm)
        self.bindir = "/usr/lib/llvm-%s/bin" % self.llvm
        if build is None:
            build = os.path.join(ROOT, "build" if self.llvm == "19" else "build-llvm" + self.llvm)
        self.build = os.path.abspath(build)
        self.cacs_clang = os.path.join(self.build, "bin", "clang")
        self.passes = os.path.join(self.build, "lib", "CACSPasses.so")
        self.qemu = shutil.which("qemu-aarch64") or "/usr/bin/qemu-aarch64"

    def tool(self, name):
        return os.path.join(self.bindir, name)

    @property
    def stock_clang(self):
        return self.tool("clang")

    def check(self, need_qemu=False):
        missing = [p for p in (self.cacs_clang, self.passes, self.stock_clang) if not os.path.exists(p)]
        if need_qemu and not (os.path.exists(self.qemu) and os.path.isdir(AARCH64_SYSROOT)):
            missing.append("qemu-aarch64 with %s" % AARCH64_SYSROOT)
        if missing:
            sys.exit("difftest: missing %s (build cacs first: ninja -C %s)" % (", ".join(missing), self.build))

    def run_prefix(self, arch):
        return [self.qemu, "-L", AARCH64_SYSROOT] if arch == "aarch64" else []

    def arch_flags(self, arch):
        return AARCH64_FLAGS if arch == "aarch64" else []


class Result:
    __slots__ = ("rc", "out", "err", "timeout", "secs")

    def __init__(self, rc, out, err, timeout, secs):
        self.rc, self.out, self.err, self.timeout, self.secs = rc, out, err, timeout, secs

    @property
    def ok(self):
        return self.rc == 0 and not self.timeout


def _no_core():
    # A crashing test program (qemu-aarch64 above all) must not leave core
    # files wherever difftest was started.
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def run(cmd, timeout=120, cwd=None, stdin=None, longer=None):
    """Run cmd; never raises for a failing or hanging command. With longer,
    a timeout (the machine may just be busy) gets one more try that long."""
    r = _run_once(cmd, timeout, cwd, stdin)
    return _run_once(cmd, longer, cwd, stdin) if r.timeout and longer else r


def _run_once(cmd, timeout, cwd, stdin):
    t0 = time.time()
    try:
        p = subprocess.run(cmd, cwd=cwd, stdin=subprocess.DEVNULL if stdin is None else stdin,
                           preexec_fn=_no_core,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        return Result(p.returncode, p.stdout.decode("utf-8", "replace"),
                      p.stderr.decode("utf-8", "replace"), False, time.time() - t0)
    except OSError as e:  # e.g. a tool being relinked right now
        return Result(126, "", "difftest: cannot run %s: %s\n" % (cmd[0], e), False, time.time() - t0)
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("utf-8", "replace")
        err = (e.stderr or b"").decode("utf-8", "replace")
        return Result(-1, out, err, True, time.time() - t0)


# Others rebuild cacs while we run: a plugin or the front door caught half
# written is not a finding. Such failures are retried for a while.
TRANSIENT = ("unable to load plugin", "file too short", "cannot run ", "Text file busy",
             "Could not load library", "invalid ELF header",
             "Permission denied", "No such file or directory: '/work", "cannot open shared object")


def run_tool(cmd, timeout=120, cwd=None, tries=8):
    for i in range(tries):
        r = run(cmd, timeout=timeout, cwd=cwd)
        if r.ok or r.timeout or not any(t in r.err for t in TRANSIENT):
            return r
        time.sleep(10)
    return r


def apt_install(packages):
    """Install Debian packages that are missing (root only; quiet)."""
    need = [p for p in packages
            if subprocess.run(["dpkg", "-s", p], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode != 0]
    if not need:
        return True
    if os.geteuid() != 0:
        log("difftest: missing Debian packages %s (not root, not installing)" % " ".join(need))
        return False
    log("difftest: installing %s" % " ".join(need))
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if subprocess.run(["apt-get", "install", "-y", "-qq"] + need, env=env,
                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode != 0:
        subprocess.run(["apt-get", "update", "-qq"], env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return subprocess.run(["apt-get", "install", "-y", "-qq"] + need, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0
    return True


# What a crashing or failing LLVM prints; the first such line is the
# signature a reduction keeps.
CRASH_MARKERS = ("LLVM ERROR", "Assertion", "Bad machine code", "Broken module",
                 "PLEASE submit a bug report", "Stack dump", "UNREACHABLE",
                 "error: ", "Segmentation fault", "Illegal instruction")


def failure_signature(text):
    for marker in CRASH_MARKERS:
        for line in text.splitlines():
            if marker in line:
                sig = line.strip()
                # Paths and numbers vary between the original and the reduced
                # file; keep the stable part.
                if ": error: " in sig:
                    sig = sig.split(": error: ", 1)[1]
                return sig[:160]
    return None


class Summary:
    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.skipped = 0
        self.upstream = 0
        self.failures = []  # (what, kind, detail)
        self.known = []  # failures that look like the AArch64 FastISel bug

    def merge(self, other):
        self.passed += other.passed
        self.failed += other.failed
        self.skipped += other.skipped
        self.upstream += other.upstream
        self.failures += other.failures
        self.known += other.known

    def add_pass(self):
        self.passed += 1

    def add_fail(self, what, kind, detail=""):
        self.failed += 1
        self.failures.append((what, kind, detail))
        log("FAIL %s: %s %s" % (what, kind, detail.splitlines()[0] if detail else ""))

    def line(self):
        extra = ""
        if self.skipped:
            extra += ", %d skipped" % self.skipped
        if self.upstream:
            extra += ", %d upstream" % self.upstream
        return "difftest: %d passed, %d failed%s" % (self.passed, self.failed, extra)


def _call(work, capture, item):
    global _captured
    _captured = [] if capture else None
    sub = Summary()
    try:
        result, deferred = work(item, sub)
    finally:
        lines, _captured = _captured or [], None
    return sub, lines, result, deferred


# Items per batch of parallel(): its deferred calls run after each batch, so a
# long campaign reduces what it finds as it goes. Fixed, not derived from the
# number of jobs, so that the output does not depend on it.
BATCH = 32


def parallel(jobs, work, items, summary, progress=None):
    """work(item, summary) -> (result, deferred) for each item, in `jobs`
    worker processes. Each item's log lines are printed together and in item
    order, and its counts merged into summary, so the output does not depend
    on jobs. deferred is a list of (function, args) run after each batch of
    BATCH items, one at a time, in this process (reductions, which use the
    cores the workers leave idle meanwhile). progress(done, total, item), if
    given, is called as each item's result is taken, in item order. Returns
    the results in item order."""
    items = list(items)
    results = []
    pool = None
    if jobs > 1:
        pool = concurrent.futures.ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork"))
    try:
        for b in range(0, len(items), BATCH):
            batch = items[b:b + BATCH]
            if pool is None:
                outs = (_call(work, False, item) for item in batch)
            else:
                outs = pool.map(functools.partial(_call, work, True), batch)
            deferred = []
            for sub, lines, result, more in outs:
                for line in lines:
                    print(line, flush=True)
                summary.merge(sub)
                results.append(result)
                deferred += more
                if progress is not None:
                    progress(len(results), len(items), batch[len(results) - 1 - b])
            for fn, fargs in deferred:
                fn(*fargs)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return results
