"""--programs: csmith programs, stock clang -O0 against cacs variants."""

import os
import random
import re
import shutil

from . import reduce as reducer
from .common import CSMITH_INCLUDE, apt_install, failure_signature, log, run, run_tool

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
# --quick (the lit slice): fewer variants, still covering each feature.
QUICK = {"O2", "O0-list-apn", "O2-noinline-list-apn", "O2-attr-apn", "lto-2tu"}

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


def build_two_tus(tools, flags, common, src, exe, d, link_extra=()):
    wrapper = os.path.join(d, "main-wrapper.c")
    with open(wrapper, "w") as f:
        f.write("int csmith_main(int, char **);\n"
                "int main(int argc, char **argv) { return csmith_main(argc, argv); }\n")
    o1, o2 = os.path.join(d, "tu1.o"), os.path.join(d, "tu2.o")
    r = run_tool([tools.cacs_clang] + flags + common + ["-Dmain=csmith_main", "-c", src, "-o", o1],
                 timeout=300)
    if not r.ok:
        return r
    r = run_tool([tools.cacs_clang, "-O0", "-flto", "-c", wrapper, "-o", o2]
                 + [c for c in common if c.startswith("--target")], timeout=300)
    if not r.ok:
        return r
    return run_tool([tools.cacs_clang, "-O2", "-flto", o1, o2, "-o", exe,
                     "-Wl,-mllvm,-verify-machineinstrs"] + list(link_extra) + [c for c in common if c.startswith("--target")],
                    timeout=300)


def known_fastisel(tools, flags, common, vsrc, src, exe, d, kind, cmd, arch, expected, run_limit):
    """Whether a failing AArch64 variant is the known FastISel bug: it
    passes when built again with FastISel off (in the compile and in an LTO
    link)."""
    nofi = ["-mllvm", "-fast-isel=false"]
    exe2 = exe + "-nofastisel"
    if kind == "plain-2tu":
        r = build_two_tus(tools, flags + nofi, common, src, exe2, d,
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


def run_programs(args, tools, summary, workroot):
    ensure_csmith()
    arch = args.arch
    tools.check(need_qemu=(arch == "aarch64"))
    base = args.seed
    slow = 4 if arch == "aarch64" else 1
    common = ["-w", "-I" + CSMITH_INCLUDE] + tools.arch_flags(arch)
    verify = ["-fverify-intermediate-code", "-mllvm", "-verify-machineinstrs"]
    variants = [v for v in VARIANTS if not args.quick or v[0] in QUICK]
    # For testing the harness itself (its failure, reduction and regression
    # path): flags added to every cacs compile.
    extra = os.environ.get("DIFFTEST_EXTRA_CACS_FLAGS", "").split()
    for i in range(args.programs):
        seed = base + i
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
            continue
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
        list_file = os.path.join(d, "funcs.list")
        with open(list_file, "w") as f:
            f.write("# difftest seed %d: %d of %d functions\n" % (seed, len(listed), len(defined)))
            f.write("".join("fun:%s\n" % n for n in listed))
        attr_src = os.path.join(d, "prog-attr.c")
        with open(attr_src, "w") as f:
            f.write(add_attributes(text, set(attred), set(n for n in attred if rng.random() < 0.5)))

        ref = os.path.join(d, "ref")
        r = run([tools.stock_clang, "-O0"] + common + [src, "-o", ref], timeout=120)
        if not r.ok:
            summary.skipped += 1
            log("SKIP %s: reference does not compile: %s" % (what, (r.err.strip().splitlines() or ["?"])[-1]))
            continue
        r = run(tools.run_prefix(arch) + [ref], timeout=10 * slow, cwd=d)
        if r.timeout or r.rc != 0 or "checksum" not in r.out:
            summary.skipped += 1
            log("SKIP %s: reference run %s" % (what, "timed out" if r.timeout else "failed"))
            continue
        expected = outcome(r)
        run_limit = max(5 * slow, 5 * r.secs)

        bad = 0
        for name, vflags, kind in variants:
            flags = [f.replace("@LIST", list_file) for f in vflags] + extra
            vsrc = attr_src if kind == "attr" else src
            exe = os.path.join(d, "v-" + name)
            cmd = [tools.cacs_clang] + flags + common + verify + [vsrc, "-o", exe]
            if "-flto" in flags:
                cmd += ["-Wl,-mllvm,-verify-machineinstrs"]
            vwhat = "%s variant %s" % (what, name)
            if kind == "plain-2tu":
                r = build_two_tus(tools, flags, common + verify, src, exe, d)
            else:
                r = run_tool(cmd, timeout=300)
            failure = None
            if not r.ok:
                kind_ = "compile-timeout" if r.timeout else "compile-failure"
                failure = (kind_, failure_signature(r.err) or r.err.strip()[-300:])
            else:
                rr = run(tools.run_prefix(arch) + [exe], timeout=run_limit, cwd=d)
                if rr.timeout:  # the machine may just be busy: once more, longer
                    rr = run(tools.run_prefix(arch) + [exe], timeout=run_limit * 4, cwd=d)
                got = outcome(rr)
                if got != expected:
                    kind_ = "timeout" if rr.timeout else ("crash" if rr.rc < 0 or rr.rc >= 128 else "mismatch")
                    failure = (kind_, "expected %r got %r" % (expected.strip()[-60:], got.strip()[-60:]))
            if failure is not None and arch == "aarch64" and not failure[0].startswith("compile"):
                known = known_fastisel(tools, flags, common + verify, vsrc, src, exe, d, kind,
                                       cmd, arch, expected, run_limit)
                if known:
                    # Fixed in cacs (f9b815e); if it is back, say which bug
                    # it is, and still fail.
                    summary.known.append("%s: %s" % (vwhat, failure[0]))
                    failure = (failure[0], failure[1] + "; passes with -fast-isel=false: the AArch64 "
                               "FastISel preserve_none bug is back (test/Reliability/aarch64-optnone-*.c)")
            if failure is None:
                summary.add_pass()
                continue
            bad += 1
            summary.add_fail(vwhat, failure[0], failure[1])
            info = dict(seed=seed, arch=arch, variant=name, flags=flags, kind=failure[0],
                        detail=failure[1], src=vsrc, llvm=tools.llvm,
                        list_file=list_file if any("@LIST" in f for f in vflags) else None)
            if args.reduce and kind == "plain-2tu":
                log("  reduce: not for the two-TU variant; reproduce with --keep")
            elif args.reduce:
                reducer.reduce_and_save(info, tools, d, args)
        if bad == 0 and not args.keep:
            shutil.rmtree(d, ignore_errors=True)
        log("%s: %d functions, %d listed, %d attributed, %d/%d variants ok" % (
            what, len(funcs), len(listed), len(attred), len(variants) - bad, len(variants)))
