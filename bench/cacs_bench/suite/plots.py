"""scripts/bench's plots (matplotlib, where installed)."""

import os

from ..common import log_scale_if_wide, pyplot
from .specs import HANOI_BASE


def make_plots(outdir, recs, hanoi, cc):
    plt = pyplot()
    if plt is None:
        return []
    made = []
    for w in ("sumseq", "yield", "write_fully", "apn_client"):
        rs = [r for r in recs if r["workload"] == w and r["status"] == "ok"]
        if not rs:
            continue
        fig, ax = plt.subplots(1, 2, figsize=(12, 0.45 * len(rs) + 1.5))
        labels = [r["variant"] for r in rs]
        ax[0].barh(labels, [r["ns_per_op_median"] for r in rs],
                   xerr=[[r["ns_per_op_median"] - r["ns_per_op_min"] for r in rs],
                         [r["ns_per_op_max"] - r["ns_per_op_median"] for r in rs]])
        ax[0].set_xlabel("ns/op (median, min..max)")
        log_scale_if_wide(ax[0].set_xscale, [r["ns_per_op_median"] for r in rs])
        ax[1].barh(labels, [r.get("instr_per_op") or 0 for r in rs])
        ax[1].set_xlabel("instructions/op (callgrind)")
        log_scale_if_wide(ax[1].set_xscale, [r.get("instr_per_op") for r in rs])
        ax[1].set_yticklabels([])
        fig.suptitle(w)
        fig.tight_layout()
        name = "%s.png" % w
        fig.savefig(os.path.join(outdir, name), dpi=90)
        plt.close(fig)
        made.append(name)
    if hanoi:
        fig, ax = plt.subplots(figsize=(8, 5))
        keys = []
        for r in hanoi:
            k = (r["binary"], r.get("arg"))
            if k not in keys:
                keys.append(k)
        by = {(r["binary"], r.get("arg"), r["n"]): r for r in hanoi if r["status"] == "ok"}
        for k in keys:
            xs, ys = [], []
            for n in sorted({r["n"] for r in hanoi}):
                r, b = by.get(k + (n,)), by.get(HANOI_BASE + (n,))
                if r and b:
                    xs.append(n)
                    ys.append(r["ns_per_op_median"] / b["ns_per_op_median"])
            if xs:
                lab = next((r["variant"] for r in hanoi if (r["binary"], r.get("arg")) == k
                            and r.get("variant")), k[1] or k[0])
                ax.plot(xs, ys, marker="o", label=lab)
        ax.set_yscale("log")
        ax.set_xlabel("disks n")
        ax.set_ylabel("time / plain recursion+callback")
        ax.legend()
        ax.set_title("Hanoi(1..20)")
        fig.tight_layout()
        fig.savefig(os.path.join(outdir, "hanoi.png"), dpi=90)
        plt.close(fig)
        made.append("hanoi.png")
    okcc = [r for r in cc if r.get("status") == "ok" and r["input"].startswith("generated")]
    if okcc:
        fig, ax = plt.subplots(figsize=(7, 4))
        ax.plot([r["functions"] for r in okcc], [r["total_pass_s"] for r in okcc], marker="o", label="O2 + APN")
        ax.plot([r["functions"] for r in okcc], [r["apn_pass_s"] for r in okcc], marker="o", label="APN pass")
        ax.set_xlabel("functions in module")
        ax.set_ylabel("seconds (opt -time-passes, wall)")
        ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(outdir, "compile_cost.png"), dpi=90)
        plt.close(fig)
        made.append("compile_cost.png")
    return made
