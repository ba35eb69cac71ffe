"""The stored results of one `./scripts/bench` run, as the reports read
them: DIR/results.json (the workloads of the suite) and
DIR/net/instr/results.json (the servers' and mocked clients' instructions,
which scripts/bench's full run refreshes with `scripts/bench-net --only
mock,callgrind`). Every number of bench/results/README.md and of the
README's benchmark table is read through Results."""

import collections
import json
import os
import statistics

from .specs import HANOI_BASE

# What the text calls each variant (the benchmarks print shorter names).
NAMES = {
    "plain-loop": "plain loop, no generator",
    "cpp20-for": "C++20 generator (range-for)",
    "cpp20-while": "C++20 generator (while)",
    "cpp20": "C++20 coroutines",
    "boost-fcontext": "Boost jump_fcontext",
    "boost-fiber": "Boost.Fiber",
    "glibc-swapcontext": "glibc swapcontext",
    "libcacs-instack": "libcacs in-stack generator (C)",
    "libcacs-instack-c++": "libcacs in-stack generator (C++)",
    "libcacs-gen": "libcacs generator on its own stack (C)",
    "libcacs-gen-c++": "libcacs generator on its own stack (C++)",
    "empty-loop": "the empty loop",
    "5-libcacs": "libcacs cacs_yield",
    "6-libcacs+apn": "libcacs cacs_yield, APN",
    "6-libcacs+apn+small-stack": "libcacs cacs_yield, APN, 4 KiB stacks",
    "5-libcacs+cs-none": "libcacs cacs_yield, callee-saved none",
    "6-libcacs+apn+cs-none": "libcacs cacs_yield, APN, callee-saved none",
    "libcacs-switch": "libcacs cacs_switch (no scheduler)",
    "libcacs-tail-switch": "libcacs CACS_TAIL_SWITCH_BP function",
    "libcacs": "libcacs",
    "libcacs+apn": "libcacs, APN",
    "libcacs+apn+small-stack": "libcacs, APN, 4 KiB stacks",
    "inline-asm-switch": "cacs_switch inlined, no scheduler",
    "plain-callback": "plain recursion + callback",
}
# Hanoi's variants, where the text's name differs from the suite's.
HANOI_NAMES = {("hanoi_instack", None): "libcacs in-stack generator",
               ("hanoi_libcacs", None): "libcacs generator on its own stack",
               ("hanoi_cpp20", "cpp20-symmetric"): "C++20 (symmetric transfer)",
               ("hanoi_cpp20", "cpp20-nested"): "C++20 (nested)"}
# Binaries built only where -fpreserve-none-callee-saved=none is supported.
CSNONE = ("built only where -fpreserve-none-callee-saved=none is supported: "
          "LLVM 22 on x86-64, llvm22/README.md")


def name(r):
    """A record's variant as the text names it."""
    if r["workload"] == "hanoi":
        hn = HANOI_NAMES.get((r["binary"], r.get("arg")))
        if hn:
            return hn
    v = r.get("variant") or r.get("arg") or r["binary"]
    v = NAMES.get(v, v)
    if r["binary"].endswith("_csnone") and "callee-saved none" not in v:
        v += ", callee-saved none"
    return v


def f1(x):
    return "-" if x is None else "%.1f" % x


def f2(x):
    return "-" if x is None else "%.2f" % x


def fint(x):
    return "-" if x is None else "{:,}".format(int(round(x)))


def gib(x):
    return "-" if x is None else "%.2f GiB" % (x / 2.0 ** 30)


