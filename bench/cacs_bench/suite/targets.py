"""The benchmark goals (issues 6 and 22) and where one run stands: each
goal is judged once, here, and both reports (bench/results/README.md's
Targets table and the README's benchmark table) quote that verdict.

Time is the figure (the benchmark thread's CPU time); a goal stated in
instructions (cacs_yield's 15, the generators' count against C++20's) is
judged in instructions, every other one in time."""

import collections

from .results import f1, f2, fint, gib
from .specs import SB_RING_GOAL, SB_RSS_GOAL

# key: how the README's table refers to it; goal: the Targets table's
# wording; short: the README's (None: not quoted there).
Target = collections.namedtuple("Target", "key goal short measured met")

# The targets the README's table quotes, row by row (readme_table.py).
README_TARGETS = [["yield-instr:yield_libcacs_apn", "yield-boost:yield_libcacs_apn"],
                  ["pat-3x", "pat-asm"],
                  ["sumseq:sumseq_instack", "sumseq:sumseq_instack_cpp"],
                  ["hanoi-plain:hanoi_instack", "hanoi-boost:hanoi_instack"],
                  ["write_fully:write_fully_libcacs_apn"], ["apn_client"], ["mock"],
                  ["sb-rss", "sb-ring", "sb-yring", "sb-fit"]]


def verdict(t):
    return "met" if t.met else "missed"


def _sumseq(R, t):
    """1. The paper's goal is C++20's instruction count."""
    c20i = R.i("sumseq", "sumseq_cpp20", "cpp20-for")
    c20 = R.ns("sumseq", "sumseq_cpp20", "cpp20-for")
    for b, what in (("sumseq_instack", "in-stack generator (C)"),
                    ("sumseq_instack_cpp", "in-stack generator (C++)"),
                    ("sumseq_libcacs", "generator on its own stack (C)"),
                    ("sumseq_libcacs_cpp", "generator on its own stack (C++)")):
        vi, v = R.i("sumseq", b), R.ns("sumseq", b)
        if vi is not None and c20i is not None:
            t.append(Target("sumseq:" + b,
                            "sum of sequence, %s: ≤ C++20's instructions per value" % what,
                            "%s ≤ C++20's instructions" % what.replace("generator ", ""),
                            "%.1f vs %.1f instructions (time %s vs %s ns)" % (vi, c20i, f2(v), f2(c20)),
                            round(vi, 1) <= round(c20i, 1)))


def _hanoi(R, t):
    """2. Hanoi(20), in time."""
    plain, hb = R.hanoi_base(), R.hanoi("hanoi_boost", None)
    for b, what in (("hanoi_instack", "in-stack generator"),
                    ("hanoi_libcacs", "generator on its own stack")):
        r = R.hanoi(b, None)
        if not r or not plain:
            continue
        ratio = r["ns_per_op_median"] / plain["ns_per_op_median"]
        ri, pi = r.get("instr_per_op"), plain.get("instr_per_op")
        t.append(Target("hanoi-plain:" + b,
                        "Hanoi(20), %s: within 1.2× of plain recursion + callback" % what,
                        "within 1.2× of plain recursion",
                        "time %.2f× (instructions %s)" % (ratio, "%.2f×" % (ri / pi) if ri and pi else "-"),
                        ratio <= 1.2))
        if hb:
            sp = hb["ns_per_op_median"] / r["ns_per_op_median"]
            bi = hb.get("instr_per_op")
            t.append(Target("hanoi-boost:" + b, "Hanoi(20), %s: ≥ 2× faster than Boost" % what,
                            "≥ 2× faster than Boost",
                            "time %.2f× (instructions %s)" % (sp, "%.2f×" % (bi / ri) if ri and bi else "-"),
                            sp >= 2))


def _write_fully(R, t):
    """3. write_fully, in time."""
    wb, wc = R.ns("write_fully", "write_fully_boost"), R.ns("write_fully", "write_fully_cpp20")
    for b, what in (("write_fully_libcacs_apn", "libcacs with APN"), ("write_fully_libcacs", "libcacs")):
        v = R.ns("write_fully", b)
        if v and wb and wc:
            t.append(Target("write_fully:" + b, "write_fully, %s: faster than Boost and C++20" % what,
                            "faster than Boost and C++20",
                            "%.2f vs %.2f and %.2f ns (instructions %s vs %s and %s)" % (
                                v, wb, wc, f1(R.i("write_fully", b)),
                                f1(R.i("write_fully", "write_fully_boost")),
                                f1(R.i("write_fully", "write_fully_cpp20"))),
                            v < wb and v < wc))


