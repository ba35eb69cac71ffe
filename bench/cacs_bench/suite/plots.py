"""The plots of bench/results/README.md, drawn from the same Results as its
tables. Each makes one point at a glance: the runtimes named as the text
names them (results.name), libcacs in one colour and its peers in another,
each bar's value written on it, the goal drawn as a dashed line, on a
linear axis (a bar far beyond the others is cut at the edge and says so)."""

import os

from ..common import pyplot
from .results import name
from .specs import HANOI_BASE

CACS, PEER, BASE, GOAL = "#1f77b4", "#ff7f0e", "#9a9a9a", "#d62728"

SUMSEQ = [("sumseq_instack", None), ("sumseq_instack_cpp", None), ("sumseq_libcacs", None),
          ("sumseq_libcacs_cpp", None), ("sumseq_cpp20", "cpp20-for"),
          ("sumseq_cpp20", "cpp20-while"), ("sumseq_boost", None), ("sumseq_cpp20", "plain-loop")]
YIELD = [("yield_libcacs", None), ("yield_libcacs_apn", None), ("yield_libcacs_apn", "small"),
         ("yield_libcacs_csnone", None), ("yield_libcacs_apn_csnone", None),
         ("switch_libcacs", None), ("switch_libcacs", "tail"), ("yield_boost", None),
         ("yield_boost_fiber", None), ("yield_ucontext", None)]
WRITE = [("write_fully_libcacs_apn", None), ("write_fully_libcacs", None),
         ("write_fully_boost", None), ("write_fully_cpp20", None)]
APN = [("apn_client_libcacs", None), ("apn_client_libcacs_apn", None),
       ("apn_client_libcacs_apn", "small")]
HANOI = [("hanoi_instack", None), ("hanoi_libcacs", None), ("hanoi_boost", None),
         ("hanoi_cpp20", "cpp20-symmetric"), ("hanoi_cpp20", "cpp20-nested"), HANOI_BASE]
# In the order of the sections.
PLOTS = ["sumseq.png", "hanoi.png", "write_fully.png", "yield.png", "apn_client.png",
         "compile_cost.png", "patterns.png"]


def kind(label):
    if label.startswith(("libcacs", "cacs_", "CACS_")):
        return CACS
    if label.startswith(("plain", "the empty")):
        return BASE
    return PEER


def rows(R, workload, keys):
    """(label, record) of each (binary, arg) in keys that has a result."""
    out = []
    for b, a in keys:
        r = R.rec(workload, b, a)
        if r:
            out.append((name(r), r))
    return out


def available(R, plot):
    w = plot[:-len(".png")]
    if w == "hanoi":
        return R.hanoi_base() is not None
    if w == "compile_cost":
        return any(r.get("status") == "ok" and r.get("total_pass_s")
                   for r in R.d.get("compile_cost", []))
    if w == "patterns":
        return R.ns("pat-pingpong", "pat_cacs", "pingpong") is not None
    return any(r["workload"] == w and r.get("status") == "ok" for r in R.recs)


def plot_names(R):
    """The plots the results have data for."""
    return [p for p in PLOTS if available(R, p)]


def bars(plt, path, title, xlabel, items, goal=None, color=None):
    """A horizontal bar per (label, value, text on the bar), top to bottom;
    goal: (x, its label), or a list of them, each drawn as a dashed line."""
    goals = [] if goal is None else goal if isinstance(goal, list) else [goal]
    vals = sorted(v for _, v, _ in items)
    top = max([g[0] for g in goals] + [0])
    edge = max(vals + [top]) * 1.42  # room for the text beside the longest bar
    # A bar 4x beyond the next one would flatten the others: cut it.
    if len(vals) > 2 and vals[-1] > 4 * vals[-2]:
        edge = max(vals[-2], top) * 1.45
    fig, ax = plt.subplots(figsize=(10, 0.55 * len(items) + 1.2 + 0.4 * len(goals)))
    labels = [lab for lab, _, _ in items]
    ax.barh(range(len(items)), [min(v, edge) for _, v, _ in items],
            color=[color or kind(lab) for lab in labels],
            hatch=["//" if v > edge else "" for _, v, _ in items])
    ax.set_yticks(range(len(items)))
    ax.set_yticklabels(labels)
    for i, (_, v, text) in enumerate(items):
        cut = v > edge
        # On a white box: the goal's line may cross it.
        ax.text(edge * 0.99 if cut else v + edge * 0.01, i, text + (" (off the scale)" if cut else ""),
                va="center", ha="right" if cut else "left", fontsize=9, zorder=4,
                bbox=dict(facecolor="white", edgecolor="none", pad=1.5))
    for k, (x, lab) in enumerate(goals):
        ax.axvline(x, color=GOAL, linestyle="--", linewidth=1.5, zorder=3)
        right = x > 0.55 * edge  # the label on the side with room
        ax.text(x, -0.7 - 0.5 * k, (lab + " ") if right else (" " + lab), color=GOAL,
                fontsize=9, va="bottom", ha="right" if right else "left")
    ax.set_xlim(0, edge)
    # First item on top, room for the goals' labels.
    ax.set_ylim(len(items) - 0.5, -0.8 - 0.5 * max(len(goals), 1))
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=11)
    if not color:
        from matplotlib.patches import Patch
        ax.legend(handles=[Patch(color=CACS, label="libcacs"), Patch(color=PEER, label="peers"),
                           Patch(color=BASE, label="baseline")], loc="upper left",
                  bbox_to_anchor=(1.0, 1.0), fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90, bbox_inches="tight")
    plt.close(fig)


