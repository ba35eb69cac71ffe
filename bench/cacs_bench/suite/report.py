"""scripts/bench's reports, written from the stored results of one run:
results.json and results.csv (write_data), bench/results/README.md (every
table, the targets, the plots) and the top-level README's benchmark table
(readme_table.py). One generator, one set of verdicts (targets.py): both
files quote the same judgement of each goal.

  bench/tools/report.py --write   rewrite bench/results/README.md, its plots
                                  and the README's table from the results
  bench/tools/report.py --check   exit 1, showing the difference, when either
                                  file disagrees with the results
  --results DIR                   default: bench/results
  --readme FILE                   default: README.md at the top of the tree
                                  ('' for none: a partial or LLVM 22 run)
  --no-plots                      --write without drawing
"""

import argparse
import difflib
import json
import os
import sys

from ..common import ROOT, fmt
from .readme_table import BEGIN, END, readme_table, split
from .results import CSNONE, Results, fint, gib, name
from .specs import PAT_NEWER, PAT_ROUNDS_X, PAT_RUNTIMES, SB_CALL_CG_N
from .targets import targets, verdict

RESULTS = os.path.join(ROOT, "bench", "results")


def write_data(outdir, recs, hanoi, mem, cc, sb, info, argv, quick):
    """results.json and results.csv: everything the reports are made of."""
    os.makedirs(outdir, exist_ok=True)
    data = {"machine": info, "command": argv, "quick": quick,
            "results": recs, "hanoi": hanoi, "memory": mem, "compile_cost": cc,
            "stackbound": sb}
    # Machine paths stay out of the recorded results: paths inside the tree
    # are written relative to it.
    with open(os.path.join(outdir, "results.json"), "w") as f:
        f.write(json.dumps(data, indent=1).replace(ROOT + os.sep, "") + "\n")
    with open(os.path.join(outdir, "results.csv"), "w") as f:
        f.write("workload,variant,binary,arg,n,ops,ns_per_op_median,ns_per_op_min,"
                "ns_per_op_max,instr_per_op,status\n")
        for r in recs + hanoi:
            f.write("%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n" % (
                r["workload"], r.get("variant", ""), r["binary"], r.get("arg") or "",
                r["n"], r.get("ops", ""), fmt(r.get("ns_per_op_median"), 3),
                fmt(r.get("ns_per_op_min"), 3), fmt(r.get("ns_per_op_max"), 3),
                fmt(r.get("instr_per_op"), 2), r["status"]))


def heading(L, title, columns, level=2):
    """A section's (or, level 3, a subsection's) title and its table's header."""
    L.append("\n%s %s\n" % ("#" * level, title))
    L.append("| %s |" % " | ".join(columns))
    L.append("|---" * len(columns) + "|")


def workload_table(R, L, w, title):
    rs = [r for r in R.recs if r["workload"] == w]
    if not rs:
        return
    heading(L, title, ["variant", "binary", "n", "ns/op median [min..max]", "instr/op", "cg n"])
    empty = R.rec("yield", "yield_libcacs", "empty")
    absent = []
    for r in rs:
        if r["status"] == "missing":
            absent.append(r["binary"] + (" -v " + r["arg"] if r.get("arg") else ""))
            continue
        if r["status"] != "ok":
            L.append("| %s | %s | %s | **%s** | | |" % (name(r), r["binary"], r["n"], r["status"]))
            continue
        ipo = r.get("instr_per_op")
        extra = ""
        if (w == "yield" and empty and ipo is not None and empty.get("instr_per_op") is not None
                and r is not empty):
            extra = " (%.1f net)" % (ipo - empty["instr_per_op"])
        L.append("| %s | %s | %s | %s [%s..%s] | %s%s | %s |" % (
            name(r), r["binary"], r["n"], fmt(r["ns_per_op_median"]), fmt(r["ns_per_op_min"]),
            fmt(r["ns_per_op_max"]), fmt(ipo, 1), extra, r.get("callgrind_n", "-")))
    csn = [a for a in absent if "csnone" in a]
    other = [a for a in absent if "csnone" not in a]
    if csn:
        L.append("\nNot run: %s (%s)." % (", ".join("`%s`" % a for a in csn), CSNONE))
    if other:
        L.append("\nNot run (not built): %s." % ", ".join("`%s`" % a for a in other))


