"""--ir: random IR modules through the cacs passes and both backends.

Each module is either a random call graph (functions of random signatures and
linkage, some of them preserve_none seeds, with direct calls, tail calls,
musttail calls, invokes, variadic functions, address-taken functions, aliases,
llvm.used, dynamic allocas), or an llvm-stress body made preserve_none with a
caller. Each goes through
  opt -passes=auto-preserve-none                       (APN alone)
  opt -passes=preserve-none-list,auto-preserve-none    (a random list too)
(opt verifies its output), the checker below, and llc -verify-machineinstrs
at -O0 and -O2 for x86_64 and aarch64.

The checker (check_module) holds, over the textual IR:
 - every direct call or invoke has its callee's calling convention;
 - no variadic function became preserve_none;
 - a function whose convention changed has local linkage (APN), or was
   listed (the list pass);
 - a function whose convention changed is used only as a direct callee: its
   address is never taken (the list pass uses a C-entry thunk instead); a
   listed function may stay in llvm.used / llvm.compiler.used.
(coldcc is not generated: stock llc rejects it on AArch64 and fails the
machine verifier with it on x86-64, which says nothing about cacs.)
"""

import functools
import os
import random
import re
import shutil

from .common import (ROOT, failure_signature, log, parallel, regression_dir, run, run_tool,
                     shown)

TYPES = ["i32", "i64", "double", "ptr", "i8", "float"]
RET_TYPES = ["void", "i32", "i64", "double", "ptr"]
TRIPLES = {"x86_64": "x86_64-unknown-linux-gnu", "aarch64": "aarch64-unknown-linux-gnu"}


def const(ty, rng):
    if ty == "ptr":
        return rng.choice(["null", "@g0", "@g1"])
    if ty in ("double", "float"):
        return rng.choice(["0.0", "1.0", "-2.5", "3.0e+00"])
    return str(rng.randint(-100, 1000) if ty != "i8" else rng.randint(-100, 100))


class Fn:
    def __init__(self, idx, rng):
        self.name = "f%d" % idx
        self.ret = rng.choice(RET_TYPES)
        self.params = [rng.choice(TYPES) for _ in range(rng.choice([0, 1, 2, 3, 4, 6, 8, 13]))]
        r = rng.random()
        self.linkage = "internal" if r < 0.6 else ("" if r < 0.85 else "declare")
        self.variadic = False
        self.cc = ""
        if rng.random() < 0.25:
            self.cc = "preserve_nonecc"
        elif self.linkage == "internal" and rng.random() < 0.08:
            self.cc = "fastcc"
        if not self.cc and rng.random() < 0.08:
            self.variadic = True
            if not self.params:
                self.params = ["i32"]
        self.dynamic_alloca = rng.random() < 0.1
        self.optnone = self.linkage != "declare" and rng.random() < 0.12
        self.has_invoke = False

    @property
    def is_decl(self):
        return self.linkage == "declare"

    def fnty(self):
        ps = ", ".join(self.params + (["..."] if self.variadic else []))
        return "%s (%s)" % (self.ret, ps)

    def cc_prefix(self):
        return self.cc + " " if self.cc else ""


