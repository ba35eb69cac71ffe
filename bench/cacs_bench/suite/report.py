"""scripts/bench's report: bench/results/README.md, results.json and
results.csv, the targets of issues 6 and 22, the pattern matrix."""

import json
import os
import statistics

from ..common import ROOT, fmt
from .specs import HANOI_BASE, HANOI_CG_N, PAT_ROUNDS_X, PAT_RUNTIMES, PATTERNS


def find(recs, workload, binary, arg=None):
    for r in recs:
        if (r["workload"] == workload and r["binary"] == binary
                and r.get("arg") == arg and r.get("status") == "ok"):
            return r
    return None


def targets(recs, hanoi):
    """Where each target of issue 6 (and issue 22) stands."""
    t = pat_targets(recs)

    def ipo(w, b, a=None):
        r = find(recs, w, b, a)
        return r.get("instr_per_op") if r else None

    def ns(w, b, a=None):
        r = find(recs, w, b, a)
        return r.get("ns_per_op_median") if r else None

    def nsmin(w, b, a=None):
        r = find(recs, w, b, a)
        return r.get("ns_per_op_min") if r else None

    empty_i = ipo("yield", "yield_libcacs", "empty")
    boost = ipo("yield", "yield_boost")
    boost_ns = ns("yield", "yield_boost")
    for b in ("yield_libcacs", "yield_libcacs_apn"):
        v = ipo("yield", b)
        if v is None or empty_i is None:
            continue
        t.append(("cacs_yield <= 15 instructions per switch, loop and call included (%s)" % b,
                  "%.1f (net of the empty loop: %.1f)" % (v, v - empty_i), round(v, 1) <= 15))
        vns = ns("yield", b)
        if boost_ns and vns:
            t.append((">= 3x faster than Boost jump_fcontext (%s)" % b,
                      "%.2f vs %.2f ns/yield: %.2fx; instructions %s vs %.1f" % (
                          vns, boost_ns, boost_ns / vns, fmt(boost, 1), v),
                      boost_ns / vns >= 3))
    c20i = ipo("sumseq", "sumseq_cpp20", "cpp20-for")
    c20 = ns("sumseq", "sumseq_cpp20", "cpp20-for")
    for b in ("sumseq_instack", "sumseq_instack_cpp", "sumseq_libcacs", "sumseq_libcacs_cpp"):
        v, vi = ns("sumseq", b), ipo("sumseq", b)
        if vi and c20i:
            t.append(("sum of sequence <= C++20's instructions per value (%s)" % b,
                      "%.1f vs %.1f instr (time %s)" % (
                          vi, c20i, "%.2fx" % (v / c20) if v and c20 else "-"),
                      round(vi, 1) <= round(c20i, 1)))
    h = {(r["binary"], r.get("arg")): r for r in hanoi if r.get("n") == 20 and r.get("status") == "ok"}
    plain = h.get(HANOI_BASE)
    hb = h.get(("hanoi_boost", None))
    for key in (("hanoi_instack", None), ("hanoi_libcacs", None)):
        r = h.get(key)
        if r and plain:
            ratio = r["ns_per_op_median"] / plain["ns_per_op_median"]
            ri, pi = r.get("instr_per_op"), plain.get("instr_per_op")
            t.append(("Hanoi(20) within 1.2x of plain recursion (%s)" % key[0],
                      "time %.2fx (min-based %.2fx), instr %s" % (
                          ratio, r["ns_per_op_min"] / plain["ns_per_op_min"],
                          "%.2fx" % (ri / pi) if ri and pi else "-"),
                      ratio <= 1.2))
            if hb:
                sp = hb["ns_per_op_median"] / r["ns_per_op_median"]
                bi = hb.get("instr_per_op")
                t.append(("Hanoi(20) >= 2x faster than Boost (%s)" % key[0],
                          "time %.2fx (min-based %.2fx), instr %s" % (
                              sp, hb["ns_per_op_min"] / r["ns_per_op_min"],
                              "%.2fx" % (bi / ri) if ri and bi else "-"),
                          sp >= 2))
    wb, wc = ns("write_fully", "write_fully_boost"), ns("write_fully", "write_fully_cpp20")
    for b in ("write_fully_libcacs_apn", "write_fully_libcacs"):
        v = ns("write_fully", b)
        if v and wb and wc:
            t.append(("write_fully faster than Boost and C++20 (%s)" % b,
                      "%.2f ns/op vs Boost %.2f, C++20 %.2f (min %.2f / %.2f / %.2f); instr %s vs %s / %s" % (
                          v, wb, wc, nsmin("write_fully", b), nsmin("write_fully", "write_fully_boost"),
                          nsmin("write_fully", "write_fully_cpp20"), fmt(ipo("write_fully", b), 1),
                          fmt(ipo("write_fully", "write_fully_boost"), 1),
                          fmt(ipo("write_fully", "write_fully_cpp20"), 1)),
                      v < wb and v < wc))
    a, b = ns("apn_client", "apn_client_libcacs"), ns("apn_client", "apn_client_libcacs_apn")
    ai, bi = ipo("apn_client", "apn_client_libcacs"), ipo("apn_client", "apn_client_libcacs_apn")
    if a and b:
        gain = a / b - 1
        gmin = nsmin("apn_client", "apn_client_libcacs") / nsmin("apn_client", "apn_client_libcacs_apn") - 1
        t.append(("APN client >= 15% faster with -fauto-preserve-none (libcacs)",
                  "time %+.1f%% (min-based %+.1f%%), instr %s" % (
                      100 * gain, 100 * gmin, "%+.1f%%" % (100 * (ai / bi - 1)) if ai and bi else "-"),
                  gain >= 0.15))
    return t