def _yield(R, t):
    """4. 15 instructions (the paper's count); 3x Boost in time."""
    empty = R.i("yield", "yield_libcacs", "empty")
    bi, bns = R.i("yield", "yield_boost"), R.ns("yield", "yield_boost")
    for b, what in (("yield_libcacs_apn", "with APN"), ("yield_libcacs", "without APN")):
        vi, v = R.i("yield", b), R.ns("yield", b)
        if vi is not None and empty is not None:
            t.append(Target("yield-instr:" + b,
                            "`cacs_yield` %s: ≤ 15 instructions per switch, loop and call included" % what,
                            "≤ 15 instructions",
                            "%.1f (%.1f net of the empty loop)" % (vi, vi - empty), round(vi, 1) <= 15))
        if v and bns:
            t.append(Target("yield-boost:" + b, "`cacs_yield` %s: ≥ 3× faster than Boost jump_fcontext" % what,
                            "≥ 3× faster than Boost",
                            "%.2f vs %.2f ns: %.2f× (instructions %s vs %s)" % (v, bns, bns / v, f1(vi), f1(bi)),
                            bns / v >= 3))


def _apn_client(R, t):
    """5. APN on the multi-level client, in time."""
    a, b = R.ns("apn_client", "apn_client_libcacs"), R.ns("apn_client", "apn_client_libcacs_apn")
    ai, bi = R.i("apn_client", "apn_client_libcacs"), R.i("apn_client", "apn_client_libcacs_apn")
    if a and b:
        less = 1 - b / a
        t.append(Target("apn_client", "APN on a multi-level client: ≥ 15 % less time", "≥ 15 % less time",
                        "%.1f %% less time (%.2f → %.2f ns); %s %% fewer instructions" % (
                            100 * less, a, b, f1(100 * (1 - bi / ai)) if ai and bi else "-"),
                        less >= 0.15))


def _patterns(R, t):
    """8. The call patterns, in time."""
    c, bo, asm = (R.ns("pat-pingpong", x, "pingpong") for x in ("pat_cacs", "pat_boost", "pat_asm"))
    if c and bo:
        t.append(Target("pat-3x", "ping-pong: ≥ 3× faster than Boost jump_fcontext",
                        "ping-pong ≥ 3× faster than Boost",
                        "%.2f vs %.2f ns: %.2f×" % (c, bo, bo / c), bo / c >= 3))
    if c and asm:
        t.append(Target("pat-asm", "ping-pong: within 1.5× of the inlined switch",
                        "within 1.5× of the inlined switch",
                        "%.2f vs %.2f ns: %.2f×" % (c, asm, c / asm), c / asm <= 1.5))
    for p in R.patterns():
        c = R.ns("pat-" + p, "pat_cacs", p)
        for peer, lab in (("pat_boost", "Boost jump_fcontext"), ("pat_fiber", "Boost.Fiber")):
            o = R.ns("pat-" + p, peer, p)
            if c and o:
                pr = R.paired(p, peer)
                t.append(Target("pat:%s:%s" % (p, peer), "%s: faster than %s" % (p, lab), None,
                                "%.2f vs %.2f ns" % (c, o) +
                                (" (paired %.3f×, %d of %d rounds)" % pr if pr else ""),
                                c < o))


def _mock(R, t):
    """The paper's mocked clients (bench/results/net/instr: instructions
    only, callgrind), APN against the full save."""
    mock, parts, met = R.net.get("mock", {}), [], True
    for key in sorted(mock):
        full = mock[key].get("net_mock_full", {}).get("instr_per_req")
        apn = mock[key].get("net_mock_apn", {}).get("instr_per_req")
        if not full or not apn:
            return
        parts.append("%s %.1f %%" % (key, 100 * (1 - apn / full)))
        met = met and 1 - apn / full >= 0.15
    if parts:
        t.append(Target("mock", "the paper's mocked HTTP and RPC clients: APN ≥ 15 % fewer "
                        "instructions than the full save, in each", "APN ≥ 15 % fewer instructions",
                        "fewer with APN: " + ", ".join(parts), met))