def hanoi_section(R, L):
    hanoi = R.hanoi_recs
    if not hanoi:
        return
    L.append("\n## 2. Hanoi (time per move normalized to plain recursion + callback)\n")
    keys = []
    for r in hanoi:
        k = (r["binary"], r.get("arg"))
        if k not in keys:
            keys.append(k)
    by = {(r["binary"], r.get("arg"), r["n"]): r for r in hanoi}
    label = {k: name(next(r for r in hanoi if (r["binary"], r.get("arg")) == k)) for k in keys}
    L.append("| n | " + " | ".join(label[k] for k in keys) + " |")
    L.append("|---" * (len(keys) + 1) + "|")
    for n in sorted({r["n"] for r in hanoi}):
        base = by.get(("hanoi_instack", "plain-callback", n))
        cells = []
        for k in keys:
            r = by.get(k + (n,))
            if not r or r["status"] != "ok":
                cells.append(r["status"] if r else "-")
            elif base and base["status"] == "ok":
                cells.append("%.2f× (%.2f ns)" % (r["ns_per_op_median"] / base["ns_per_op_median"],
                                                  r["ns_per_op_median"]))
            else:
                cells.append("%.2f ns" % r["ns_per_op_median"])
        L.append("| %d | %s |" % (n, " | ".join(cells)))
    hc = [r for r in hanoi if r.get("instr_per_op") is not None]
    if hc:
        L.append("\nInstructions per move at n=%d (callgrind): " % hc[0]["n"] + ", ".join(
            "%s %.1f" % (name(r), r["instr_per_op"]) for r in hc))


def patterns_section(R, L):
    pats = R.patterns()
    if not pats:
        return
    L.append("\n## 8. The switch in the call patterns of real programs "
             "(bench/patterns; ops = switches)\n")
    L.append("ns/switch: median of the interleaved runs, **CPU time of the thread** "
             "(`CLOCK_THREAD_CPUTIME_ID`: on the shared machine the time the scheduler "
             "gives other processes is left out); instructions/switch (callgrind) in "
             "brackets. Every side of a pattern is a separately compiled file built by "
             "`build/bin/clang -O2 -fauto-preserve-none` and yields from its own call "
             "sites.\n")
    cols = [(b, lab) for b, lab in PAT_RUNTIMES
            if b not in PAT_NEWER or any(R.rec("pat-" + p, b, p) for p in pats)]
    L.append("| pattern | " + " | ".join(lab for _, lab in cols) +
             " | libcacs vs Boost jump_fcontext | libcacs vs Boost.Fiber | "
             "libcacs / inlined switch |")
    L.append("|---" * (len(cols) + 4) + "|")
    for p in pats:
        cells, ns = [], {}
        for b, _ in cols:
            r = R.rec("pat-" + p, b, p)
            if not r:
                cells.append("-")
                continue
            ns[b] = r["ns_per_op_median"]
            cells.append("%s (%s)" % (fmt(r["ns_per_op_median"]), fmt(r.get("instr_per_op"), 1)))
        c = ns.get("pat_cacs")

        def ratio(b, inv=False):
            if not c or b not in ns:
                return "-"
            if inv:
                return "%.2f×" % (c / ns[b])
            text = "%.2f× faster" % (ns[b] / c)
            pr = R.paired(p, b)
            if pr:
                text += " (paired %.3f×; libcacs faster in %d of %d rounds)" % pr
            return text
        L.append("| %s | %s | %s | %s | %s |" % (p, " | ".join(cells), ratio("pat_boost"),
                                                  ratio("pat_fiber"), ratio("pat_asm", inv=True)))
    L.append("\n\"paired\": the median over the rounds of the peer's time divided by "
             "libcacs's in the same round (the runs of one round are back to back, so "
             "a load change hits both), and in how many rounds libcacs's was the "
             "smaller; %s run %s the rounds of the others, a third of the switches each." % (
                 " and ".join(w[4:] for w in sorted(PAT_ROUNDS_X)),
                 "/".join("%dx" % x for x in sorted(set(PAT_ROUNDS_X.values())))))


def other_sections(R, L):
    """6. compile cost, 7. memory."""
    cc = R.d.get("compile_cost", [])
    if cc:
        heading(L, "6. Compiler cost (opt -passes='default<O2>,auto-preserve-none' -time-passes)",
                ["input", "functions", "O2+APN pass time (s)", "APN pass (s)", "APN share"])
        for r in cc:
            if r.get("status") != "ok":
                L.append("| %s | %s | FAILED | | |" % (r.get("input"), r.get("functions")))
                continue
            share = 100.0 * r["apn_pass_s"] / r["total_pass_s"] if r["total_pass_s"] else 0
            L.append("| %s | %s | %.3f | %.4f | %.2f%% |" % (
                r["input"], r["functions"], r["total_pass_s"] or 0, r["apn_pass_s"], share))
    mem = R.d.get("memory", [])
    if mem:
        heading(L, "7. Resident memory per idle coroutine (VmRSS growth / n; control block + stack)",
                ["binary", "coroutines", "stack bytes", "bytes per idle coroutine", "status"])
        for r in mem:
            if r["status"] == "ok":
                L.append("| %s | %d | %s | %.0f | ok |" % (r["binary"], r["n"], r["arg"],
                                                          r["ns_runs"][0] / 1000.0))
            else:
                L.append("| %s | %d | %s | - | %s |" % (r["binary"], r["n"], r["arg"], r["status"]))