def write_report(outdir, recs, hanoi, mem, cc, info, argv, quick, plots):
    os.makedirs(outdir, exist_ok=True)
    data = {"machine": info, "command": argv, "quick": quick,
            "results": recs, "hanoi": hanoi, "memory": mem, "compile_cost": cc}
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
    L = []
    L.append("# cacs benchmark results%s\n" % (" (quick smoke run: sizes are tiny, numbers meaningless)" if quick else ""))
    L.append("Generated by `%s` on %s. Raw data: `results.json`, `results.csv`.\n" % (" ".join(argv), info["date"]))
    if info.get("partial"):
        L.append("Partial re-run: %s.\n" % info["partial"])
    reps_used = max([len(r.get("ns_runs", [])) for r in recs] + [0])
    L.append("Time: the CPU time of the benchmark's thread (`CLOCK_THREAD_CPUTIME_ID`: time the "
             "scheduler gives other processes is left out, cache and branch misses stay in), median "
             "of %d runs (processes) pinned with `taskset -c 1`, the variants of "
             "a workload interleaved round-robin (min..max in brackets); the machine is a shared "
             "2-core VM, so treat times as indicative. Instructions/op: callgrind, "
             "(Ir(-r 2) - Ir(-r 1)) / ops, at the size in column `cg n`.\n" % reps_used)
    order = ["sumseq", "yield", "write_fully", "apn_client"]
    titles = {"sumseq": "1. Sum of sequence (ops = values)",
              "yield": "4. yield among 10 coroutines (ops = yields; instr/op includes the loop and the call, net = minus the empty loop); libcacs-switch rows: ping-pong between two contexts through cacs/switch.h, no scheduler (ops = switches)",
              "write_fully": "3. write_fully, 10 tasks x 100 MB, 800-byte send_some (ops = wait_for_ready+send_some)",
              "apn_client": "5. APN on a multi-level client (ops = response messages)"}
    for w in order:
        L.append("\n## %s\n" % titles[w])
        L.append("| variant | binary | n | ns/op median [min..max] | instr/op | cg n |")
        L.append("|---|---|---|---|---|---|")
        empty = find(recs, "yield", "yield_libcacs", "empty")
        for r in recs:
            if r["workload"] != w:
                continue
            if r["status"] != "ok":
                L.append("| %s | %s | %s | **%s** | | |" % (r.get("arg") or "", r["binary"], r["n"], r["status"]))
                continue
            ipo = r.get("instr_per_op")
            extra = ""
            if w == "yield" and empty and ipo is not None and empty.get("instr_per_op") is not None and r is not empty:
                extra = " (%.1f net)" % (ipo - empty["instr_per_op"])
            L.append("| %s | %s | %s | %s [%s..%s] | %s%s | %s |" % (
                r["variant"], r["binary"], r["n"], fmt(r["ns_per_op_median"]),
                fmt(r["ns_per_op_min"]), fmt(r["ns_per_op_max"]), fmt(ipo, 1), extra,
                r.get("callgrind_n", "-")))
    pat_report(L, recs)
    abl = [r for r in recs if r["workload"] == "ablation"]
    if abl:
        L.append("\n## 9. The paper's Figure 15 ablation: yield among 10 coroutines "
                 "(bench/libcacs/ablation.c; ops = yields, time = thread CPU time)\n")
        L.append("| step | ns/yield median [min..max] | instr/yield |")
        L.append("|---|---|---|")
        for r in abl:
            if r["status"] != "ok":
                L.append("| %s | **%s** | |" % (r.get("arg"), r["status"]))
                continue
            L.append("| %s | %s [%s..%s] | %s |" % (
                r["arg"], fmt(r["ns_per_op_median"]), fmt(r["ns_per_op_min"]),
                fmt(r["ns_per_op_max"]), fmt(r.get("instr_per_op"), 1)))
    L.append("\n## 2. Hanoi (time per move normalized to plain recursion + callback)\n")
    ns_list = sorted({r["n"] for r in hanoi})
    names = []
    for r in hanoi:
        key = (r["binary"], r.get("arg"))
        if key not in names:
            names.append(key)
    by = {(r["binary"], r.get("arg"), r["n"]): r for r in hanoi}
    def label(b, a):
        for r in hanoi:
            if r["binary"] == b and r.get("arg") == a and r.get("variant"):
                return r["variant"]
        return a or b
    L.append("| n | " + " | ".join(label(b, a) for b, a in names) + " |")
    L.append("|---" * (len(names) + 1) + "|")
    for n in ns_list:
        base = by.get(HANOI_BASE + (n,))
        cells = []
        for b, a in names:
            r = by.get((b, a, n))
            if not r or r["status"] != "ok":
                cells.append(r["status"] if r else "-")
            elif base and base["status"] == "ok":
                cells.append("%.2fx (%.2f ns)" % (r["ns_per_op_median"] / base["ns_per_op_median"], r["ns_per_op_median"]))
            else:
                cells.append("%.2f ns" % r["ns_per_op_median"])
        L.append("| %d | %s |" % (n, " | ".join(cells)))
    hc = [r for r in hanoi if r.get("instr_per_op") is not None]
    if hc:
        L.append("\nInstructions per move at n=%d (callgrind): " % HANOI_CG_N + ", ".join(
            "%s %.1f" % (r.get("variant"), r["instr_per_op"]) for r in hc) + "\n")
    L.append("\n## 6. Compiler cost (opt -passes='default<O2>,auto-preserve-none' -time-passes)\n")
    L.append("| input | functions | O2+APN pass time (s) | APN pass (s) | APN share |")
    L.append("|---|---|---|---|---|")
    for r in cc:
        if r.get("status") != "ok":
            L.append("| %s | %s | FAILED | | |" % (r.get("input"), r.get("functions")))
            continue
        share = 100.0 * r["apn_pass_s"] / r["total_pass_s"] if r["total_pass_s"] else 0
        L.append("| %s | %s | %.3f | %.4f | %.2f%% |" % (r["input"], r["functions"], r["total_pass_s"] or 0, r["apn_pass_s"], share))
    L.append("\n## 7. Resident memory per idle coroutine (VmRSS growth / n; control block + stack)\n")
    L.append("| binary | coroutines | stack bytes | bytes per idle coroutine | status |")
    L.append("|---|---|---|---|---|")
    for r in mem:
        if r["status"] == "ok":
            L.append("| %s | %d | %s | %.0f | ok |" % (r["binary"], r["n"], r["arg"], r["ns_runs"][0] / 1000.0))
        else:
            L.append("| %s | %d | %s | - | %s |" % (r["binary"], r["n"], r["arg"], r["status"]))
    if not quick:
        L.append("\n## Targets\n")
        L.append("| target | measured | met |")
        L.append("|---|---|---|")
        for name, val, ok in targets(recs, hanoi):
            L.append("| %s | %s | %s |" % (name, val, "yes" if ok else "**no**"))
    if plots:
        L.append("\n## Plots\n")
        for p in plots:
            L.append("![%s](%s)" % (p, p))
    L.append("\n## Machine\n")
    L.append("```\n%s\n```" % info["lscpu"].strip())
    L.append("\n```\n%s\nkernel: %s\nload average at start: %s\nload average at end: %s (highest 1-minute figure when a timed run started: %s)\ngit HEAD: %s\nuncommitted in runtime/llvm/clang/bench:\n%s\n```\n" % (
        "\n".join(info["compilers"]), info["kernel"], info["loadavg"], info.get("loadavg_end", "?"),
        info.get("loadavg_max", "?"), info.get("git", "?"),
        info.get("git_dirty", "") or "(none)"))
    with open(os.path.join(outdir, "README.md"), "w") as f:
        f.write(("\n".join(L) + "\n").replace(ROOT + os.sep, ""))


