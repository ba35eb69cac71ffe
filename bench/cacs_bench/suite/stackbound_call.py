"""stackbound's part "call" (issue 34): the cost of a call from a
coroutine, bench/stackbound/call.c, built by run.sh's `build` beside the
ring's and the pool's programs: a plain call, the same call on the thread's
system stack (CACS_ON_SYSTEM_STACK) and under -fsplit-stack (call_split,
where the compiler and libgcc have split stacks; elsewhere run.sh leaves
call_split.skipped, saying why). Each mode runs as the ring's do (one
process pinned per round, the rounds interleaving the modes, its answers
checked); the full run also counts callgrind's instructions per call."""

import os
import shutil

from ..common import callgrind, log
from .specs import SB_CALL, SB_CALL_CG_N
from .stackbound import _record, _run, _summarize, parse_line, programs_dir


def _skipped(rec, pdir):
    """A mode whose program run.sh did not build on purpose: why, or None."""
    why = os.path.join(pdir or "", rec["binary"] + ".skipped")
    if rec["status"] == "missing" and os.path.exists(why):
        rec["status"] = "skipped"
        rec["stderr"] = open(why).read().strip()
    return rec


def _instructions(rec, pdir):
    """Callgrind's instructions per call: the total at ROUNDS 2 minus
    ROUNDS 1 over the calls of one round (the process, the checking calls on
    main's stack and the coroutine's creation cancel out)."""
    argv = [os.path.join(pdir, rec["binary"]), rec["mode"], str(SB_CALL_CG_N)]
    totals = []
    for rounds in ("1", "2"):
        total, p = callgrind(argv + [rounds])
        line = parse_line(p.stdout)
        if p.returncode != 0 or total is None or not line or line.get("ok") != SB_CALL_CG_N * int(rounds):
            rec["status"] = "FAILED"
            rec["stderr"] = ("callgrind: exit status %d: %s" % (p.returncode, p.stdout + p.stderr))[-500:]
            return
        totals.append(total)
    rec["instr_per_call"] = (totals[1] - totals[0]) / SB_CALL_CG_N
    rec["callgrind_command"] = "valgrind --tool=callgrind %s {1,2}" % " ".join(argv)


def call_runs(bdir, quick, rounds, cpu):
    """The records of part "call": every mode of SB_CALL over `rounds`
    interleaved (quick sizes with --quick, no callgrind), run from the
    programs the workload's build left in bdir."""
    pdir = programs_dir(bdir)
    recs = [_skipped(_record(s, s[4 if quick else 3], pdir), pdir) for s in SB_CALL]
    for _ in range(rounds):
        for rec in recs:
            if rec["status"] == "ok":
                _run(rec, pdir, cpu)
    for rec in recs:
        if rec["status"] == "ok" and not quick and shutil.which("valgrind"):
            _instructions(rec, pdir)
        _summarize(rec)
        m = rec.get("median", {})
        log("  stackbound call %-14s n=%-9d %s" % (
            rec["mode"], rec["n"], rec["status"] if rec["status"] != "ok" else
            "%.2f ns, %s instructions per call, exact stack %d" % (
                m["call_ns"], "%.1f" % rec["instr_per_call"] if "instr_per_call" in rec else "-",
                m["exact"])))
    return recs