SB_MODES = {"exact": "exact (the compiler's size)", "private64k": "guarded 64 KiB, private",
            "shared": "shared (libcacs)", "aco": "libaco, one share (copy) stack",
            "guarded": "guarded 64 KiB"}


def stackbound_yring(recs, L, row):
    """Section 10's ring of yields (exact_ring, exact_aco_ring), if it ran."""
    yring = [r for r in recs if r["part"] == "yring"]
    if not yring:
        return
    heading(L, "The ring of yields: each coroutine runs the shape round after round, yielding "
            "in its deepest call; a round of N is one turn of each (libcacs: one switch, and "
            "main's turn 1/N; libaco: a resume and a yield, and the copy of the frames)",
            ["stacks", "coroutines", "exact", "stack B", "RSS per coroutine parked B",
             "rounds", "create ns", "first round ns", "round ns", "last round and exit ns",
             "runs"], level=3)
    L.extend(row(r, ["create_ns", "first_ns", "round_ns", "last_ns"]) for r in yring)


def stackbound_section(R, L):
    """10. Stacks the compiler sizes: the stackbound workload's records."""
    recs = R.d.get("stackbound", [])
    if not recs:
        return
    L.append("\n## 10. Stacks the compiler sizes (bench/stackbound, issue 34)\n")
    L.append("`bench/stackbound/exact.c` and `pool.c`, built by `bench/stackbound/run.sh build` "
             "(`build/bin/clang -O2 -fcacs-stack-bounds`), each run a process pinned with "
             "`taskset`, `CACS_IO_ENGINE=epoll`, the ring's and the pool's modes interleaved "
             "round by round; libaco's ring (`exact_aco.c`) only when `LIBACO_DIR` names its "
             "source. Times: the process's CPU time per coroutine (the pool's 2 workers share "
             "the CPU), medians [min..max] of the rounds; RSS: the growth per coroutine once all "
             "are created (the ring) or parked in their wait (the pool).")

    def row(r, cells):
        if r["status"] != "ok":
            return "| %s | %s | **%s** %s |" % (SB_MODES.get(r["mode"], r["mode"]), fint(r["n"]),
                                                r["status"], r.get("stderr", "")[:120])
        m, lo, hi = r["median"], r["min"], r["max"]
        return "| %s | %s | %s | %s | %s | %s | %d |" % (
            SB_MODES.get(r["mode"], r["mode"]), fint(r["n"]), "yes" if m["exact"] else "no",
            fint(m["stack"]) if m["exact"] else "-",
            fint(m["rss_per_coro"]) + (" | " + fint(r["rounds"]) if "rounds" in r else ""),
            " | ".join("%s [%s..%s]" % (fmt(m[k]), fmt(lo[k]), fmt(hi[k])) for k in cells),
            len(r["runs"]))
    ring = [r for r in recs if r["part"] == "ring"]
    heading(L, "The ring: each coroutine created, run once (the switch in, the shape's three "
            "calls, its exit), joined", ["stacks", "coroutines", "exact", "stack B",
                                          "RSS per coroutine B", "create ns", "run ns",
                                          "join ns", "runs"], level=3)
    L.extend(row(r, ["create_ns", "run_ns", "join_ns"]) for r in ring)
    stackbound_yring(recs, L, row)
    pool = [r for r in recs if r["part"] in ("pool", "fit")]
    heading(L, "The server shape's pool coroutines, all parked in a wait at once",
            ["stacks", "coroutines", "exact", "stack B", "RSS per coroutine B",
             "spawn + park ns", "release + join ns", "spawn + join ns", "runs"], level=3)
    L.extend(row(r, ["spawn_park_ns", "release_join_ns", "spawn_join_ns"]) for r in pool)
    fit = R.sb("fit", "exact")
    if fit and fit.get("mem_total"):
        L.append("\n%s parked at once: %s of RSS, of the machine's %s (MemTotal)." % (
            fint(fit["n"]), gib(R.sb_fit_rss()), gib(fit["mem_total"])))
    L.append("\nCommands: %s." % "; ".join("`%s`" % r["command"] for r in recs
                                          if r.get("command")))


