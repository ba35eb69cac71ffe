"""Timing and counting the points of scripts/bench: the variants of a
workload interleaved over rounds, then callgrind for each."""

import os
import statistics

from ..common import instr_per_op, run_binary


def point(bdir, workload, binary, variant, n, reps, cpu, cg_n, quick):
    """One variant alone: one process running `reps` repetitions."""
    return points(bdir, [(workload, binary, variant, n, cg_n)], 1, cpu, quick,
                  inner_reps=reps)[0]


def points(bdir, specs, rounds, cpu, quick, inner_reps=1):
    """Several variants of one workload, interleaved: `rounds` rounds, each
    running every variant once (one pinned process, `inner_reps`
    repetitions), so that load changes on the shared machine hit all
    variants alike. Then callgrind for each."""
    recs = []
    for (workload, binary, variant, n, cg_n) in specs:
        rec = {"workload": workload, "binary": binary, "arg": variant, "n": n,
               "ns_runs": [], "commands": []}
        if not os.path.exists(os.path.join(bdir, binary)):
            rec["status"] = "missing"
        recs.append(rec)
    for _ in range(rounds):
        for rec in recs:
            if rec.get("status") in ("missing", "FAILED"):
                continue
            path = os.path.join(bdir, rec["binary"])
            rc, res, cmd, err = run_binary(path, rec["n"], inner_reps, rec["arg"], cpu)
            if cmd not in rec["commands"]:
                rec["commands"].append(cmd)
            if rc != 0 or not res or not res["ok"]:
                rec["status"] = "FAILED"
                rec["stderr"] = err[-500:]
                continue
            rec.update(variant=res["variant"], ops=res["ops"], checksum=res["checksum"])
            rec["ns_runs"] += res["ns"]
    for rec, spec in zip(recs, specs):
        if rec.get("status") in ("missing", "FAILED"):
            continue
        rec["status"] = "ok"
        rec["command"] = rec["commands"][0] if rec["commands"] else ""
        per = [t / rec["ops"] for t in rec["ns_runs"]]
        rec["ns_per_op_median"] = statistics.median(per)
        rec["ns_per_op_min"] = min(per)
        rec["ns_per_op_max"] = max(per)
        cg_n = spec[4]
        if not quick and cg_n:
            rec["callgrind_n"] = cg_n
            rec["instr_per_op"] = instr_per_op(os.path.join(bdir, rec["binary"]),
                                               cg_n, rec["arg"])
    return recs
