"""--yarpgen: YARPGen programs, stock clang -O0 against the cacs variants of
--programs (programs.py), each unit of the program built with the variant.

YARPGen (Intel's, github.com/intel/yarpgen) is not part of cacs and is never
vendored: the user gives its directory (--yarpgen-dir or YARPGEN_DIR; the
binary is DIR/yarpgen or DIR/build/yarpgen), built as its README says or by
--yarpgen-fetch (fetch_yarpgen: a clone at the commit the ledger's streams
ran, then CMake). Its main branch (2.x, the loop generator: nests of
loops over arrays, reductions, stencils) writes a program as init.h (the
data's declarations), func.c (`test`, the loops) and driver.c (the data,
`init`, `hash`, `checksum`, `main`); with --std=c++ the same as .cpp files
(std::min/std::max from <algorithm>). The program prints the hash of every
global after `test` as a decimal number, which must equal stock clang
-O0's. The 1.x branch (v1, scalar code) is not supported.

Every unit is compiled with the variant's flags, so a list or an attribute
names functions defined in one unit and called from the other (`test`,
`init`, `checksum`; `hash` inside driver.c), as users' projects are built.
Kinds of programs.py: "plain" (as generated), "attr" (preserve_none, and
noinline for about half, on a seeded subset of the functions, at each of
their declarations in every unit), "attr-all" (every function but main),
"plain-2tu" (func.c with the variant's flags, driver.c with -O0 -flto
and no cacs flag, a full-LTO link at -O2). And one of its own, "plain-split":
func.c with the list and APN, driver.c with cacs and no list, per unit: the
calls of `test` from a unit built without the list must reach it through
its C entry (docs/boundaries.md). The pool variants (a renamed csmith main)
are for --programs only.

A failing program is not reduced (the reducer of reduce.py handles one- and
two-unit csmith programs); its files are kept (--keep DIR, or
$TMPDIR/difftest-yarpgen-failures/) and the log says how to rebuild it.
"""

import functools
import os
import random
import re
import shutil
import tempfile

from . import programs
from .common import log, parallel, run, run_tool

# --std of YARPGen -> the files' extension and the clang driver's name.
LANGS = {"c": ("c", "clang"), "c++": ("cpp", "clang++")}
# Where --yarpgen-fetch gets YARPGen, and the commit it checks out: the one
# every stream of docs/research/difftest-ledger.md ran (its main branch,
# 2.x), so that a seed names the same program for every user.
YARPGEN_URL = "https://github.com/intel/yarpgen.git"
YARPGEN_REV = "0b41961ed8c36cd470958fd8c287f27ddd97c0e3"
# YARPGen's own flags for clang (its scripts/test_sets.txt) that matter
# here: -fopenmp-simd honours the `#pragma omp simd` it emits; -w.
YARPGEN_CFLAGS = ["-w", "-fopenmp-simd"]
# The variants of this generator only.
SPLIT_VARIANTS = [
    ("O2-split-list-apn", ["-O2", "-fpreserve-none-list=@LIST", "-fauto-preserve-none"], "plain-split"),
]
QUICK = programs.QUICK | {"O2-split-list-apn"}
# A link that fails because the data outgrow the small code model
# ("relocation R_X86_64_PC32 out of range", "failed to convert GOTPCREL",
# AArch64's "relocation truncated to fit").
RELOC_OVERFLOW = re.compile(r"relocation \S+ out of range|relocation truncated to fit|"
                            r"failed to convert GOTPCREL")
# AArch64's large code model has no position-independent form.
LARGE_MODEL = {"x86_64": ["-mcmodel=large"], "aarch64": ["-mcmodel=large", "-fno-pic", "-no-pie"]}
# A function declaration or definition at the start of a line, as YARPGen
# writes them (`void test(int var_0, ...) {`, `void test(...);`).
DECL = re.compile(r"^((?:(?:unsigned|signed|long|short|int|char|void|_Bool|bool|const|static|extern)"
                  r"\s+|\*\s*)+)([A-Za-z_]\w*)\s*\(")
# A definition in the -O0 IR: linkage, name. linkonce_odr ones are
# std::min/std::max's instances (a system header's: not listed).
DEFINE = re.compile(r"^define ([^@]*)@\"?([\w.$]+)\"?\(", re.M)


def find_yarpgen(d):
    """The yarpgen binary of a built tree, or None."""
    for path in (os.path.join(d, "yarpgen"), os.path.join(d, "build", "yarpgen")):
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return os.path.abspath(path)
    return None