def pat_report(L, recs):
    """The pattern matrix (issue 22): ns/switch and instructions/switch of
    every runtime in every pattern, and libcacs's ratios to the peers."""
    if not any(r["workload"].startswith("pat-") for r in recs):
        return
    L.append("\n## 8. The switch in the call patterns of real programs "
             "(bench/patterns; ops = switches)\n")
    L.append("ns/switch: median of the interleaved runs, **CPU time of the thread** "
             "(`CLOCK_THREAD_CPUTIME_ID`: on the shared machine the time the scheduler "
             "gives other processes is left out); instructions/switch (callgrind) in "
             "brackets. Every side of a pattern is a separately compiled file built by "
             "`build/bin/clang -O2 -fauto-preserve-none` and yields from its own call "
             "sites.\n")
    L.append("| pattern | " + " | ".join(lab for _, lab in PAT_RUNTIMES) +
             " | libcacs vs Boost jump_fcontext | libcacs vs Boost.Fiber | "
             "libcacs / inline asm |")
    L.append("|---" * (len(PAT_RUNTIMES) + 4) + "|")
    for p in PATTERNS:
        w = "pat-" + p
        cells, ns = [], {}
        for b, _ in PAT_RUNTIMES:
            r = next((x for x in recs if x["workload"] == w and x["binary"] == b), None)
            if not r or r["status"] != "ok":
                cells.append(r["status"] if r else "-")
                continue
            ns[b] = r["ns_per_op_median"]
            cells.append("%s (%s)" % (fmt(r["ns_per_op_median"]), fmt(r.get("instr_per_op"), 1)))
        c = ns.get("pat_cacs")

        def ratio(b, inv=False):
            if not c or b not in ns:
                return "-"
            if inv:
                return "%.2fx" % (c / ns[b])
            text = "%.2fx faster" % (ns[b] / c)
            pr = pat_paired(recs, p, b)
            if pr:
                text += " (paired %.3fx; libcacs faster in %d of %d rounds)" % pr
            return text
        L.append("| %s | %s | %s | %s | %s |" % (
            p, " | ".join(cells), ratio("pat_boost"), ratio("pat_fiber"),
            ratio("pat_asm", inv=True)))
    L.append("\n\"paired\": the median over the rounds of the peer's time divided by "
             "libcacs's in the same round (the runs of one round are back to back, so "
             "a load change hits both), and in how many rounds libcacs's was the "
             "smaller; %s run %s rounds of a third of the switches each.\n" % (
                 " and ".join(w[4:] for w in PAT_ROUNDS_X),
                 "/".join(str(x) for x in sorted(set(PAT_ROUNDS_X.values())))
                 + "x the others'"))