def gen_module(seed):
    rng = random.Random("ir-%d" % seed)
    n = rng.randint(3, 18)
    fns = [Fn(i, rng) for i in range(n)]
    triple = rng.choice(["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu"])
    out = ["; difftest --ir random call graph, seed %d" % seed,
           'target triple = "%s"' % triple,
           "@g0 = global i64 0", "@g1 = global [4 x i64] zeroinitializer",
           "@gfp = global ptr null", "declare i32 @__gxx_personality_v0(...)",
           "declare void @ext_sink(i64)", "declare void @llvm.va_start(ptr)",
           "declare void @llvm.va_end(ptr)", ""]
    used = []
    aliases = []
    for f in fns:
        if f.is_decl:
            out.append("declare %s%s @%s(%s)" % (f.cc_prefix(), f.ret, f.name,
                                                 ", ".join(f.params + (["..."] if f.variadic else []))))
            continue
        body, f_has_invoke = gen_body(f, fns, rng)
        pers = " personality ptr @__gxx_personality_v0" if f_has_invoke else ""
        params = ", ".join("%s %%p%d" % (t, i) for i, t in enumerate(f.params))
        if f.variadic:
            params += ", ..."
        fattrs = " noinline optnone" if f.optnone else ""
        out.append("define %s%s%s @%s(%s)%s%s {" % (f.linkage + " " if f.linkage else "",
                                                    f.cc_prefix(), f.ret, f.name, params, fattrs, pers))
        out.extend(body)
        out.append("}")
        if f.linkage == "internal" and rng.random() < 0.05:
            used.append(f.name)
        if rng.random() < 0.04:
            aliases.append("@%s.alias = %salias %s, ptr @%s" % (
                f.name, "internal " if f.linkage == "internal" else "", f.fnty(), f.name))
    # main: calls a few functions so that something is reachable.
    out.append("define i32 @main() {")
    out.append("entry:")
    for f in rng.sample(fns, min(3, len(fns))):
        args = ", ".join("%s %s" % (t, const(t, rng)) for t in f.params)
        ty = f.fnty() if f.variadic else f.ret
        out.append("  call %s%s @%s(%s)" % (f.cc_prefix(), ty, f.name, args))
    out.append("  ret i32 0")
    out.append("}")
    out.extend(aliases)
    if used:
        out.append("@llvm.used = appending global [%d x ptr] [%s], section \"llvm.metadata\"" % (
            len(used), ", ".join("ptr @" + u for u in used)))
    return "\n".join(out) + "\n", fns


def gen_body(f, fns, rng):
    lines = ["entry:"]
    vals = {t: [] for t in TYPES}
    for i, t in enumerate(f.params):
        vals[t].append("%%p%d" % i)
    counter = [0]
    has_invoke = False

    def fresh():
        counter[0] += 1
        return "%%v%d" % counter[0]

    def pick(t):
        if vals.get(t) and rng.random() < 0.7:
            return rng.choice(vals[t])
        return const(t, rng)

    lines.append("  %slot = alloca i64")
    if f.dynamic_alloca:
        # A truly dynamic, but small and non-negative, size (a constant
        # negative size makes a huge static frame that LLVM 22's AArch64
        # machine verifier rejects, cacs or not).
        lines.append("  %dynsz = and i64 " + (rng.choice(vals["i64"]) if vals["i64"] else "16") + ", 255")
        lines.append("  %dyn = alloca i8, i64 %dynsz")
        lines.append("  store i8 1, ptr %dyn")
    if f.variadic:
        lines.append("  %ap = alloca [32 x i8]")
        lines.append("  call void @llvm.va_start(ptr %ap)")
        lines.append("  call void @llvm.va_end(ptr %ap)")
    for _ in range(rng.randint(1, 6)):
        r = rng.random()
        if r < 0.7:
            g = rng.choice(fns)
            typed = [(t, pick(t)) for t in g.params]
            if g.variadic:
                typed += [(t, pick(t)) for t in rng.sample(["i32", "double", "i64", "ptr"], rng.randint(0, 3))]
            arglist = ", ".join("%s %s" % ta for ta in typed)
            ty = g.fnty() if g.variadic else g.ret
            tail = rng.choice(["", "", "tail "])
            res = ""
            if g.ret != "void":
                res = fresh()
            if rng.random() < 0.1:
                has_invoke = True
                k = counter[0] = counter[0] + 1
                lines.append("  %s%s %s%s @%s(%s) to label %%ok%d unwind label %%lp%d" % (
                    res + " = " if res else "", "invoke", g.cc_prefix(), ty, g.name, arglist, k, k))
                lines.append("lp%d:" % k)
                lines.append("  %%lpv%d = landingpad { ptr, i32 } cleanup" % k)
                lines.append("  resume { ptr, i32 } %%lpv%d" % k)
                lines.append("ok%d:" % k)
            else:
                lines.append("  %s%scall %s%s @%s(%s)" % (res + " = " if res else "", tail,
                                                         g.cc_prefix(), ty, g.name, arglist))
            if res:
                vals[g.ret].append(res)
        elif r < 0.8:
            g = rng.choice(fns)
            lines.append("  store ptr @%s, ptr @gfp" % g.name)
        elif r < 0.87:
            p = fresh()
            lines.append("  %s = load ptr, ptr @gfp" % p)
            lines.append("  call void %s(i64 %s)" % (p, pick("i64")))
        else:
            a, b = pick("i64"), pick("i64")
            v = fresh()
            lines.append("  %s = add i64 %s, %s" % (v, a, b))
            lines.append("  call void @ext_sink(i64 %s)" % v)
            vals["i64"].append(v)
    # musttail to a function of the same signature and convention.
    if not f.variadic and rng.random() < 0.3:
        same = [g for g in fns if g.ret == f.ret and g.params == f.params and g.cc == f.cc
                and not g.variadic]
        if same:
            g = rng.choice(same)
            args = ", ".join("%s %%p%d" % (t, i) for i, t in enumerate(f.params))
            if f.ret == "void":
                lines.append("  musttail call %svoid @%s(%s)" % (g.cc_prefix(), g.name, args))
                lines.append("  ret void")
            else:
                v = fresh()
                lines.append("  %s = musttail call %s%s @%s(%s)" % (v, g.cc_prefix(), g.ret, g.name, args))
                lines.append("  ret %s %s" % (f.ret, v))
            return lines, has_invoke
    if f.ret == "void":
        lines.append("  ret void")
    else:
        lines.append("  ret %s %s" % (f.ret, pick(f.ret)))
    return lines, has_invoke


