"""--programs: csmith programs, stock clang -O0 against cacs variants."""

import functools
import os
import random
import re
import shutil

from . import reduce as reducer
from .common import (CSMITH_INCLUDE, ROOT, apt_install, failure_signature, log, parallel, run,
                     run_tool)
from .twotu import MAIN_PROTO, two_tu_commands, write_two_tu_files

# Every variant: (name, cacs flags, source kind). Source kind "plain" is the
# csmith program as generated; "attr" has __attribute__((preserve_none)) on
# the prototypes of a random subset of its functions (seeded). "@LIST" stands
# for a list file naming another random subset. -fverify-intermediate-code
# and -verify-machineinstrs are added to every compile.
VARIANTS = [
    ("O0", ["-O0"], "plain"),
    ("O2", ["-O2"], "plain"),
    ("O2-apn", ["-O2", "-fauto-preserve-none"], "plain"),
    ("O0-list-apn", ["-O0", "-fpreserve-none-list=@LIST", "-fauto-preserve-none"], "plain"),
    ("O2-list", ["-O2", "-fpreserve-none-list=@LIST"], "plain"),
    ("O2-list-apn", ["-O2", "-fpreserve-none-list=@LIST", "-fauto-preserve-none"], "plain"),
    # -O2 inlines nearly all of a csmith program; without inlining the calls
    # stay for the list and APN to change and the optimizer to work on.
    ("O2-noinline-list-apn", ["-O2", "-fno-inline", "-fpreserve-none-list=@LIST",
                              "-fauto-preserve-none"], "plain"),
    ("O0-attr-apn", ["-O0", "-fauto-preserve-none"], "attr"),
    ("O2-attr", ["-O2"], "attr"),
    ("O2-attr-apn", ["-O2", "-fauto-preserve-none"], "attr"),
    ("lto-list-apn", ["-O2", "-flto", "-fpreserve-none-list=@LIST", "-fauto-preserve-none"], "plain"),
    ("lto-attr-apn", ["-O2", "-flto", "-fauto-preserve-none"], "attr"),
    # Two TUs: the program (main renamed) with list + APN, and a main()
    # compiled without any cacs flag; the full-LTO link must honour each
    # TU's settings.
    # (The program's TU at -O0: at -O1 and up csmith programs fold into
    # main and nothing is left for the list to name.)
    ("lto-2tu", ["-O0", "-flto", "-fpreserve-none-list=@LIST", "-fauto-preserve-none"], "plain-2tu"),
]
# cacs's other flags, at -O1 and -O3 too (`--variants flags`). "@GLOB" is
# a list of globs that covers every function the program defines but main
# (fun:func_*, fun:crc32_*, ...) and no C library function (a glob that
# matches printf is the known XFAIL of test/Hazards/list-system-header-
# declaration.c). -fno-inline keeps calls for the list and APN to change.
FLAG_VARIANTS = [
    ("O1-glob-apn", ["-O1", "-fpreserve-none-list=@GLOB", "-fauto-preserve-none"], "plain"),
    ("O3-glob-apn", ["-O3", "-fpreserve-none-list=@GLOB", "-fauto-preserve-none"], "plain"),
    ("O3-noinline-glob-apn", ["-O3", "-fno-inline", "-fpreserve-none-list=@GLOB",
                              "-fauto-preserve-none"], "plain"),
    ("O1-attr-apn", ["-O1", "-fauto-preserve-none"], "attr"),
    ("O3-attr-apn", ["-O3", "-fauto-preserve-none"], "attr"),
    ("lto-noinline-glob-apn", ["-O2", "-flto", "-fno-inline", "-fpreserve-none-list=@GLOB",
                               "-fauto-preserve-none"], "plain"),
    # The empty callee-saved list acts on x86-64 LLVM 22 only (LLVM 19
    # refuses it there, AArch64 warns and keeps upstream's list).
    ("O2-noinline-glob-csnone", ["-O2", "-fno-inline", "-fpreserve-none-list=@GLOB",
                                 "-fpreserve-none-callee-saved=none"], "plain"),
    ("O3-attr-apn-csnone", ["-O3", "-fauto-preserve-none", "-fpreserve-none-callee-saved=none"],
     "attr"),
    ("lto-noinline-glob-apn-csnone", ["-O2", "-flto", "-fno-inline", "-fpreserve-none-list=@GLOB",
                                      "-fauto-preserve-none", "-fpreserve-none-callee-saved=none"],
     "plain"),
    ("O1-migration-list-apn", ["-O1", "-fcoroutine-migration", "-fpreserve-none-list=@LIST",
                               "-fauto-preserve-none"], "plain"),
    ("O3-noinline-migration-glob-apn", ["-O3", "-fno-inline", "-fcoroutine-migration",
                                        "-fpreserve-none-list=@GLOB", "-fauto-preserve-none"], "plain"),
    ("lto-migration-attr-apn", ["-O2", "-flto", "-fcoroutine-migration", "-fauto-preserve-none"],
     "attr"),
    ("lto-2tu-glob-migration", ["-O0", "-flto", "-fcoroutine-migration",
                                "-fpreserve-none-list=@GLOB", "-fauto-preserve-none"], "plain-2tu"),
]
FLAGS = {v[0] for v in FLAG_VARIANTS}
VARIANTS += FLAG_VARIANTS
# In a pool coroutine (`--variants pool`): the program (main renamed, with
# -finstrument-functions-after-inlining) runs in a coroutine of a
# two-worker pool whose entry hook moves it to the other worker at every
# 64th function entry,
# beside a coroutine that keeps yielding, so the program moves between the
# workers' threads while its (preserve_none, APN, listed) frames are live.
# csmith programs use no thread-local storage, so the output must not
# change. Kind "*-pool": the program's source ("plain" or "attr") with the
# pool main (POOL_MAIN).
POOL_VARIANTS = [
    ("pool-O0-migration-list-apn", ["-O0", "-fcoroutine-migration", "-fpreserve-none-list=@LIST",
                                    "-fauto-preserve-none"], "plain-pool"),
    ("pool-O2-noinline-migration-glob-apn", ["-O2", "-fno-inline", "-fcoroutine-migration",
                                             "-fpreserve-none-list=@GLOB", "-fauto-preserve-none"],
     "plain-pool"),
    ("pool-O2-attr-apn", ["-O2", "-fcoroutine-migration", "-fauto-preserve-none"], "attr-pool"),
    ("pool-lto-noinline-migration-glob-apn", ["-O2", "-flto", "-fno-inline", "-fcoroutine-migration",
                                              "-fpreserve-none-list=@GLOB", "-fauto-preserve-none"],
     "plain-pool"),
]
POOL = {v[0] for v in POOL_VARIANTS}
VARIANTS += POOL_VARIANTS
# Cold shields (`--variants cold`): kind "attr-all" puts preserve_none and
# noinline on every csmith function, so that calls stay, and those that
# block frequencies show to be rare (outside a loop nest, say) go through
# cold shields (shieldsColdCall): one to four per program at -O2.
COLD_VARIANTS = [
    ("cold-O2-allattr", ["-O2"], "attr-all"),
    ("cold-O3-allattr-apn", ["-O3", "-fauto-preserve-none"], "attr-all"),
    ("cold-lto-allattr-apn", ["-O2", "-flto", "-fauto-preserve-none"], "attr-all"),
]
COLD = {v[0] for v in COLD_VARIANTS}
VARIANTS += COLD_VARIANTS
# What @GLOB names: csmith's functions and the helpers of csmith.h that the
# program defines.
GLOBS = ["func_*", "crc32_*", "transparent_crc*", "platform_main_*", "safe_*"]
# --quick (the lit slice): fewer variants, still covering each feature.
QUICK = {"O2", "O0-list-apn", "O2-noinline-list-apn", "O2-attr-apn", "lto-2tu"}