def pat_paired(recs, p, peer):
    """(median of the per-round ratios peer / libcacs, rounds libcacs won,
    rounds) in pattern p, or None. Round k's runs of the interleaved
    binaries are ns_runs[k] of each record (points(): one repetition per
    process), so they pair by index."""
    w = "pat-" + p
    c = next((x for x in recs if x["workload"] == w and x["binary"] == "pat_cacs"), None)
    o = next((x for x in recs if x["workload"] == w and x["binary"] == peer), None)
    if not c or not o or c.get("status") != "ok" or o.get("status") != "ok":
        return None
    pairs = list(zip(c["ns_runs"], o["ns_runs"]))
    if len(pairs) < 3 or len(c["ns_runs"]) != len(o["ns_runs"]):
        return None
    ratios = [y / x * c["ops"] / o["ops"] for x, y in pairs]
    return (statistics.median(ratios), sum(1 for r in ratios if r > 1), len(ratios))


def pat_targets(recs):
    """Issue 22's benchmark goals (not gates)."""
    t = []

    def get(p, b):
        r = find(recs, "pat-" + p, b, p)
        return r["ns_per_op_median"] if r else None
    c, bo, asm = get("pingpong", "pat_cacs"), get("pingpong", "pat_boost"), get("pingpong", "pat_asm")
    if c and bo:
        t.append(("pingpong of two functions: libcacs >= 3x faster than Boost jump_fcontext",
                  "%.2f vs %.2f ns: %.2fx" % (c, bo, bo / c), bo / c >= 3))
    if c and asm:
        t.append(("pingpong of two functions: libcacs within 1.5x of the inline-asm switch",
                  "%.2f vs %.2f ns: %.2fx" % (c, asm, c / asm), c / asm <= 1.5))
    for p in PATTERNS:
        c = get(p, "pat_cacs")
        for b, lab in (("pat_boost", "Boost jump_fcontext"), ("pat_fiber", "Boost.Fiber")):
            o = get(p, b)
            if c and o:
                pr = pat_paired(recs, p, b)
                t.append(("%s: libcacs faster than %s" % (p, lab),
                          "%.2f vs %.2f ns" % (c, o) +
                          (" (paired %.3fx, %d/%d)" % pr if pr else ""), c < o))
    return t
