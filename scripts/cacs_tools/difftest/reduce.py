"""Reduce a failing csmith program with cvise (or creduce) and save it as a
lit regression test under test/Reliability/regressions/ (or --regression-dir).
The two-TU variant is reduced and saved as two TUs too: its build commands
come from twotu.two_tu_commands."""

import os
import shlex
import shutil
import stat

from .common import CSMITH_INCLUDE, apt_install, log, regression_dir, run, shown
from .twotu import MAIN_PROTO, MAIN_WRAPPER, two_tu_commands, write_two_tu_files

# Warnings that mean the reducer has introduced undefined behaviour.
UB_WARNINGS = ["-Werror=implicit-int", "-Werror=implicit-function-declaration",
               "-Werror=return-type", "-Werror=uninitialized",
               "-Werror=sometimes-uninitialized", "-Werror=int-conversion",
               "-Werror=incompatible-pointer-types", "-Werror=array-bounds",
               "-Werror=int-to-pointer-cast", "-Werror=pointer-to-int-cast",
               "-Werror=null-dereference", "-Werror=return-stack-address",
               "-Werror=main-return-type", "-Werror=excess-initializers",
               "-Werror=incompatible-function-pointer-types"]


def reducer_cmd():
    for tool in ("cvise", "creduce"):
        if shutil.which(tool):
            return tool
    apt_install(["cvise"])
    return "cvise" if shutil.which("cvise") else None


def _q(args):
    return " ".join(shlex.quote(a) for a in args)


def cacs_build(info, tools, af, out, verify):
    """The cacs build of red.c (of %s in the regression test) as shell
    command lines: one compile, or the two TUs and their LTO link, whose
    helper files (header, wrapper) are written next to the reduction."""
    regression = out.startswith("%")
    clang = "%clang" if regression else tools.cacs_clang
    src = "%s" if regression else "red.c"
    cflags = ["-w"] + (["-fverify-intermediate-code", "-mllvm", "-verify-machineinstrs"] if verify else [])
    if not info["two_tu"]:
        return [_q([clang] + info["flags"] + af + cflags + [src, "-o", out])], []
    if regression:
        files = ["%t.main.h", "%t.wrapper.c", "%t.tu1.o", "%t.tu2.o"]
        pre = ["printf '%s' > %s" % (_printf_text(text), path)
               for text, path in ((MAIN_PROTO, files[0]), (MAIN_WRAPPER, files[1]))]
    else:
        files = [info["proto"], info["wrapper"], "tu1.o", "tu2.o"]
        pre = []
    return [_q(c) for c in two_tu_commands(clang, info["flags"], cflags, af, src, files, out)], pre


def _printf_text(text):
    assert "%" not in text and "'" not in text and "\\" not in text
    return text.replace("\n", "\\n")


def interestingness(info, tools, workdir):
    """A shell script, run in cvise's copy of the directory, that succeeds
    while red.c still shows the failure."""
    arch = info["arch"]
    af = tools.arch_flags(arch)
    runp = _q(tools.run_prefix(arch))
    lines = ["#!/bin/bash", "ulimit -t 60; ulimit -c 0"]
    # Still a valid program for the stock compiler, without new UB warnings.
    lines.append("%s -O0 -w %s %s -c red.c -o /dev/null >/dev/null 2>&1 || exit 1"
                 % (shlex.quote(tools.stock_clang), _q(af), _q(UB_WARNINGS)))
    if info["kind"].startswith("compile"):
        build, _ = cacs_build(info, tools, af, "v.out", verify=True)
        lines.append("{ %s; } > log 2>&1 && exit 1" % " && ".join(build))
        sig = info["detail"].splitlines()[0][:100] if info["detail"] else ""
        if sig:
            lines.append("grep -qF -- %s log" % shlex.quote(sig))
        return "\n".join(lines) + "\n"
    if arch == "x86_64":
        # No UB the sanitizers can see, on the host.
        lines.append("%s -O1 -w -fsanitize=address,undefined -fno-sanitize-recover=all red.c -o san "
                     ">/dev/null 2>&1 || exit 1" % shlex.quote(tools.stock_clang))
        lines.append("timeout 10 ./san >/dev/null 2>&1 || exit 1")
    lines.append("%s -O0 -w %s red.c -o ref >/dev/null 2>&1 || exit 1"
                 % (shlex.quote(tools.stock_clang), _q(af)))
    lines.append("timeout 10 %s ./ref > ref.out 2>/dev/null; echo \"exit=$?\" >> ref.out" % runp)
    lines.append("grep -q '^exit=124$' ref.out && exit 1")
    build, _ = cacs_build(info, tools, af, "v", verify=True)
    lines.append("{ %s; } >/dev/null 2>&1 || exit 1" % " && ".join(build))
    lines.append("timeout 10 %s ./v > v.out 2>/dev/null; echo \"exit=$?\" >> v.out" % runp)
    lines.append("! cmp -s ref.out v.out")
    return "\n".join(lines) + "\n"