# The safety pass's error for an attribute that cannot be honoured.
BYVAL_REFUSAL = re.compile(r"error: preserve_none function '(\w+)' takes an argument by value in memory \(byval\)")
PROTO = re.compile(r"^(static\s+)?(.*?\b)(func_\d+)\((.*)\);\s*$")


def functions(src):
    """The csmith functions (func_N) declared in the prototype section."""
    names = []
    for line in src.splitlines():
        m = PROTO.match(line)
        if m and m.group(3) not in names:
            names.append(m.group(3))
    return names


def add_attributes(src, chosen, noinline=()):
    """Put preserve_none on the first declaration (the prototype) of each
    chosen function (and noinline on those in noinline, so that -O2 keeps
    some calls to them); later declarations inherit it."""
    out, done = [], set()
    for line in src.splitlines():
        m = PROTO.match(line)
        if m and m.group(3) in chosen and m.group(3) not in done:
            done.add(m.group(3))
            attr = "preserve_none, noinline" if m.group(3) in noinline else "preserve_none"
            line = "%s__attribute__((%s)) %s%s(%s);" % (
                m.group(1) or "", attr, m.group(2), m.group(3), m.group(4))
        out.append(line)
    return "\n".join(out) + "\n"


def ensure_csmith():
    if not shutil.which("csmith") or not os.path.exists(os.path.join(CSMITH_INCLUDE, "csmith.h")):
        apt_install(["csmith", "libcsmith-dev"])
    if not shutil.which("csmith") or not os.path.exists(os.path.join(CSMITH_INCLUDE, "csmith.h")):
        raise SystemExit("difftest: csmith (and libcsmith-dev's %s/csmith.h) is needed" % CSMITH_INCLUDE)


