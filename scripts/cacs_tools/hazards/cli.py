"""The ABI hazard matrix of cacs (issue 11).

  scripts/hazard-matrix [--llvm 19|22] [--build DIR] [--arch x86_64,aarch64]
                        [--hazards H,...] [--convs C,...] [--opts O,...]
                        [--shapes S,...] [--slice] [--shard I/N] [--stock] [-j J] [-v]
                        [--keep DIR] [--list] [--sides S,...]

Generated C programs, one function per argument shape (integer, FP and
mixed, from 1 argument to past the last argument register, so also stack
arguments; and integer shapes that return their first argument, return it
through a tail call, or return a struct in two registers or in memory),
each built by cacs over

  hazard  a flag set under which code the compiler does not see, or code
          emitted below the IR, may use the registers preserve_none passes
          arguments in (--list shows the table: cacs_tools/hazards/hazards.py)
  conv    how preserve_none comes: attr (the attribute in the source), apn
          (static callers infected by -fauto-preserve-none), list
          (-fpreserve-none-list=), shlib (the list across a -fPIC -shared
          library called from an executable; run without LD_BIND_NOW, so
          lazily bound)
  opt     -O0 -O1 -O2 -O3, and -O2 -flto
  arch    x86_64 and aarch64 (under qemu-aarch64)

--sides runs the boundary axis instead (issue 21): how the other side of
the calls was built. The functions under test are in a unit of their own,
main's unit is built by cacs with the list (conv `list`), and the
functions' unit

  side    same (cacs, the same list), nolist (cacs without the list),
          gcc (GCC, the same -O), dlsym (a -fPIC -shared library built
          with the list, whose functions main finds by name at run time
          and calls through C pointers)

The right outcome of such a cell is the right output, or an error that
names the mismatch (`refused`: an undefined decorated symbol of the
function at link time, or a cacs diagnostic naming it); never a wrong
output.

Each program is compared with the same program built by stock clang -O0 of the same
LLVM version with preserve_none macro'd away. One LLVM version per run:
--llvm N / --build DIR select the cacs build (default the source tree's
build/, build-llvm22/ for --llvm 22).

A cell's outcome: pass (same output), refused (a cacs diagnostic matching
the one the hazard table expects), or a failure: mismatch, crash, fatal
(backend fatal error or compiler crash), diagnostic (a cacs error the table
does not expect), link-error, compile-error, timeout. A hazard whose flags
stock clang itself cannot build or run here (a missing runtime, say) is
`unsupported` for that target and not counted, except in the rows whose
program checks libcacs's I/O waits (HZ_IO): there a control whose program
fails is a failure of the runtime (`FAIL control ...`, counted), and its
cells still run.

--slice is the fast subset that ./scripts/test runs; --shard I/N keeps every
N-th group of what is selected, starting at the I-th (0-based), so N runs
with I = 0..N-1 cover it once between them. --stock builds the
`attr` cells with stock clang instead of cacs (what a hand-written
attribute gets without cacs). HAZARD_MATRIX_EXTRA_CACS_FLAGS (environment)
adds flags to every cacs-side compile: a way to make the matrix fail on
purpose. LD_BIND_NOW is removed from the environment.

Output: failing and refused cells (every cell, and the wrong values, with
-v) in a fixed order, a
line per hazard and target, and last `hazard-matrix: N passed, M failed[,
K refused]`; exit status 1 when a cell failed. -j J runs J builds at once
(default 1); the output does not depend on J. When stderr is a terminal,
a progress line per group of cells (one hazard, conv or side, -O and
target, every shape) goes there, `[12/145] hazard=fno-plt conv=list O2
x86_64`; --quiet leaves them out.
"""

import argparse
import collections
import os
import shutil
import sys
import tempfile

from cacs_tools.difftest import common
from cacs_tools.hazards import hazards as hz
from cacs_tools.hazards import matrix, program, slices

FAILURES = matrix.FAILURES


def csv(text, known, what):
    items = [x for x in text.split(",") if x]
    bad = [x for x in items if x not in known]
    if bad:
        sys.exit("hazard-matrix: unknown %s %s (known: %s)" % (what, ", ".join(bad), ", ".join(known)))
    return items


