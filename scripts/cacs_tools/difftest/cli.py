"""Differential and random testing of cacs.

  scripts/difftest --programs N --arch x86_64|aarch64 [--seed S] [--llvm 19|22]
                   [-j J] [--keep DIR] [--quick | --variants V,...] [--no-reduce]
                   [--reduce-budget SECS] [--regression-dir DIR]
      N csmith programs (seeds S, S+1, ...): stock clang -O0 is the reference,
      cacs variants (-O0/-O2, -fauto-preserve-none, a seeded random
      -fpreserve-none-list=, preserve_none attributes on random functions,
      -flto, and two TUs under full LTO) must print the same checksum.
      --variants flags runs cacs's other flags instead, at -O1/-O3 too:
      lists of globs over every function, -fpreserve-none-callee-saved=none
      and -fcoroutine-migration, per TU and under -flto (programs.py).
      --variants pool runs the program in a coroutine of a two-worker
      pool that yields at function entries and so moves between threads
      (programs.py, POOL_VARIANTS; not reduced). --variants cold puts
      preserve_none and noinline on every csmith function, so that the
      rare calls go through cold shields (COLD_VARIANTS).
      Failures are reduced with cvise and saved under
      test/Reliability/regressions/ (or DIR; XFAIL until fixed); the
      two-TU variant too, as a test that builds two TUs and links them.
      An AArch64 failure that goes away with -fast-isel=false is flagged as
      the FastISel bug of test/Reliability/aarch64-optnone-*.c coming back.
      DIFFTEST_EXTRA_CACS_FLAGS (environment) adds flags to every cacs
      compile: a way to make the harness fail on purpose (its self-test).
  scripts/difftest --yarpgen N [--yarpgen-dir DIR] [--yarpgen-std c|c++|both]
                   [--arch A] [--seed S] [--llvm V] [-j J] [--quick | --variants V,...]
      N YARPGen programs (seeds S, S+1, ...; loop nests over arrays), the
      same variants as --programs (flags and cold too, not pool) and
      O2-split-list-apn (the loops' unit with list + APN, the driver's
      without: its calls reach the C entry), every unit of the program
      compiled with the variant; the printed hash must be stock clang
      -O0's. YARPGen is not part of cacs: build it as its README says
      (github.com/intel/yarpgen, main branch) and give its directory
      (--yarpgen-dir or YARPGEN_DIR), or let --yarpgen-fetch do it.
      --yarpgen-std both (the default)
      generates C for even seeds, C++ for odd ones. Failures are kept,
      not reduced (yarpgen.py).
  scripts/difftest --yarpgen-fetch [URL][@REV] --yarpgen-dir DIR [-j J]
      Only make DIR hold a built YARPGen (also before --yarpgen N): a
      built tree is used as it is; a missing or empty DIR gets a git clone
      of URL (default github.com/intel/yarpgen) at REV (default the commit
      the ledger's streams ran, so a seed is the same program everywhere);
      a YARPGen source tree is built with CMake into DIR/build. Any other
      DIR is an error and left alone (yarpgen.py, fetch_yarpgen).
  scripts/difftest --ir N [--seed S] [-j J]
      N random IR modules (call graphs with preserve_none seeds, and
      llvm-stress bodies) through opt -passes=auto-preserve-none and
      llc -verify-machineinstrs for x86_64 and aarch64; every direct call
      must keep its callee's calling convention (see irfuzz.py for all the
      invariants; --check-ir BEFORE AFTER runs just that checker). Failures
      are reduced with llvm-reduce and saved as regressions too.
  scripts/difftest --real lua|zlib|sqlite|jsoncpp|mawk [--real-variants V,...]
      Lua 5.4, zlib, SQLite, JsonCpp (C++) or mawk (Debian source, apt-get
      source; deb-src is added if missing) built with -O2
      -fauto-preserve-none and lists of its functions, per TU and with
      -flto, against a stock build: Lua on the Lua scripts in
      scripts/cacs_tools/difftest/lua/, zlib on its own tests (example, infcover,
      minigzip round trips with the stock build's compressed bytes),
      SQLite on the SQL scripts in scripts/cacs_tools/difftest/sqlite/ and
      speedtest1's verification hashes, JsonCpp on its unit tests and
      reader/writer cases, mawk on its own tests and the AWK scripts in
      scripts/cacs_tools/difftest/mawk/. --real-variants hazards (or all) adds builds
      with -O3, -Os, hardening flags, UBSan, ASan and a shared library
      called through a lazily bound PLT. --arch aarch64 runs them under
      qemu; --quick leaves out the build with APN alone. See real.py.
  scripts/difftest --fetch [--real PROJECT ...]
      Only fetch (or find in the cache) those sources (all, or those of
      the --real projects named); scripts/setup does this, so that the
      tests need no network. Each version apt lists is tried, newest first
      (the archive may list one it no longer serves); the log names the
      one used. The exit status is 1 when a source could not be fetched.

Modes combine. -j J runs programs and IR modules in J worker processes
(default 1); each program's or module's log lines are printed together and
in seed order, so the output and the verdicts do not depend on J. The
reductions run after each batch of 32, one at a time (cvise with J
processes), so a long campaign reduces what it finds as it goes.
The last line is `difftest: N passed, M failed[, K skipped][, U upstream]`
(upstream: a variant printed the same wrong checksum as stock clang at
its -O level, so the program or stock LLVM is at fault); the exit
status is 1 when anything failed.
"""