def outcome(res):
    """What a program run shows: its output and how it ended."""
    if res.timeout:
        return "TIMEOUT"
    return res.out + "exit=%d\n" % res.rc


def build_two_tus(tools, flags, cflags, target, src, exe, d, link_extra=()):
    files = write_two_tu_files(d)
    for cmd in two_tu_commands(tools.cacs_clang, flags, cflags, target, src, files, exe, link_extra):
        r = run_tool(cmd, timeout=300)
        if not r.ok:
            break
    return r


POOL_MAIN = MAIN_PROTO + r"""#include "cacs/pool.h"
#include <stdio.h>
static int argc_, rc, done;
static char **argv_;
static unsigned long entries;
__attribute__((no_instrument_function)) void __cyg_profile_func_enter(void *fn, void *site) {
  (void)fn;
  (void)site;
  if ((++entries & 63) != 0 || !cacs_pool_current())
    return;
  /* Yield until on the other worker (a yield alone mostly comes back). */
  int w = cacs_pool_worker_index();
  for (int i = 0; i < 100 && cacs_pool_worker_index() == w; i++)
    cacs_pool_yield();
}
__attribute__((no_instrument_function)) void __cyg_profile_func_exit(void *fn, void *site) {
  (void)fn;
  (void)site;
}
static void body(void *arg) {
  (void)arg;
  rc = csmith_main(argc_, argv_);
  fflush(stdout);
  __atomic_store_n(&done, 1, __ATOMIC_RELEASE);
}
static void busy(void *arg) {
  (void)arg;
  while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
    cacs_pool_yield();
    for (volatile int i = 0; i < 1000; i++)
      ;
  }
}
int main(int argc, char **argv) {
  argc_ = argc;
  argv_ = argv;
  cacs_pool_attr attr = {2, 8u << 20, CACS_POOL_MIGRATE_RUNNING};
  cacs_pool *p = cacs_pool_create_ex(&attr);
  if (!p)
    return 98;
  cacs_pool_task *b = cacs_pool_spawn(p, busy, NULL);
  cacs_pool_join(cacs_pool_spawn(p, body, NULL));
  cacs_pool_join(b);
  cacs_pool_destroy(p);
  return rc;
}
"""


def build_in_pool(tools, flags, cflags, target, arch, vsrc, exe, d):
    """A *-pool variant: the program's unit with the variant's flags, the
    pool main without cacs flags, linked with the build's libcacs."""
    proto, wrapper, o1, o2 = (os.path.join(d, n) for n in
                              ("csmith-main.h", "pool-main.c", "pool-tu1.o", "pool-tu2.o"))
    for path, text in ((proto, MAIN_PROTO), (wrapper, POOL_MAIN)):
        with open(path, "w") as f:
            f.write(text)
    lto = ["-flto"] if "-flto" in flags else []
    cmds = [[tools.cacs_clang] + flags + cflags + target
            + ["-include", proto, "-Dmain=csmith_main", "-finstrument-functions-after-inlining",
               "-c", vsrc, "-o", o1],
            [tools.cacs_clang, "-O2"] + lto + target
            + ["-I" + os.path.join(ROOT, "runtime", "include"), "-c", wrapper, "-o", o2],
            [tools.cacs_clang] + flags + target
            + [o1, o2, os.path.join(tools.build, "runtime", arch, "libcacs.a"), "-lpthread", "-o", exe]]
    for cmd in cmds:
        r = run_tool(cmd, timeout=300)
        if not r.ok:
            break
    return r