class Results:
    def __init__(self, rdir):
        self.dir = rdir
        with open(os.path.join(rdir, "results.json")) as f:
            self.d = json.load(f)
        p = os.path.join(rdir, "net", "instr", "results.json")
        self.net = {}
        if os.path.exists(p):
            with open(p) as f:
                self.net = json.load(f)
        self.recs = self.d.get("results", [])
        self.hanoi_recs = self.d.get("hanoi", [])
        self.quick = bool(self.d.get("quick"))

    def rec(self, workload, binary, arg=None):
        for r in self.recs + self.hanoi_recs:
            if (r["workload"] == workload and r["binary"] == binary
                    and r.get("arg") == arg and r.get("status") == "ok"):
                return r
        return None

    def hanoi(self, binary, arg, n=20):
        for r in self.hanoi_recs:
            if (r["binary"] == binary and r.get("arg") == arg and r["n"] == n
                    and r.get("status") == "ok"):
                return r
        return None

    def hanoi_base(self):
        return self.hanoi(*HANOI_BASE)

    def i(self, *k):
        r = self.rec(*k)
        return r.get("instr_per_op") if r else None

    def ns(self, *k):
        r = self.rec(*k)
        return r.get("ns_per_op_median") if r else None

    def patterns(self):
        out = []
        for r in self.recs:
            p = r["workload"][4:] if r["workload"].startswith("pat-") else None
            if p and p not in out:
                out.append(p)
        return out

    def runs_of(self, workload):
        """How many runs the medians of `workload` are of."""
        return next((len(r["ns_runs"]) for r in self.recs + self.hanoi_recs
                     if r["workload"] == workload and r.get("status") == "ok"
                     and r.get("ns_runs")), 0)

    def runs_text(self, workloads=None):
        """"median of N runs", with the workloads that ran another count;
        workloads: a test of the workloads to count (default: all)."""
        per = collections.OrderedDict()
        for r in self.recs + self.hanoi_recs:
            if (r.get("status") == "ok" and r.get("ns_runs")
                    and (workloads is None or workloads(r["workload"]))):
                per.setdefault(r["workload"], len(r["ns_runs"]))
        if not per:
            return "median of 0 runs"
        usual = collections.Counter(per.values()).most_common(1)[0][0]
        text = "median of %d runs" % usual
        other = collections.defaultdict(list)
        for w, n in per.items():
            if n != usual:
                other[n].append(w[4:] if w.startswith("pat-") else w)
        if other:
            text += " (%s)" % "; ".join("%s: %d" % (" and ".join(ws), n)
                                        for n, ws in sorted(other.items()))
        return text

    def paired(self, p, peer):
        """(median of the per-round ratios peer / libcacs, rounds libcacs
        won, rounds) in pattern p, or None. Round k's runs of the
        interleaved binaries are ns_runs[k] of each record (one repetition
        per process), so they pair by index."""
        c, o = self.rec("pat-" + p, "pat_cacs", p), self.rec("pat-" + p, peer, p)
        if not c or not o or len(c["ns_runs"]) != len(o["ns_runs"]) or len(c["ns_runs"]) < 3:
            return None
        ratios = [y / x * c["ops"] / o["ops"] for x, y in zip(c["ns_runs"], o["ns_runs"])]
        return statistics.median(ratios), sum(1 for r in ratios if r > 1), len(ratios)

    def sb(self, part, mode, n=None):
        """The stackbound workload's record of `part` (ring, yring, pool,
        fit) in `mode` (of `n` coroutines, or the first), if it ran and
        checked."""
        for r in self.d.get("stackbound", []):
            if (r["part"] == part and r["mode"] == mode and r.get("status") == "ok"
                    and n in (None, r["n"])):
                return r
        return None

    def sb_median(self, part, mode, key, n=None):
        r = self.sb(part, mode, n)
        return r["median"].get(key) if r else None

    def sb_sizes(self, part):
        """The sizes (n) the stackbound workload ran `part` at, ascending."""
        return sorted({r["n"] for r in self.d.get("stackbound", []) if r["part"] == part})

    def sb_fit_rss(self):
        """The RSS of the stackbound workload's coroutines parked at once
        (its `fit` record), or None."""
        fit = self.sb("fit", "exact")
        return fit["median"]["rss_per_coro"] * fit["n"] if fit else None

    def server_instr(self, kind, binary):
        r = self.net.get("server_instr", {}).get(kind, {}).get(binary, {})
        return r.get("instr_per_req") if r.get("status") == "ok" else None