def progress(done, total, group):
    """A line on stderr per group of cells built and run: where the matrix is."""
    arch, hazard, conv, opt, side = group
    how = "side=" + side if side else "conv=" + conv
    sys.stderr.write("[%d/%d] hazard=%s %s %s %s\n" % (done, total, hazard, how, opt, arch))
    sys.stderr.flush()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--llvm", choices=["19", "22"], default="19")
    ap.add_argument("--build", help="cacs build directory (default build/ or build-llvm22/)")
    ap.add_argument("--arch", default="x86_64,aarch64")
    ap.add_argument("--hazards", default="", help="hazard rows (default all)")
    ap.add_argument("--convs", default=",".join(hz.CONVS))
    ap.add_argument("--opts", default=",".join(hz.OPTS))
    ap.add_argument("--shapes", default="", help="argument shapes (default all)")
    ap.add_argument("--slice", action="store_true", help="the fast subset ./scripts/test runs")
    ap.add_argument("--stock", action="store_true", help="attr cells with stock clang instead of cacs")
    ap.add_argument("--shard", metavar="I/N", default="",
                    help="run the I-th of N parts of the groups (0 <= I < N), every N-th group in the "
                         "matrix's fixed order: CI's two LLVM runs take one half each")
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("-v", "--verbose", action="store_true", help="print every cell")
    ap.add_argument("-q", "--quiet", action="store_true",
                    help="no progress lines on stderr (there are none when stderr is not a terminal)")
    ap.add_argument("--keep", metavar="DIR", help="keep the work files in DIR")
    ap.add_argument("--list", action="store_true", help="print the hazard table and exit")
    ap.add_argument("--sides", default="", help="the boundary axis: how the functions' unit was built "
                    "(%s; default: the axis is off)" % ",".join(hz.SIDES))
    args = ap.parse_args()

    if args.list:
        for h in hz.HAZARDS:
            print("%-22s %-16s %-50s %s" % (h.name, ",".join(h.archs), " ".join(h.flags + h.cacs), h.note))
        for c in hz.CONVS:
            print("conv %-6s %s" % (c, hz.CONV_DOC[c]))
        for side in hz.SIDES:
            print("side %-6s %s" % (side, hz.SIDE_DOC[side]))
        print("shapes: " + " ".join(program.SHAPE_NAMES))
        return 0
    if args.jobs < 1:
        ap.error("-j needs at least 1")
    os.environ.pop("LD_BIND_NOW", None)

    archs = csv(args.arch, ["x86_64", "aarch64"], "target")
    hazards = csv(args.hazards, [h.name for h in hz.HAZARDS], "hazard") or [h.name for h in hz.HAZARDS]
    convs = csv(args.convs, hz.CONVS, "conv")
    opts = csv(args.opts, list(hz.OPTS), "opt")
    shape_names = csv(args.shapes, program.SHAPE_NAMES, "shape") or program.SHAPE_NAMES
    if args.stock:
        convs = [c for c in convs if c == "attr"]
    sides = csv(args.sides, hz.SIDES, "side")
    if sides:
        groups = [(a, h, "list", o, s) for a in archs for h in hazards for o in opts for s in sides
                  if a in hz.BY_NAME[h].archs]
    else:
        groups = [(a, h, c, o, None) for a in archs for h in hazards for c in convs for o in opts
                  if a in hz.BY_NAME[h].archs]
    if args.slice and sides:
        ap.error("--slice and --sides do not go together")
    if args.stock and sides:
        ap.error("--stock and --sides do not go together")
    if args.slice:
        groups, shape_names = slices.select(groups, archs, hazards)
    if args.shard:
        try:
            index, count = (int(x) for x in args.shard.split("/"))
        except ValueError:
            index, count = -1, 0
        if not 0 <= index < count:
            ap.error("--shard needs I/N with 0 <= I < N, not %r" % args.shard)
        groups = groups[index::count]
    shapes = [s for s in program.SHAPES if s.name in shape_names]

    tools = common.Tools(args.llvm, args.build)
    tools.check(need_qemu="aarch64" in archs)
    workroot = os.path.abspath(args.keep) if args.keep else tempfile.mkdtemp(prefix="hazard-matrix-")
    os.makedirs(workroot, exist_ok=True)
    failed = 0
    try:
        m = matrix.Matrix(tools, workroot, shapes, stock=args.stock)
        for a in archs:
            ref, why = m.reference(a)
            if ref is None:
                print("hazard-matrix: %s: %s" % (a, why))
                print("hazard-matrix: 0 passed, 1 failed")
                return 1
            m.ref[a] = ref
        # Controls: can stock clang build and run each hazard's flags?
        controls = sorted({matrix.control_key(g) for g in groups})
        unsupported = {}
        control_failed = 0
        for key, why in zip(controls, common.parallel(args.jobs, m.control_work, controls,
                                                      common.Summary())):
            if why.startswith(matrix.RUNTIME_FAILS):
                # Kept: the cacs side links the same runtime.
                control_failed += 1
                print("FAIL control %s %s (%s, %s): %s" % (key + (why,)))
            elif why:
                unsupported[key] = why
                print("unsupported: %s %s (%s, %s): %s" % (key + (why,)))
        groups = [g for g in groups if matrix.control_key(g) not in unsupported]

        for one in [m] + list(m.alone.values()):
            one.verbose = args.verbose
        show = None if args.quiet or not sys.stderr.isatty() else progress
        results = common.parallel(args.jobs, m.group_work, groups, common.Summary(), show)
        counts = collections.Counter()
        per = collections.OrderedDict()
        for cells in results:
            for c in cells:
                counts[c.outcome] += 1
                row = per.setdefault((c.hazard + ("/" + c.side if c.side else ""), c.arch),
                                     collections.Counter())
                row[c.outcome] += 1
        for (h, a), row in per.items():
            print("  %-22s %-8s %s" % (h, a, ", ".join("%s %d" % kv for kv in sorted(row.items()))))
        failed = sum(counts[k] for k in FAILURES) + control_failed
        line = "hazard-matrix: %d passed, %d failed" % (counts["pass"], failed)
        if counts["refused"]:
            line += ", %d refused" % counts["refused"]
        if unsupported:
            print("hazard-matrix: %d hazard/target/layout/-O combinations unsupported here, not counted"
                  % len(unsupported))
        print(line, flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(workroot, ignore_errors=True)
    return 1 if failed else 0