def reduce_and_save(info, tools, workdir, args):
    tool = reducer_cmd()
    rdir = os.path.join(workdir, "reduce-" + info["variant"])
    os.makedirs(rdir, exist_ok=True)
    red = os.path.join(rdir, "red.c")
    # A self-contained file: preprocess csmith.h in.
    r = run([tools.stock_clang, "-E", "-P", "-I" + CSMITH_INCLUDE] + tools.arch_flags(info["arch"])
            + [info["src"], "-o", red], timeout=60)
    if not r.ok:
        log("  reduce: cannot preprocess: %s" % r.err.strip()[-200:])
        return None
    script = os.path.join(rdir, "test.sh")
    # The list file is referenced by absolute path; copy it next to the work.
    if info["list_file"]:
        lst = os.path.join(rdir, "funcs.list")
        shutil.copy(info["list_file"], lst)
        info = dict(info, flags=[f.replace(info["list_file"], lst) for f in info["flags"]])
    if info["two_tu"]:
        proto, wrapper, _, _ = write_two_tu_files(rdir)
        info = dict(info, proto=proto, wrapper=wrapper)
    with open(script, "w") as f:
        f.write(interestingness(info, tools, rdir))
    os.chmod(script, os.stat(script).st_mode | stat.S_IXUSR)
    chk = run(["bash", script], cwd=rdir, timeout=300)
    if chk.rc != 0:
        # Flaky (a tool rebuilt under us, a load-dependent timeout) or lost in
        # preprocessing: nothing trustworthy to save. The failure still counts.
        log("  reduce: the failure does not reproduce on the preprocessed file (%s); not saved" % rdir)
        return None
    if tool:
        log("  reduce: %s (budget %ds) ..." % (tool, args.reduce_budget))
        cmd = ["timeout", "-s", "INT", str(args.reduce_budget), tool]
        if tool == "cvise":
            # Reductions run while the -j workers wait: give it their cores.
            cmd += ["--n", str(max(1, args.jobs)), "--timeout", "60"]
        cmd += [script, os.path.basename(red)]  # cvise wants no folder here
        r = run(cmd, cwd=rdir, timeout=args.reduce_budget + 120)
        if "Traceback" in r.err or "error" in r.err.lower().split("\n")[-1:][0]:
            log("  reduce: %s said: %s" % (tool, r.err.strip()[-300:]))
        if run(["bash", script], cwd=rdir, timeout=300).rc != 0:
            log("  reduce: reduced file lost the failure; keeping the last good one")
            if os.path.exists(red + ".orig"):
                shutil.copy(red + ".orig", red)
    else:
        log("  reduce: no cvise/creduce; saving the preprocessed program unreduced")
    return save_regression(info, open(red).read(), tools, args)


def save_regression(info, source, tools, args):
    outdir = regression_dir(args)
    os.makedirs(outdir, exist_ok=True)
    name = "difftest-%s-seed%d-%s.c" % (info["arch"], info["seed"], info["variant"])
    path = os.path.join(outdir, name)
    aarch = info["arch"] == "aarch64"
    runp = "%run_aarch64 " if aarch else ""
    flags = []
    pre = []
    for f in info["flags"]:
        if f.startswith("-fpreserve-none-list="):
            names = [l.strip() for l in open(f.split("=", 1)[1]) if l.startswith("fun:")]
            pre.append("// RUN: printf '%s\\n' > %%t.list" % "\\n".join(names))
            flags.append("-fpreserve-none-list=%t.list")
        else:
            flags.append(f)
    info = dict(info, flags=flags)
    env = "DIFFTEST_EXTRA_CACS_FLAGS=%s " % shlex.quote(" ".join(info["extra"])) if info["extra"] else ""
    hdr = ["// difftest regression: csmith seed %d, %s, variant %s, LLVM %s."
           % (info["seed"], info["arch"], info["variant"], info["llvm"]),
           "// Found as: %s: %s" % (info["kind"], info["detail"].splitlines()[0][:150] if info["detail"] else ""),
           "// Reproduce: %sscripts/difftest --programs 1 --seed %d --arch %s --llvm %s --variants %s"
           % (env, info["seed"], info["arch"], info["llvm"], info["variant"]),
           "// Expected to fail until fixed; then delete the XFAIL line.",
           "// XFAIL: *",
           "// REQUIRES: llvm-%s%s" % (info["llvm"], ", qemu-aarch64" if aarch else "")]
    hdr += pre
    af = ["%aarch64_flags"] if aarch else []
    if info["kind"].startswith("compile"):
        build, files = cacs_build(info, tools, af, "%t", verify=True)
        hdr += ["// RUN: " + c for c in files + build]
    else:
        build, files = cacs_build(info, tools, af, "%t.cacs", verify=False)
        hdr += ["// RUN: " + c for c in files]
        hdr.append("// RUN: %%stock_clang -O0 -w%s %%s -o %%t.ref" % "".join(" " + a for a in af))
        hdr.append("// RUN: %s%%t.ref > %%t.ref.out; echo \"exit=$?\" >> %%t.ref.out" % runp)
        hdr += ["// RUN: " + c for c in build]
        hdr.append("// RUN: %s%%t.cacs > %%t.cacs.out; echo \"exit=$?\" >> %%t.cacs.out" % runp)
        hdr.append("// RUN: diff %t.ref.out %t.cacs.out")
    with open(path, "w") as f:
        f.write("\n".join(hdr) + "\n\n" + source)
    log("  saved %s" % shown(path))
    return path