def _stackbound(R, t):
    """Issue 34: stacks the compiler sizes (bench/stackbound), in RSS and
    in time (process CPU time)."""
    pool = R.sb("pool", "exact")
    if pool:
        rss = pool["median"]["rss_per_coro"]
        t.append(Target("sb-rss", "the server shape, %s pool coroutines parked in a wait on "
                        "exact stacks: ≤ %d B of RSS each" % (fint(pool["n"]), SB_RSS_GOAL),
                        "≤ %d B per coroutine" % SB_RSS_GOAL,
                        "%s B (its stack %s B; on guarded 64 KiB stacks %s B)" % (
                            fint(rss), fint(pool["median"]["stack"]),
                            fint(R.sb_median("pool", "guarded", "rss_per_coro"))),
                        rss <= SB_RSS_GOAL))
    e, p = R.sb_median("ring", "exact", "run_ns"), R.sb_median("ring", "private64k", "run_ns")
    if e and p:
        t.append(Target("sb-ring", "a ring of %s coroutines on exact stacks: within %.1f× of "
                        "guarded 64 KiB private stacks' time per coroutine" % (
                            fint(R.sb("ring", "exact")["n"]), SB_RING_GOAL),
                        "ring within %.1f× of 64 KiB stacks" % SB_RING_GOAL,
                        "%.2f vs %.2f ns: %.2f× (shared stacks %s ns, libaco %s ns)" % (
                            e, p, e / p, f2(R.sb_median("ring", "shared", "run_ns")),
                            f2(R.sb_median("ring", "aco", "run_ns"))),
                        e / p <= SB_RING_GOAL))
    _stackbound_yring(R, t)
    fit, total = R.sb("fit", "exact"), R.sb_fit_rss()
    if fit and fit.get("mem_total"):
        t.append(Target("sb-fit", "%s server-shape pool coroutines parked at once on exact "
                        "stacks: they fit in the machine's memory" % fint(fit["n"]),
                        "%s fit in memory" % fint(fit["n"]),
                        "%s of RSS (%s B each) of %s" % (
                            gib(total), fint(fit["median"]["rss_per_coro"]),
                            gib(fit["mem_total"])),
                        total <= fit["mem_total"]))


def _stackbound_yring(R, t):
    """Issue 34's ring of switches: the ring of yields at its largest size
    on exact stacks within SB_RING_GOAL of guarded 64 KiB private stacks'
    time per round; the measured text gives each size."""
    sizes = [n for n in R.sb_sizes("yring")
             if R.sb("yring", "exact", n) and R.sb("yring", "private64k", n)]
    if not sizes:
        return
    def ratio(n):
        return (R.sb_median("yring", "exact", "round_ns", n) /
                R.sb_median("yring", "private64k", "round_ns", n))
    parts = ["%s: %s vs %s ns, %.2f× (shared %s, libaco %s)" % (
        fint(n), f2(R.sb_median("yring", "exact", "round_ns", n)),
        f2(R.sb_median("yring", "private64k", "round_ns", n)), ratio(n),
        f2(R.sb_median("yring", "shared", "round_ns", n)),
        f2(R.sb_median("yring", "aco", "round_ns", n))) for n in reversed(sizes)]
    t.append(Target("sb-yring", "a ring of yields of %s coroutines (the server shape, a yield "
                    "in its deepest call) on exact stacks: within %.1f× of guarded 64 KiB "
                    "private stacks' time per round" % (fint(sizes[-1]), SB_RING_GOAL),
                    "ring of yields within %.1f× of 64 KiB stacks" % SB_RING_GOAL,
                    "; ".join(parts), ratio(sizes[-1]) <= SB_RING_GOAL))


def targets(R):
    """Every goal the run has data for, in the order of the sections."""
    t = []
    for part in (_sumseq, _hanoi, _write_fully, _yield, _apn_client, _patterns, _mock,
                 _stackbound):
        part(R, t)
    return t