CALL_WAYS = {"plain": "plain call", "sys": "on the system stack (`CACS_ON_SYSTEM_STACK`)",
             "split": "`-fsplit-stack` (libseff's way)"}


def call_section(R, L):
    """Section 10's part "call": the cost of a call from a coroutine."""
    recs = [r for r in R.d.get("stackbound", []) if r["part"] == "call"]
    if not recs:
        return
    heading(L, "The cost of a call from a coroutine (`call.c`)",
            ["callee", "way", "calls", "exact stack", "ns per call", "instructions per call",
             "runs"], level=3)
    for r in recs:
        way, callee = r["mode"].split("-", 1)
        if r["status"] != "ok":
            L.append("| %s | %s | %s | **%s** %s | | | |" % (
                callee, CALL_WAYS.get(way, way), fint(r["n"]), r["status"],
                r.get("stderr", "")[:160]))
            continue
        m, lo, hi = r["median"], r["min"], r["max"]
        L.append("| %s | %s | %s | %s | %s [%s..%s] | %s | %d |" % (
            callee, CALL_WAYS.get(way, way), fint(r["n"]), "yes" if m["exact"] else "no",
            fmt(m["call_ns"]), fmt(lo["call_ns"]), fmt(hi["call_ns"]),
            fmt(r.get("instr_per_call"), 1), len(r["runs"])))
    L.append("\n`bench/stackbound/call.c`, built by `run.sh build` (`-O2 -fcacs-stack-bounds`; "
             "`call_split` also `-fsplit-stack`, linked with gold, where the compiler and libgcc "
             "have split stacks): one coroutine calls a non-inlined function with a frame N "
             "times: `small` (a few instructions), `snprintf` (formats a number with it), "
             "`qsort` (sorts six numbers with it, which calls back a comparison). Time: the "
             "process's CPU time per call (the coroutine's creation and join amortized), median "
             "[min..max] of the rounds, pinned, the modes interleaved. Instructions: callgrind, "
             "(the total at 2 rounds of %s calls minus 1 round) / calls; on the system stack they "
             "include the memcheck request libcacs makes there under valgrind, about 20, which a "
             "native run skips. Exact stack: whether the entry got a bound (a C library call "
             "on the coroutine's stack leaves it without one)." % fint(SB_CALL_CG_N))


def results_readme(R, plots):
    """bench/results/README.md (or the README.md of another results dir)."""
    d, info = R.d, R.d.get("machine", {})
    L = ["# cacs benchmark results%s\n" % (
        " (quick smoke run: sizes are tiny, numbers meaningless)" if R.quick else "")]
    main = os.path.abspath(R.dir) == RESULTS
    L.append("Generated by `bench/tools/report.py` from the results of `%s` on %s (`results.json`, "
             "`results.csv`)%s.\n" % (" ".join(d.get("command", [])), info.get("date", "?"),
                                      "; the top-level README's benchmark table comes from the same "
                                      "data and quotes the same verdicts" if main else ""))
    if info.get("partial"):
        L.append("Partial re-run: %s.\n" % info["partial"])
    L.append("Time: the CPU time of the benchmark's thread (`CLOCK_THREAD_CPUTIME_ID`: time the "
             "scheduler gives other processes is left out, cache and branch misses stay in), the %s, "
             "each run a process pinned with `taskset -c 1`, the variants of a workload interleaved "
             "round-robin (min..max in brackets); the machine is a shared 2-core VM, so treat times "
             "as indicative. Instructions/op: callgrind, (Ir(-r 2) - Ir(-r 1)) / ops, at the size in "
             "column `cg n`. Goals stated in instructions are judged in instructions, the others in "
             "time (Targets, at the end).\n" % R.runs_text())
    workload_table(R, L, "sumseq", "1. Sum of sequence (ops = values)")
    hanoi_section(R, L)
    workload_table(R, L, "write_fully", "3. write_fully, 10 tasks x 100 MB, 800-byte send_some "
                   "(ops = wait_for_ready+send_some)")
    workload_table(R, L, "yield", "4. yield among 10 coroutines (ops = yields; instr/op includes the "
                   "loop and the call, net = minus the empty loop); the cacs_switch rows: ping-pong "
                   "between two contexts through cacs/switch.h, no scheduler (ops = switches)")
    workload_table(R, L, "apn_client", "5. APN on a multi-level client (ops = response messages)")
    other_sections(R, L)
    patterns_section(R, L)
    abl = [r for r in R.recs if r["workload"] == "ablation"]
    if abl:
        heading(L, "9. The paper's Figure 15 ablation: yield among 10 coroutines "
                "(bench/libcacs/ablation.c; ops = yields, time = thread CPU time)",
                ["step", "ns/yield median [min..max]", "instr/yield"])
        for r in abl:
            if r["status"] != "ok":
                L.append("| %s | **%s** | |" % (r.get("arg"), r["status"]))
                continue
            L.append("| %s | %s [%s..%s] | %s |" % (
                r["arg"], fmt(r["ns_per_op_median"]), fmt(r["ns_per_op_min"]),
                fmt(r["ns_per_op_max"]), fmt(r.get("instr_per_op"), 1)))
    stackbound_section(R, L)
    call_section(R, L)
    if not R.quick:
        heading(L, "Targets", ["target", "measured", "verdict"])
        for t in targets(R):
            L.append("| %s | %s | %s |" % (t.goal, t.measured, verdict(t) if t.met else "**missed**"))
    if plots:
        L.append("\n## Plots\n")
        for p in plots:
            L.append("![%s](%s)" % (p, p))
    L.append("\n## Machine\n")
    L.append("```\n%s\n```" % info.get("lscpu", "").strip())
    L.append("\n```\n%s\nkernel: %s\nload average at start: %s\nload average at end: %s (highest "
             "1-minute figure when a timed run started: %s)\ngit HEAD: %s\nuncommitted in "
             "runtime/llvm/clang/bench:\n%s\n```\n" % (
                 "\n".join(info.get("compilers", [])), info.get("kernel", "?"),
                 info.get("loadavg", "?"), info.get("loadavg_end", "?"),
                 info.get("loadavg_max", "?"), info.get("git", "?"),
                 info.get("git_dirty", "") or "(none)"))
    return "\n".join(L) + "\n"