# --- The checker -----------------------------------------------------------

DEF_RE = re.compile(r"^(define|declare)\s+(.*?)@([\w.$\"]+)\((.*)$")
CALL_RE = re.compile(r"\b(call|invoke)\s+([^@%]*?)([@%][\w.$\"-]+)\(")
CCS = ["preserve_nonecc", "preserve_mostcc", "preserve_allcc", "fastcc", "coldcc", "ghccc",
       "tailcc", "swifttailcc", "ccc"]
LINKAGES = ["private", "internal", "external", "weak", "weak_odr", "linkonce", "linkonce_odr",
            "available_externally", "extern_weak", "common"]


def _cc_of(prefix):
    toks = prefix.replace("(", " ( ").split()
    for t in toks:
        if t in CCS:
            return "" if t == "ccc" else t
        if t.startswith("cc") and t[2:].isdigit():
            return t
    m = re.search(r"\bcc (\d+)\b", prefix)
    return "cc " + m.group(1) if m else ""


def parse_functions(ir):
    fns = {}
    for line in ir.splitlines():
        m = DEF_RE.match(line)
        if not m:
            continue
        pre = m.group(2)
        linkage = next((t for t in pre.split() if t in LINKAGES), "external")
        fns[m.group(3)] = dict(cc=_cc_of(pre), linkage=linkage, variadic="..." in m.group(4).split(")")[0],
                               kind=m.group(1))
    return fns


def check_module(before, after, listed=()):
    """Violations of the invariants in the module docstring."""
    errs = []
    fb, fa = parse_functions(before), parse_functions(after)
    for line in after.splitlines():
        if line.startswith(("define", "declare")):
            continue
        for m in CALL_RE.finditer(line):
            callee = m.group(3)
            if not callee.startswith("@") or callee[1:] not in fa:
                continue
            name = callee[1:]
            if _cc_of(m.group(2)) != fa[name]["cc"]:
                errs.append("call site CC '%s' != callee @%s CC '%s': %s" % (
                    _cc_of(m.group(2)) or "ccc", name, fa[name]["cc"] or "ccc", line.strip()))
    for name, a in fa.items():
        b = fb.get(name)
        if a["variadic"] and a["cc"] == "preserve_nonecc" and not (b and b["cc"] == "preserve_nonecc"):
            errs.append("variadic @%s became preserve_none" % name)
        if b is None or b["cc"] == a["cc"]:
            continue
        if a["linkage"] not in ("internal", "private") and name not in listed:
            errs.append("@%s (%s linkage) changed CC %s -> %s" % (name, a["linkage"], b["cc"] or "ccc",
                                                                  a["cc"] or "ccc"))
        # Its only uses may be as a direct callee (and its own definition).
        for line in after.splitlines():
            if re.match(r"^(define|declare)\b", line):
                continue
            # The list pass keeps a listed function in llvm.used as it is (the
            # user asked for it); APN never takes such a function.
            if name in listed and re.match(r"^@llvm\.(compiler\.)?used = ", line):
                continue
            stripped = CALL_RE.sub(lambda m: m.group(0) if m.group(3) != "@" + name else "CALLEE(",
                                   line)
            if re.search(r"@%s\b(?![.\w])" % re.escape(name), stripped):
                errs.append("@%s changed CC but is used other than as a callee: %s" % (name, line.strip()))
                break
    # AArch64 FastISel lowers calls from optnone functions with the AAPCS
    # registers even for preserve_none callees: APN must not create such
    # calls there (the list pass is told explicitly; see
    # test/Reliability/aarch64-optnone-list.c).
    if re.search(r'^target triple = "aarch64', after, re.M):
        groups = dict(re.findall(r"^attributes (#\d+) = \{(.*)\}", after, re.M))
        current_optnone = None
        for line in after.splitlines():
            m = DEF_RE.match(line)
            if m and m.group(1) == "define":
                rest = m.group(4)
                tail = rest[rest.find(")"):]
                current_optnone = m.group(3) if (" optnone" in tail or any(
                    "optnone" in groups.get(g, "") for g in re.findall(r"#\d+", tail))) else None
                continue
            if line.startswith("}"):
                current_optnone = None
                continue
            if not current_optnone:
                continue
            for cm in CALL_RE.finditer(line):
                name = cm.group(3)[1:]
                b, a = fb.get(name), fa.get(name)
                if (a and b and a["cc"] == "preserve_nonecc" and b["cc"] != "preserve_nonecc"
                        and name not in listed):
                    errs.append("APN made @%s preserve_none but optnone @%s calls it on AArch64"
                                % (name, current_optnone))
    return errs