def yarpgen_binary(args):
    d = getattr(args, "yarpgen_dir", None) or os.environ.get("YARPGEN_DIR")
    if not d:
        raise SystemExit("difftest: --yarpgen needs YARPGen: give the directory of a built tree, or "
                         "one to fetch it into with --yarpgen-fetch, by --yarpgen-dir DIR or "
                         "YARPGEN_DIR=DIR")
    exe = find_yarpgen(d)
    if not exe:
        raise SystemExit("difftest: no built yarpgen in %s (looked for yarpgen and build/yarpgen); "
                         "--yarpgen-fetch fetches and builds it there" % d)
    return exe


def _is_source_tree(d):
    """YARPGen's source tree, as its repository lays it out."""
    return all(os.path.exists(os.path.join(d, f)) for f in ("CMakeLists.txt", "src", "README.md"))


def split_source(source):
    """URL[@REV] -> (URL, REV), each defaulted. The @ of an scp-like URL
    (git@host:path) is not a revision: a revision has no / or :."""
    url, at, rev = source.rpartition("@")
    if not at or "/" in rev or ":" in rev:
        url, rev = source, ""
    return url or YARPGEN_URL, rev or YARPGEN_REV


def fetch_yarpgen(args):
    """--yarpgen-fetch [URL][@REV]: make --yarpgen-dir DIR hold a built
    YARPGen. A tree already built is used as it is; a missing or empty DIR
    gets a clone of URL (default YARPGEN_URL) checked out at REV (default
    YARPGEN_REV, the commit of the ledger's streams, so that a seed means
    the same program to everyone); a YARPGen source tree is built (CMake,
    Release, into DIR/build). Anything else in DIR is left alone: an error.
    Returns the binary or exits with the reason."""
    d = getattr(args, "yarpgen_dir", None) or os.environ.get("YARPGEN_DIR")
    if not d:
        raise SystemExit("difftest: --yarpgen-fetch needs the directory to fetch into: "
                         "--yarpgen-dir DIR or YARPGEN_DIR=DIR")
    d = os.path.abspath(d)
    exe = find_yarpgen(d)
    if exe:
        log("yarpgen: already built: %s" % exe)
        return exe
    url, rev = split_source(args.yarpgen_fetch)
    if not os.path.isdir(d) or not os.listdir(d):
        for what, cmd in (("clone", ["git", "clone", "--quiet", url, d]),
                          ("checkout", ["git", "-C", d, "checkout", "--quiet", "--detach", rev])):
            r = run(cmd, timeout=600)
            if not r.ok:
                raise SystemExit("difftest: yarpgen: git %s of %s failed: %s"
                                 % (what, url if what == "clone" else rev,
                                    (r.err.strip().splitlines() or ["timed out"])[-1]))
        head = run(["git", "-C", d, "rev-parse", "HEAD"], timeout=60).out.strip()
        log("yarpgen: fetched %s at %s into %s" % (url, head or rev, d))
    elif not _is_source_tree(d):
        raise SystemExit("difftest: yarpgen: %s is neither empty, a built YARPGen nor its source "
                         "tree; not touching it" % d)
    b = os.path.join(d, "build")
    for what, cmd in (("configure", ["cmake", "-S", d, "-B", b, "-DCMAKE_BUILD_TYPE=Release"]),
                      ("build", ["cmake", "--build", b, "--target", "yarpgen", "-j", str(args.jobs)])):
        r = run(cmd, timeout=3600)
        if not r.ok:
            tail = "\n".join((r.out + r.err).strip().splitlines()[-15:]) or "timed out"
            raise SystemExit("difftest: yarpgen: cmake %s in %s failed:\n%s" % (what, b, tail))
    exe = find_yarpgen(d)
    if not exe:
        raise SystemExit("difftest: yarpgen: the build in %s made no yarpgen binary" % b)
    log("yarpgen: built %s" % exe)
    return exe


def selected_variants(args):
    return programs.selected_variants(args, extra=SPLIT_VARIANTS, quick=QUICK, pool=False)


def language(args, seed):
    """--yarpgen-std c, c++, or both (the default): C for even seeds, C++
    for odd ones."""
    std = getattr(args, "yarpgen_std", None) or "both"
    return std if std != "both" else ("c" if seed % 2 == 0 else "c++")


def run_yarpgen(args, tools, summary, workroot):
    exe = fetch_yarpgen(args) if args.yarpgen_fetch is not None else yarpgen_binary(args)
    tools.check(need_qemu=(args.arch == "aarch64"))
    selected_variants(args)  # unknown names fail here, not in every worker
    v = run([exe, "--version"], timeout=30)
    log("yarpgen: %s (%s)" % ((v.out.strip().splitlines() or ["version unknown"])[0], exe))
    seeds = [args.seed + i for i in range(args.yarpgen)]
    parallel(args.jobs, functools.partial(check_program, args, tools, workroot, exe), seeds, summary)


def source_functions(texts):
    """The functions the units declare or define (source names), main aside."""
    names = []
    for text in texts:
        for line in text.splitlines():
            m = DECL.match(line)
            if m and m.group(2) != "main" and m.group(2) not in names:
                names.append(m.group(2))
    return names