def time_bars(plt, path, rs, title, unit, runs, goal):
    """Bars of the median time of each (label, record), instructions beside."""
    bars(plt, path, title, "%s (thread CPU time, %s); beside each bar: instructions" % (unit, runs),
         [(lab, r["ns_per_op_median"], "%.2f ns  ·  %s instr" % (
             r["ns_per_op_median"], "%.1f" % r["instr_per_op"] if r.get("instr_per_op") else "-"))
          for lab, r in rs], goal)


def _sumseq(plt, R, path, runs):
    rs = [(lab, r) for lab, r in rows(R, "sumseq", SUMSEQ) if r.get("instr_per_op") is not None]
    c20 = R.i("sumseq", "sumseq_cpp20", "cpp20-for")
    bars(plt, path, "Sum of sequence: instructions per value (the goal: no more than C++20's)",
         "instructions per value (callgrind); beside each bar: the time (%s)" % runs,
         [(lab, r["instr_per_op"], "%.1f instr  ·  %.2f ns" % (r["instr_per_op"], r["ns_per_op_median"]))
          for lab, r in rs],
         (c20, "goal: ≤ C++20 (%.1f)" % c20) if c20 else None)


def _yield(plt, R, path, runs):
    boost = R.ns("yield", "yield_boost")
    time_bars(plt, path, rows(R, "yield", YIELD),
              "Yield among 10 coroutines: ns per switch (the goal: 3× faster than Boost)",
              "ns per switch", runs,
              (boost / 3, "goal: 3× faster than Boost jump_fcontext (%.2f ns)" % (boost / 3))
              if boost else None)


def _write_fully(plt, R, path, runs):
    peers = [p for p in (R.ns("write_fully", b) for b in ("write_fully_boost", "write_fully_cpp20")) if p]
    g = min(peers) if peers else None
    time_bars(plt, path, rows(R, "write_fully", WRITE),
              "write_fully: ns per 800-byte send (the goal: faster than Boost and C++20)",
              "ns per send", runs, (g, "goal: faster than both (%.2f ns)" % g) if g else None)


def _apn_client(plt, R, path, runs):
    base = R.ns("apn_client", "apn_client_libcacs")
    time_bars(plt, path, rows(R, "apn_client", APN),
              "APN on a multi-level client: ns per message (the goal: 15 % less time with APN)",
              "ns per response message", runs,
              (0.85 * base, "goal: 15 %% less than without APN (%.2f ns)" % (0.85 * base))
              if base else None)


def _hanoi(plt, R, path, runs):
    plain = R.hanoi_base()
    items = []
    for b, a in HANOI:
        r = R.hanoi(b, a)
        if r:
            x = r["ns_per_op_median"] / plain["ns_per_op_median"]
            items.append((name(r), x, "%.2f×  ·  %.2f ns" % (x, r["ns_per_op_median"])))
    bars(plt, path, "Hanoi(20): time per move relative to plain recursion + callback "
         "(the goal: within 1.2×)", "time per move / plain recursion's (thread CPU time, %s)" % runs,
         items, (1.2, "goal: ≤ 1.2×"))


def _compile_cost(plt, R, path, runs):
    cc = [r for r in R.d.get("compile_cost", []) if r.get("status") == "ok" and r.get("total_pass_s")]
    bars(plt, path, "Compile time: the APN pass's share of opt -O2 (opt -time-passes)",
         "% of the -O2 pipeline's pass time",
         [(r["input"], 100 * r["apn_pass_s"] / r["total_pass_s"], "%.2f %%  ·  %.2f of %.1f s" % (
             100 * r["apn_pass_s"] / r["total_pass_s"], r["apn_pass_s"], r["total_pass_s"]))
          for r in cc], color=CACS)


def _patterns(plt, R, path, runs):
    items = []
    for p in R.patterns():
        c, o = R.ns("pat-" + p, "pat_cacs", p), R.ns("pat-" + p, "pat_boost", p)
        if c and o:
            items.append((p, o / c, "%.2f×  ·  %.2f vs %.2f ns" % (o / c, c, o)))
    bars(plt, path, "The call patterns: libcacs cacs_yield's speed-up over Boost jump_fcontext\n"
         "(the goals: faster in every pattern, ≥ 3× in ping-pong)",
         "Boost jump_fcontext's time per switch / libcacs cacs_yield's (thread CPU time, %s);\n"
         "beside each bar: libcacs cacs_yield vs Boost jump_fcontext, ns per switch" % runs,
         items, [(1.0, "goal: faster than Boost jump_fcontext (1×)"),
                 (3.0, "ping-pong's goal: ≥ 3× faster)")], color=CACS)


DRAW = {"sumseq.png": _sumseq, "yield.png": _yield, "write_fully.png": _write_fully,
        "apn_client.png": _apn_client, "hanoi.png": _hanoi, "compile_cost.png": _compile_cost,
        "patterns.png": _patterns}


def draw_plots(R, outdir):
    """Draw every plot the results have data for; returns their names (none
    where matplotlib is not installed)."""
    plt = pyplot()
    if plt is None:
        return []
    made = []
    for plot in plot_names(R):
        w = plot[:-len(".png")]
        runs = R.runs_text(lambda x: x.startswith("pat-") if w == "patterns" else x == w)
        DRAW[plot](plt, R, os.path.join(outdir, plot), runs)
        made.append(plot)
    return made