import argparse
import os
import shutil
import sys
import tempfile

from cacs_tools.difftest import common, real


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--programs", type=int, default=0, metavar="N", help="csmith programs to test")
    ap.add_argument("--yarpgen", type=int, default=0, metavar="N", help="YARPGen programs to test")
    ap.add_argument("--yarpgen-dir", metavar="DIR", default=os.environ.get("YARPGEN_DIR"),
                    help="a built YARPGen tree (default $YARPGEN_DIR)")
    ap.add_argument("--yarpgen-fetch", nargs="?", const="", metavar="URL[@REV]",
                    help="fetch and build YARPGen into --yarpgen-dir if it is not built there")
    ap.add_argument("--yarpgen-std", choices=["c", "c++", "both"], default="both",
                    help="language of the YARPGen programs (both: C for even seeds, C++ for odd)")
    ap.add_argument("--arch", choices=["x86_64", "aarch64"], default="x86_64")
    ap.add_argument("--ir", type=int, default=0, metavar="N", help="random IR modules to test")
    ap.add_argument("--real", choices=sorted(real.PROJECTS), action="append", default=[],
                    help="real code to test")
    ap.add_argument("--real-variants", metavar="V,...",
                    help="the cacs builds of --real: names from real.py, standard (the default), "
                    "hazards, all")
    ap.add_argument("--fetch", action="store_true",
                    help="only fetch the Debian sources of the --real projects (setup does)")
    ap.add_argument("--check-ir", nargs=2, metavar=("BEFORE", "AFTER"),
                    help="only run the IR invariant checker on two .ll files")
    ap.add_argument("--listed", default="", metavar="F,G", help="with --check-ir: listed functions")
    ap.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    ap.add_argument("-j", "--jobs", type=int, default=1, metavar="J",
                    help="worker processes for programs and IR modules (default 1)")
    ap.add_argument("--llvm", choices=["19", "22"], default="19")
    ap.add_argument("--build", help="cacs build directory (default build/ or build-llvm22/)")
    ap.add_argument("--keep", metavar="DIR", help="keep all work files in DIR")
    ap.add_argument("--quick", action="store_true", help="fewer variants per program (lit slice)")
    ap.add_argument("--variants", metavar="V,...", help="only these program variants (see programs.py)")
    ap.add_argument("--no-reduce", dest="reduce", action="store_false",
                    help="do not reduce failures nor write regression tests")
    ap.add_argument("--reduce-budget", type=int, default=900, metavar="SECS",
                    help="time for one reduction (default 900)")
    ap.add_argument("--regression-dir", metavar="DIR",
                    help="where to save regression tests (default test/Reliability/regressions)")
    args = ap.parse_args()
    if args.fetch:
        return 0 if real.fetch_all(args.real) else 1
    if args.check_ir:
        from cacs_tools.difftest import irfuzz
        before, after = (open(p).read() for p in args.check_ir)
        errs = irfuzz.check_module(before, after, tuple(n for n in args.listed.split(",") if n))
        for e in errs:
            print("violation: " + e)
        print("difftest: %d passed, %d failed" % (0 if errs else 1, 1 if errs else 0))
        return 1 if errs else 0
    if args.jobs < 1:
        ap.error("-j needs at least 1")
    if args.yarpgen_fetch is not None and not args.yarpgen:
        from cacs_tools.difftest import yarpgen
        yarpgen.fetch_yarpgen(args)
        return 0
    if not (args.programs or args.yarpgen or args.ir or args.real):
        ap.error("nothing to do: give --programs N, --yarpgen N, --ir N and/or --real PROJECT")

    tools = common.Tools(args.llvm, args.build)
    summary = common.Summary()
    if args.keep:
        workroot = os.path.abspath(args.keep)
        os.makedirs(workroot, exist_ok=True)
    else:
        workroot = tempfile.mkdtemp(prefix="difftest-")
    try:
        if args.programs:
            from cacs_tools.difftest import programs
            programs.run_programs(args, tools, summary, workroot)
        if args.yarpgen:
            from cacs_tools.difftest import yarpgen
            yarpgen.run_yarpgen(args, tools, summary, workroot)
        if args.ir:
            from cacs_tools.difftest import irfuzz
            irfuzz.run_ir(args, tools, summary, workroot)
        for what in args.real:
            real.PROJECTS[what](args, tools, summary, workroot)
    finally:
        if not args.keep:
            shutil.rmtree(workroot, ignore_errors=True)
    for what in summary.known:
        print("  AArch64 FastISel preserve_none bug again: %s" % what)
    for what, kind, detail in summary.failures:
        print("  failed: %s: %s" % (what, kind))
    print(summary.line(), flush=True)
    return 1 if summary.failed else 0