def listed_plots(R):
    """The plots the report shows: those drawn (a quick run, a run without
    matplotlib, or --no-plots has none)."""
    from .plots import plot_names
    if R.quick:
        return []
    return [p for p in plot_names(R) if os.path.exists(os.path.join(R.dir, p))]


def write_all(rdir, readme=None, draw=True):
    """Write rdir/README.md (and its plots) and, if given, readme's table;
    returns the plots drawn."""
    from .plots import draw_plots
    R = Results(rdir)
    made = draw_plots(R, rdir) if draw and not R.quick else []
    with open(os.path.join(rdir, "README.md"), "w") as f:
        f.write(results_readme(R, listed_plots(R)))
    if readme:
        with open(readme) as f:
            parts = split(f.read())
        if parts is None:
            raise SystemExit("%s: no benchmark table (the lines %r ... %r)" % (readme, BEGIN, END))
        with open(readme, "w") as f:
            f.write(parts[0] + readme_table(R) + parts[2])
    return made


def check(rdir, readme):
    """The files that disagree with the results, with the differences."""
    R = Results(rdir)
    out = []
    fresh = results_readme(R, listed_plots(R))
    with open(os.path.join(rdir, "README.md")) as f:
        have = f.read()
    if have != fresh:
        out.append("%s disagrees with %s; regenerate it with bench/tools/report.py --write\n" % (
            os.path.join(rdir, "README.md"), os.path.join(rdir, "results.json")))
        out += difflib.unified_diff(have.splitlines(True), fresh.splitlines(True),
                                    "results README", "from results")
    if not readme:
        return out
    with open(readme) as f:
        parts = split(f.read())
    if parts is None:
        out.append("%s: no benchmark table (the lines %r ... %r)\n" % (readme, BEGIN, END))
        return out
    table = readme_table(R)
    if parts[1] != table:
        out.append("%s: the benchmark table disagrees with %s; regenerate it with "
                   "bench/tools/report.py --write\n" % (readme, rdir))
        out += difflib.unified_diff([l + "\n" for l in parts[1].splitlines()],
                                    [l + "\n" for l in table.splitlines()],
                                    "README table", "from results")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--write", action="store_true")
    g.add_argument("--check", action="store_true")
    ap.add_argument("--results", default=RESULTS)
    ap.add_argument("--readme", default=os.path.join(ROOT, "README.md"))
    ap.add_argument("--no-plots", action="store_true")
    a = ap.parse_args()
    if a.write:
        write_all(a.results, a.readme, draw=not a.no_plots)
        return 0
    problems = check(a.results, a.readme)
    sys.stdout.writelines(problems)
    return 1 if problems else 0