def known_fastisel(tools, flags, cflags, vsrc, src, exe, d, kind, cmd, arch, expected, run_limit):
    """Whether a failing AArch64 variant is the known FastISel bug: it
    passes when built again with FastISel off (in the compile and in an LTO
    link)."""
    nofi = ["-mllvm", "-fast-isel=false"]
    exe2 = exe + "-nofastisel"
    if kind == "plain-2tu":
        r = build_two_tus(tools, flags + nofi, cflags, tools.arch_flags(arch), src, exe2, d,
                          link_extra=["-Wl,-mllvm,-fast-isel=false"])
    else:
        cmd2 = [c if c != exe else exe2 for c in cmd] + nofi
        if "-flto" in flags:
            cmd2.append("-Wl,-mllvm,-fast-isel=false")
        r = run_tool(cmd2, timeout=300)
    if not r.ok:
        return False
    rr = run(tools.run_prefix(arch) + [exe2], timeout=run_limit * 4, cwd=d)
    return outcome(rr) == expected


def write_lists(d, header, listed, ndefined, globs):
    """The lists of the variants in d: funcs.list (@LIST, the seeded subset
    listed) and globs.list (@GLOB, globs over every function but main).
    Returns their paths."""
    list_file, glob_file = os.path.join(d, "funcs.list"), os.path.join(d, "globs.list")
    with open(list_file, "w") as f:
        f.write("# %s: %d of %d functions\n" % (header, len(listed), ndefined))
        f.write("".join("fun:%s\n" % n for n in listed))
    with open(glob_file, "w") as f:
        f.write("# %s: globs over every function but main\n" % header)
        f.write("".join("fun:%s\n" % g for g in globs))
    return list_file, glob_file


def compile_failure(r):
    """The failure of a variant whose build failed: kind, signature."""
    return ("compile-timeout" if r.timeout else "compile-failure",
            failure_signature(r.err) or r.err.strip()[-300:])


def judge_run(rr, expected, stock_got, summary, vwhat, level):
    """The verdict on a variant's run rr: None if it printed what stock
    clang -O0 did, "upstream" (counted and logged) if stock clang at the
    variant's level (stock_got(), called only for a mismatch) prints the
    same wrong output, or (kind, detail)."""
    got = outcome(rr)
    if got == expected:
        return None
    kind = "timeout" if rr.timeout else ("crash" if rr.rc < 0 or rr.rc >= 128 else "mismatch")
    if kind == "mismatch" and stock_got() == got:
        # Stock clang at the same level prints the same wrong checksum:
        # the program has UB that -O0 hides, or stock LLVM miscompiles it.
        # cacs changed nothing; not ours.
        summary.upstream += 1
        log("  %s: UPSTREAM: stock clang %s prints the same %r; not a cacs finding"
            % (vwhat, level, got.strip()[-30:]))
        return "upstream"
    return (kind, "expected %r got %r" % (expected.strip()[-60:], got.strip()[-60:]))


def known_fastisel_failure(summary, vwhat, failure):
    """A failing AArch64 variant that passes with FastISel off: the bug
    fixed in cacs (f9b815e) is back. Say which bug it is, and still fail."""
    summary.known.append("%s: %s" % (vwhat, failure[0]))
    return (failure[0], failure[1] + "; passes with -fast-isel=false: the AArch64 "
            "FastISel preserve_none bug is back (test/Reliability/aarch64-optnone-*.c)")


def opt_level(flags):
    """The variant's -O flag (the last one wins, as in clang)."""
    levels = [f for f in flags if re.fullmatch(r"-O[0-3sz]?", f)]
    return levels[-1] if levels else "-O0"


# The groups --variants takes by name instead of a list.
GROUPS = {"flags": FLAG_VARIANTS, "pool": POOL_VARIANTS, "cold": COLD_VARIANTS}


def selected_variants(args, extra=(), quick=QUICK, pool=True):
    """The variants --variants names (a comma list, or one group of GROUPS),
    else the default set: every variant outside the groups, only the quick
    ones under --quick. A generator other than csmith passes its own
    variants (extra: known and in the default set), its quick set, and
    pool=False when its programs cannot run in the pool."""
    known = VARIANTS + list(extra)
    names = [n for n in (args.variants or "").split(",") if n]
    if not pool and (names == ["pool"] or any(n in POOL for n in names)):
        raise SystemExit("difftest: the pool variants are for csmith programs only (--programs)")
    if len(names) == 1 and names[0] in GROUPS:
        return list(GROUPS[names[0]])
    unknown = [n for n in names if n not in [v[0] for v in known]]
    if unknown:
        raise SystemExit("difftest: unknown variant %s (known: %s)"
                         % (", ".join(unknown), ", ".join(v[0] for v in known)))
    if names:
        return [v for v in known if v[0] in names]
    return [v for v in known
            if v[0] not in FLAGS | POOL | COLD and (not args.quick or v[0] in quick)]