def add_attributes(text, chosen, noinline):
    """preserve_none (and noinline) on every declaration of the chosen
    functions: each unit declares what it calls, and they must agree."""
    out = []
    for line in text.splitlines():
        m = DECL.match(line)
        if m and m.group(2) in chosen:
            attr = "preserve_none, noinline" if m.group(2) in noinline else "preserve_none"
            line = "__attribute__((%s)) %s" % (attr, line)
        out.append(line)
    return "\n".join(out) + "\n"


def build(clang, unit_flags, link_flags, exe, d, tag):
    """Compile each (source, flags) unit, then link: the first failing
    command's result, or the link's."""
    objs = []
    for src, flags in unit_flags:
        obj = os.path.join(d, "%s-%s.o" % (tag, os.path.splitext(os.path.basename(src))[0]))
        r = run_tool([clang] + flags + ["-c", src, "-o", obj], timeout=300)
        if not r.ok:
            return r
        objs.append(obj)
    return run_tool([clang] + link_flags + objs + ["-o", exe], timeout=300)


def failure_dir(args):
    if args.keep:
        return None  # the work directory is kept anyway
    return os.path.join(tempfile.gettempdir(), "difftest-yarpgen-failures")


def check_program(args, tools, workroot, exe_yarpgen, seed, summary):
    """One YARPGen program against every variant. Returns (None, [])."""
    arch = args.arch
    slow = 4 if arch == "aarch64" else 1
    lang = language(args, seed)
    ext, driver_name = LANGS[lang]
    cacs = os.path.join(os.path.dirname(tools.cacs_clang), driver_name)
    stock = tools.tool(driver_name)
    target = tools.arch_flags(arch)
    common = YARPGEN_CFLAGS + target
    verify = ["-fverify-intermediate-code", "-mllvm", "-verify-machineinstrs"]
    variants = [v for v in selected_variants(args) if programs.applies(v, arch, tools.llvm)]
    extra = os.environ.get("DIFFTEST_EXTRA_CACS_FLAGS", "").split()
    what = "yarpgen seed %d (%s, %s)" % (seed, lang, arch)
    d = os.path.join(workroot, "yarpgen-%s-%s-seed%d" % (arch, ext, seed))
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    r = run([exe_yarpgen, "--std=" + lang, "--seed=%d" % seed, "--out-dir=" + d], timeout=120, cwd=d)
    units = [os.path.join(d, "%s.%s" % (n, ext)) for n in ("func", "driver")]
    if not r.ok or not all(os.path.exists(u) for u in units):
        summary.skipped += 1
        log("SKIP %s: yarpgen failed: %s" % (what, (r.err.strip().splitlines() or ["?"])[-1]))
        return None, []
    texts = {u: open(u).read() for u in units}
    # What the -O0 IR defines, by symbol (mangled in C++), for the lists.
    defined = []
    for u in units:
        ir = run([stock, "-O0", "-S", "-emit-llvm", "-o", "-"] + common + [u], timeout=120).out
        defined += [n for link, n in DEFINE.findall(ir) if "linkonce" not in link and n != "main"]
    funcs = source_functions(texts.values())
    rng = random.Random("yarpgen-%d-%s-%s" % (seed, lang, arch))
    listed = sorted(rng.sample(defined, rng.randint(1, max(1, len(defined) * 2 // 3)))) if defined else []
    attred = sorted(rng.sample(funcs, rng.randint(1, max(1, len(funcs) // 2)))) if funcs else []
    noinline = set(n for n in attred if rng.random() < 0.5)
    list_file, glob_file = programs.write_lists(d, "difftest yarpgen seed %d" % seed, listed, len(defined),
                                                [n + "*" for n in sorted(defined)])
    sources = {}
    for kind, chosen, ni in (("attr", set(attred), noinline), ("attr-all", set(funcs), set(funcs))):
        sources[kind] = []
        for u in units:
            path = os.path.join(d, "%s-%s" % (kind, os.path.basename(u)))
            with open(path, "w") as f:
                f.write(add_attributes(texts[u], chosen, ni))
            sources[kind].append(path)
    sources["plain"] = units

    ref = os.path.join(d, "ref")
    r = build(stock, [(u, ["-O0"] + common) for u in units], ["-O0"] + target, ref, d, "ref")
    if not r.ok and RELOC_OVERFLOW.search(r.err):
        # Data past the small code model's reach: build everything in the
        # large code model, as YARPGen's own scripts do; the variants then
        # check cacs's calls there too (callee addresses in a register the
        # convention may also pass arguments in).
        log("%s: data past the small code model: every build with %s"
            % (what, " ".join(LARGE_MODEL[arch])))
        target = target + LARGE_MODEL[arch]
        common = common + LARGE_MODEL[arch]
        r = build(stock, [(u, ["-O0"] + common) for u in units], ["-O0"] + target, ref, d, "ref")
    if not r.ok:
        summary.skipped += 1
        log("SKIP %s: reference does not compile: %s" % (what, (r.err.strip().splitlines() or ["?"])[-1]))
        return None, []
    r = run(tools.run_prefix(arch) + [ref], timeout=10 * slow, cwd=d)
    if r.timeout or r.rc != 0 or not re.fullmatch(r"\d+\n", r.out):
        summary.skipped += 1
        log("SKIP %s: reference run %s" % (what, "timed out" if r.timeout else "failed: %r" % r.out[-60:]))
        return None, []
    expected = programs.outcome(r)
    run_limit = max(5 * slow, 5 * r.secs)
    stock_outputs = {}

    def stock_output(vsrcs, level):
        key = (tuple(vsrcs), level)
        if key not in stock_outputs:
            exe = os.path.join(d, "stock" + level)
            rr = build(stock, [(u, [level] + common) for u in vsrcs], [level] + target, exe, d,
                       "stock" + level)
            stock_outputs[key] = (programs.outcome(run(tools.run_prefix(arch) + [exe], timeout=run_limit,
                                                       cwd=d)) if rr.ok else None)
        return stock_outputs[key]

    def variant_build(name, flags, kind, vsrcs, exe, more=(), link_more=()):
        unit = flags + common + verify + list(more)
        link = flags + target + list(link_more)
        if "-flto" in flags:
            link = link + ["-Wl,-mllvm,-verify-machineinstrs"]
        if kind == "plain-2tu":
            # The generated code with the variant, the driver built
            # without cacs flags, a full-LTO link (as csmith's lto-2tu).
            return build(cacs, [(vsrcs[0], unit), (vsrcs[1], ["-O0", "-flto"] + common + list(more))],
                         ["-O2", "-flto"] + target + ["-Wl,-mllvm,-verify-machineinstrs"] + list(link_more),
                         exe, d, name)
        if kind == "plain-split":
            return build(cacs, [(vsrcs[0], unit), (vsrcs[1], [programs.opt_level(flags)] + common + verify
                                                   + list(more))], link, exe, d, name)
        return build(cacs, [(u, unit) for u in vsrcs], link, exe, d, name)

    bad = upstream = 0
    for name, vflags, kind in variants:
        flags = [f.replace("@LIST", list_file).replace("@GLOB", glob_file) for f in vflags] + extra
        vsrcs = sources["attr-all" if kind == "attr-all" else "attr" if kind == "attr" else "plain"]
        exe = os.path.join(d, "v-" + name)
        vwhat = "%s variant %s" % (what, name)
        r = variant_build(name, flags, kind, vsrcs, exe)
        failure = None
        level = programs.opt_level(flags)
        if not r.ok:
            failure = programs.compile_failure(r)
        else:
            rr = run(tools.run_prefix(arch) + [exe], timeout=run_limit, cwd=d, longer=run_limit * 4)
            failure = programs.judge_run(rr, expected, lambda: stock_output(vsrcs, level), summary,
                                         vwhat, level)
            if failure == "upstream":
                upstream += 1
                continue
        if failure is not None and arch == "aarch64" and not failure[0].startswith("compile"):
            nofi = ["-mllvm", "-fast-isel=false"]
            exe2 = exe + "-nofastisel"
            r2 = variant_build(name + "-nofastisel", flags, kind, vsrcs, exe2, more=nofi,
                               link_more=["-Wl,-mllvm,-fast-isel=false"] if "-flto" in flags else [])
            if r2.ok and programs.outcome(run(tools.run_prefix(arch) + [exe2], timeout=run_limit * 4,
                                              cwd=d)) == expected:
                failure = programs.known_fastisel_failure(summary, vwhat, failure)
        if failure is None:
            summary.add_pass()
            continue
        bad += 1
        summary.add_fail(vwhat, failure[0], failure[1])
    if bad:
        keep = failure_dir(args)
        kept = d
        if keep:
            kept = os.path.join(keep, os.path.basename(d))
            shutil.rmtree(kept, ignore_errors=True)
            shutil.copytree(d, kept)
        log("  %s: kept in %s (not reduced: scripts/difftest --yarpgen 1 --seed %d --yarpgen-std %s "
            "--arch %s --llvm %s --variants NAME --keep DIR rebuilds it)"
            % (what, kept, seed, lang, arch, tools.llvm))
    elif not args.keep:
        shutil.rmtree(d, ignore_errors=True)
    log("%s: %d functions, %d listed, %d attributed, %d/%d variants ok%s" % (
        what, len(defined), len(listed), len(attred), len(variants) - bad - upstream, len(variants),
        ", %d as stock clang (upstream)" % upstream if upstream else ""))
    return None, []