def stress_module(seed, tools):
    r = run([tools.tool("llvm-stress"), "-seed", str(seed), "-size", "40"], timeout=30)
    if not r.ok:
        return None
    ir = r.out
    m = re.search(r"^define void @(autogen_SD\d+)\((.*)\) \{", ir, re.M)
    if not m:
        return None
    name, params = m.group(1), m.group(2)
    ir = ir.replace("define void @%s(" % name, "define internal preserve_nonecc void @%s(" % name, 1)
    tys = [p.rsplit(" ", 1)[0] for p in params.split(", ")] if params else []
    ps = ", ".join("%s %%a%d" % (t, i) for i, t in enumerate(tys))
    args = ", ".join("%s %%a%d" % (t, i) for i, t in enumerate(tys))
    ir += ("\ndefine internal void @stress_caller(%s) {\n  call preserve_nonecc void @%s(%s)\n  ret void\n}\n"
           "define void @stress_entry(%s) {\n  call void @stress_caller(%s)\n  ret void\n}\n"
           % (ps, name, args, ps, args))
    return ir


# opt puts the list entry's location first: error: <list>:<line>:<col>: ...
LIST_REFUSAL = re.compile(r"error: .*:\d+:\d+: function '[^']+' listed here cannot be preserve_none")
CRASH = re.compile(r"PLEASE submit|Stack dump|LLVM ERROR|Assertion")