def applies(variant, arch, llvm):
    """Whether a variant means anything here: the empty callee-saved list is
    an error by design on x86-64 LLVM 19 (docs/callee-saved.md)."""
    return not ("-fpreserve-none-callee-saved=none" in variant[1] and arch == "x86_64"
                and str(llvm) == "19")


def run_programs(args, tools, summary, workroot):
    ensure_csmith()
    tools.check(need_qemu=(args.arch == "aarch64"))
    selected_variants(args)  # unknown names fail here, not in every worker
    seeds = [args.seed + i for i in range(args.programs)]
    parallel(args.jobs, functools.partial(check_program, args, tools, workroot), seeds, summary)


def check_program(args, tools, workroot, seed, summary):
    """One csmith program against every variant. Returns (None, the
    reductions to run afterwards)."""
    arch = args.arch
    slow = 4 if arch == "aarch64" else 1
    cflags = ["-w", "-I" + CSMITH_INCLUDE]
    target = tools.arch_flags(arch)
    common = cflags + target
    verify = ["-fverify-intermediate-code", "-mllvm", "-verify-machineinstrs"]
    variants = [v for v in selected_variants(args) if applies(v, arch, tools.llvm)]
    # For testing the harness itself (its failure, reduction and regression
    # path): flags added to every cacs compile.
    extra = os.environ.get("DIFFTEST_EXTRA_CACS_FLAGS", "").split()
    deferred = []
    what = "program seed %d (%s)" % (seed, arch)
    d = os.path.join(workroot, "%s-seed%d" % (arch, seed))
    os.makedirs(d, exist_ok=True)
    src = os.path.join(d, "prog.c")
    # csmith's own seed makes the program reproducible. Its defaults: the
    # size limits (--max-funcs, --max-block-depth) leave func_1 calling
    # no other func_N far more often.
    r = run(["csmith", "--seed", str(seed), "-o", src], timeout=60, cwd=d)
    if not r.ok:
        summary.skipped += 1
        log("SKIP %s: csmith failed" % what)
        return None, deferred
    text = open(src).read()
    # The functions that exist in the -O0 IR (csmith declares some it
    # never calls): the func_N ones can take the attribute, all of them
    # (the safe_math helpers too) can be listed.
    r = run([tools.stock_clang, "-O0", "-S", "-emit-llvm", "-o", "-"] + common + [src], timeout=120)
    defined = re.findall(r"^define [^@]*@([\w.]+)\(", r.out, re.M)
    funcs = [f for f in functions(text) if f in defined]
    rng = random.Random("%d-%s" % (seed, arch))
    others = [f for f in defined if f != "main" and f not in funcs]
    listed = sorted(rng.sample(funcs, rng.randint(1, max(1, len(funcs) * 2 // 3)))) if funcs else []
    listed += sorted(rng.sample(others, rng.randint(0, len(others) // 3))) if others else []
    attred = sorted(rng.sample(funcs, rng.randint(1, max(1, len(funcs) // 2)))) if funcs else []
    list_file, glob_file = write_lists(d, "difftest seed %d" % seed, listed, len(defined), GLOBS)
    attr_src = os.path.join(d, "prog-attr.c")
    with open(attr_src, "w") as f:
        f.write(add_attributes(text, set(attred), set(n for n in attred if rng.random() < 0.5)))
    all_attr_src = os.path.join(d, "prog-attr-all.c")
    with open(all_attr_src, "w") as f:
        f.write(add_attributes(text, set(funcs), set(funcs)))

    ref = os.path.join(d, "ref")
    r = run([tools.stock_clang, "-O0"] + common + [src, "-o", ref], timeout=120)
    if not r.ok:
        summary.skipped += 1
        log("SKIP %s: reference does not compile: %s" % (what, (r.err.strip().splitlines() or ["?"])[-1]))
        return None, deferred
    r = run(tools.run_prefix(arch) + [ref], timeout=10 * slow, cwd=d)
    if r.timeout or r.rc != 0 or "checksum" not in r.out:
        summary.skipped += 1
        log("SKIP %s: reference run %s" % (what, "timed out" if r.timeout else "failed"))
        return None, deferred
    expected = outcome(r)
    run_limit = max(5 * slow, 5 * r.secs)

    stock_outputs = {}

    def stock_output(vsrc, level):
        """What the program prints when stock clang builds it at `level`."""
        key = (vsrc, level)
        if key not in stock_outputs:
            exe = os.path.join(d, "stock" + level)
            r = run([tools.stock_clang, level] + common + [vsrc, "-o", exe], timeout=300)
            stock_outputs[key] = (outcome(run(tools.run_prefix(arch) + [exe], timeout=run_limit, cwd=d))
                                  if r.ok else None)
        return stock_outputs[key]

    bad = upstream = 0
    for name, vflags, kind in variants:
        flags = [f.replace("@LIST", list_file).replace("@GLOB", glob_file) for f in vflags] + extra
        vsrc = (all_attr_src if kind == "attr-all"
                else attr_src if kind in ("attr", "attr-pool") else src)
        exe = os.path.join(d, "v-" + name)
        cmd = [tools.cacs_clang] + flags + common + verify + [vsrc, "-o", exe]
        if "-flto" in flags:
            cmd += ["-Wl,-mllvm,-verify-machineinstrs"]
        vwhat = "%s variant %s" % (what, name)
        if kind == "plain-2tu":
            r = build_two_tus(tools, flags, cflags + verify, target, src, exe, d)
        elif kind.endswith("-pool"):
            r = build_in_pool(tools, flags, cflags + verify, target, arch, vsrc, exe, d)
        else:
            r = run_tool(cmd, timeout=300)
        failure = None
        refused = (BYVAL_REFUSAL.search(r.err)
                   if kind in ("attr", "attr-pool", "attr-all") and not r.ok else None)
        if refused and refused.group(1) in (funcs if kind == "attr-all" else attred):
            # x86-64 passes a struct argument byval; LLVM does not copy it
            # under preserve_none, so cacs refuses the attribute there (see
            # test/PreserveNoneSafety/): the designed outcome, not a finding.
            summary.add_pass()
            log("  %s: refused as designed: preserve_none on %s, which takes a struct by value"
                % (vwhat, refused.group(1)))
            continue
        if not r.ok:
            failure = compile_failure(r)
        else:
            rr = run(tools.run_prefix(arch) + [exe], timeout=run_limit, cwd=d, longer=run_limit * 4)
            failure = judge_run(rr, expected, lambda: stock_output(vsrc, opt_level(flags)), summary,
                                vwhat, opt_level(flags))
            if failure == "upstream":
                upstream += 1
                continue
        if (failure is not None and arch == "aarch64" and not failure[0].startswith("compile")
                and not kind.endswith("-pool")):
            known = known_fastisel(tools, flags, cflags + verify, vsrc, src, exe, d, kind,
                                   cmd, arch, expected, run_limit)
            if known:
                # Fixed in cacs (f9b815e); if it is back, say which bug
                # it is, and still fail.
                failure = known_fastisel_failure(summary, vwhat, failure)
        if failure is None:
            summary.add_pass()
            continue
        bad += 1
        summary.add_fail(vwhat, failure[0], failure[1])
        info = dict(seed=seed, arch=arch, variant=name, flags=flags, kind=failure[0],
                    detail=failure[1], src=vsrc, llvm=tools.llvm, two_tu=(kind == "plain-2tu"),
                    extra=extra, list_file=(list_file if any("@LIST" in f for f in vflags)
                                           else glob_file if any("@GLOB" in f for f in vflags) else None))
        # The reducer rebuilds one- and two-unit programs only.
        if args.reduce and not kind.endswith("-pool"):
            deferred.append((reducer.reduce_and_save, (info, tools, d, args)))
    if bad == 0 and not args.keep:
        shutil.rmtree(d, ignore_errors=True)
    log("%s: %d functions, %d listed, %d attributed, %d/%d variants ok%s" % (
        what, len(funcs), len(listed), len(attred), len(variants) - bad - upstream, len(variants),
        ", %d as stock clang (upstream)" % upstream if upstream else ""))
    return None, deferred