def save_ir_regression(tools, args, seed, src, pname, popts, lst, listed, kind, sig, llc=None):
    """Reduce the module with llvm-reduce (same failure signature, or any
    invariant violation) and save it under test/Reliability/regressions/."""
    import shlex
    import stat
    rdir = src[:-3] + ".reduce-" + pname + ("-%s%s" % (llc[0].split("-")[0], llc[1]) if llc else "")
    os.makedirs(rdir, exist_ok=True)
    opt = [tools.tool("opt"), "-load-pass-plugin=" + tools.passes] + popts
    difftest = os.path.join(ROOT, "scripts", "difftest")
    lines = ["#!/bin/bash", "ulimit -t 60; ulimit -c 0", 'in="$1"',
             "%s -S \"$in\" -o \"$in.out.ll\" 2> \"$in.log\"" % " ".join(shlex.quote(a) for a in opt)]
    if kind == "opt":
        lines[-1] += " && exit 1"
        lines.append("grep -qF -- %s \"$in.log\"" % shlex.quote(sig[:100]))
    elif kind == "invariant":
        lines[-1] += " || exit 1"
        lines.append("! %s --check-ir \"$in\" \"$in.out.ll\" --listed %s > /dev/null" % (
            shlex.quote(difftest), shlex.quote(",".join(listed))))
    else:
        lines[-1] += " || exit 1"
        lines.append("%s -mtriple=%s %s -verify-machineinstrs \"$in.out.ll\" -o /dev/null 2> \"$in.llc\" && exit 1"
                     % (shlex.quote(tools.tool("llc")), llc[0], llc[1]))
        lines.append("grep -qF -- %s \"$in.llc\"" % shlex.quote(sig[:100]))
    script = os.path.join(rdir, "test.sh")
    with open(script, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.chmod(script, os.stat(script).st_mode | stat.S_IXUSR)
    red = os.path.join(rdir, "reduced.ll")
    if run(["bash", script, src], cwd=rdir, timeout=300).rc != 0:
        log("  reduce: does not reproduce (%s); not saved" % rdir)
        return
    run(["timeout", str(args.reduce_budget), tools.tool("llvm-reduce"), "-j", str(max(1, args.jobs)),
         "--test=" + script, src, "-o", red], cwd=rdir, timeout=args.reduce_budget + 60)
    if not os.path.exists(red) or run(["bash", script, red], cwd=rdir, timeout=300).rc != 0:
        shutil.copy(src, red)
        log("  reduce: llvm-reduce gave nothing usable; saving the module unreduced")
    outdir = regression_dir(args)
    os.makedirs(outdir, exist_ok=True)
    name = "ir-seed%d-%s-%s%s.ll" % (seed, pname, kind, ("-%s%s" % (llc[0].split("-")[0], llc[1])) if llc else "")
    hdr = ["; difftest --ir regression: seed %d, pipeline %s, LLVM %s." % (seed, pname, tools.llvm),
           "; Found as: %s: %s" % (kind, sig.splitlines()[0][:150]),
           "; Reproduce: scripts/difftest --ir 1 --seed %d --llvm %s --keep DIR" % (seed, tools.llvm),
           "; Expected to fail until fixed; then delete the XFAIL line.",
           "; XFAIL: *", "; REQUIRES: llvm-%s" % tools.llvm]
    popts_t = [o for o in popts if not o.startswith("-cacs-preserve-none-list=")]
    if len(popts_t) != len(popts):
        names = [l.strip() for l in open(lst) if l.startswith("fun:")]
        hdr.append("; RUN: printf '%s\\n' > %%t.list" % "\\n".join(names))
        popts_t.append("-cacs-preserve-none-list=%t.list")
    hdr.append("; RUN: %%opt_cacs %s -S %%s -o %%t.ll" % " ".join(popts_t))
    if kind == "invariant":
        hdr.append("; RUN: %%cacs_src_root/scripts/difftest --check-ir %%s %%t.ll --listed '%s'" % ",".join(listed))
    elif kind == "llc":
        hdr.append("; RUN: llc -mtriple=%s %s -verify-machineinstrs %%t.ll -o /dev/null" % llc)
    path = os.path.join(outdir, name)
    with open(path, "w") as f:
        f.write("\n".join(hdr) + "\n\n" + open(red).read())
    log("  saved %s" % shown(path))


def run_llc(tools, triple, olvl, module):
    """llc -verify-machineinstrs on a module; a timeout (a busy machine) is
    given one more, longer try."""
    cmd = [tools.tool("llc"), "-mtriple=" + triple, olvl, "-verify-machineinstrs", module, "-o", "/dev/null"]
    return run(cmd, timeout=120, longer=600)


def run_ir(args, tools, summary, workroot):
    tools.check()
    d = os.path.join(workroot, "ir")
    os.makedirs(d, exist_ok=True)
    counts = parallel(args.jobs, functools.partial(check_ir_module, args, tools, d), range(args.ir), summary)
    log("ir: %d modules, %d pass runs changed conventions, %d list runs refused with a diagnostic"
        % (args.ir, sum(c[0] for c in counts), sum(c[1] for c in counts)))


def check_ir_module(args, tools, d, i, summary):
    """The i-th module through both pipelines and llc. Returns ((pass runs
    that changed conventions, list runs refused), the reductions to run
    afterwards)."""
    infected = 0
    refused = 0
    deferred = []
    seed = args.seed + i
    stress = (i % 5 == 4)
    if stress:
        ir = stress_module(seed, tools)
        if ir is None:
            summary.skipped += 1
            return (0, 0), deferred
        names = []
    else:
        ir, fns = gen_module(seed)
        names = [f.name for f in fns]
    what = "ir seed %d%s" % (seed, " (llvm-stress)" if stress else "")
    base = os.path.join(d, "m%d" % seed)
    src = base + ".ll"
    with open(src, "w") as f:
        f.write(ir)
    r = run([tools.tool("opt"), "-passes=verify", "-S", src, "-o", "/dev/null"], timeout=60)
    if not r.ok:
        # A generator bug, not a cacs one; say so loudly but do not count.
        summary.skipped += 1
        log("SKIP %s: generated module does not verify: %s" % (what, failure_signature(r.err)))
        return (0, 0), deferred
    rng = random.Random("irlist-%d" % seed)
    listed = sorted(rng.sample(names, rng.randint(1, max(1, len(names) // 2)))) if names else []
    lst = base + ".list"
    with open(lst, "w") as f:
        f.write("".join("fun:%s\n" % n for n in listed) or "fun:stress_caller\n")
    pipelines = [("apn", ["-passes=auto-preserve-none"], ()),
                 ("list-apn", ["-passes=preserve-none-list,auto-preserve-none",
                               "-cacs-preserve-none-list=" + lst], tuple(listed or ["stress_caller"]))]
    # For testing the harness's own failure path: flags added to opt.
    extra = os.environ.get("DIFFTEST_EXTRA_OPT_FLAGS", "").split()
    pipelines = [(n, o + extra, l) for n, o, l in pipelines]
    ok = True
    for pname, popts, plisted in pipelines:
        out = "%s.%s.ll" % (base, pname)
        r = run_tool([tools.tool("opt"), "-load-pass-plugin=" + tools.passes] + popts
                     + ["-S", src, "-o", out], timeout=120)
        if not r.ok and LIST_REFUSAL.search(r.err) and not CRASH.search(r.err):
            # The list named a function that cannot take the convention
            # (say, the target of a musttail call from a C function): a
            # clean diagnostic is the defined outcome.
            summary.add_pass()
            refused += 1
            continue
        if not r.ok:
            sig = failure_signature(r.err) or r.err.strip()[-300:]
            summary.add_fail("%s %s" % (what, pname), "opt-failure", sig)
            ok = False
            if args.reduce:
                deferred.append((save_ir_regression, (tools, args, seed, src, pname, popts, lst, plisted,
                                                      "opt", sig)))
            continue
        after = open(out).read()
        infected += after.count("preserve_nonecc") > ir.count("preserve_nonecc")
        errs = check_module(ir, after, plisted)
        if errs:
            summary.add_fail("%s %s" % (what, pname), "invariant", "\n".join(errs[:5]))
            ok = False
            if args.reduce:
                deferred.append((save_ir_regression, (tools, args, seed, src, pname, popts, lst, plisted,
                                                      "invariant", errs[0])))
        else:
            summary.add_pass()
        for arch, triple in TRIPLES.items():
            for olvl in ("-O0", "-O2"):
                r = run_llc(tools, triple, olvl, out)
                if r.ok:
                    summary.add_pass()
                    continue
                # Does stock llc fail the same way on the module as generated?
                r0 = run_llc(tools, triple, olvl, src)
                lwhat = "%s %s llc %s %s" % (what, pname, arch, olvl)
                sig = failure_signature(r.err) or r.err.strip()[-300:]
                ok = False
                if not r0.ok and r0.timeout == r.timeout:
                    # Stock llc on the module as generated fails (or hangs)
                    # the same way: an upstream problem, not one of cacs.
                    summary.skipped += 1
                    log("SKIP %s: stock llc %s on the generated module too: %s"
                        % (lwhat, "times out" if r.timeout else "fails", sig or "?"))
                    continue
                if r.timeout:
                    # Only after the pass: a failure, but llvm-reduce cannot
                    # work on hangs; --keep keeps the module.
                    summary.add_fail(lwhat, "llc-timeout", "llc hangs after the pass, not before")
                    continue
                note = " (stock llc times out on the input)" if not r0.ok else ""
                summary.add_fail(lwhat, "llc-failure" + note, sig)
                if args.reduce and r0.ok:
                    deferred.append((save_ir_regression, (tools, args, seed, src, pname, popts, lst, plisted,
                                                          "llc", sig, (triple, olvl))))
    if ok and not args.keep:
        for suffix in (".ll", ".list", ".apn.ll", ".list-apn.ll"):
            try:
                os.remove(base + suffix)
            except OSError:
                pass
    return (infected, refused), deferred
