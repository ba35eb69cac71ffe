"""--real lua: Lua 5.4 from Debian source, stock build against cacs builds.

Builds (each from the same sources, all of src/*.c but luac.c):
  stock        stock clang -O2, per TU
  cacs-apn     cacs -O2 -fauto-preserve-none, per TU
  cacs-list    cacs -O2 -fauto-preserve-none -fpreserve-none-list=<internal>
               per TU; <internal> names every function the stock objects
               define except the public API (lua_*, luaL_*, luaopen_*) and
               main: Lua's internal luaX_* functions and all static ones
  cacs-all     the same with a list of every function but main (API and
               library functions too: the address-taken ones get C-entry
               thunks)
  cacs-lto     cacs -O2 -flto -fauto-preserve-none with the <internal> list
Each runs the Lua scripts in scripts/difftest-lib/lua/ (coroutines,
pcall/error, the interpreter in general); their output must equal the
stock build's. (Debian's source package does not carry Lua's own test
suite.)
"""

import glob
import os
import re
import shutil

from .common import ROOT, log, run, run_tool

SCRIPTS = os.path.join(ROOT, "scripts", "difftest-lib", "lua")
CACHE = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "cacs-difftest")
DEB_SRC = "/etc/apt/sources.list.d/cacs-deb-src.sources"


def fetch_lua():
    """The Lua 5.4 source tree (cached), via apt-get source."""
    found = glob.glob(os.path.join(CACHE, "lua5.4-*", "src", "lvm.c"))
    if found:
        return os.path.dirname(os.path.dirname(found[0]))
    os.makedirs(CACHE, exist_ok=True)
    have_src = any("deb-src" in open(p).read() for p in
                   glob.glob("/etc/apt/sources.list.d/*.sources") + glob.glob("/etc/apt/sources.list*")
                   if os.path.isfile(p))
    if not have_src:
        base = "/etc/apt/sources.list.d/debian.sources"
        if os.geteuid() != 0 or not os.path.exists(base):
            log("difftest: no deb-src entry and cannot add one")
            return None
        text = open(base).read()
        with open(DEB_SRC, "w") as f:
            f.write(re.sub(r"^Types: deb$", "Types: deb-src", text, flags=re.M))
        log("difftest: added %s (deb-src)" % DEB_SRC)
        run(["apt-get", "update", "-qq"], timeout=600)
    r = run(["apt-get", "source", "-qq", "lua5.4"], cwd=CACHE, timeout=600)
    found = glob.glob(os.path.join(CACHE, "lua5.4-*", "src", "lvm.c"))
    if not found:
        log("difftest: apt-get source lua5.4 failed: %s" % (r.err.strip()[-300:]))
        return None
    return os.path.dirname(os.path.dirname(found[0]))


def build(name, cc, flags, srcdir, outdir, link_flags=()):
    # flags carry --target for aarch64.
    """Compile per TU and link; returns the executable or an error text."""
    os.makedirs(outdir, exist_ok=True)
    objs = []
    for c in sorted(glob.glob(os.path.join(srcdir, "*.c"))):
        if os.path.basename(c) == "luac.c":
            continue
        o = os.path.join(outdir, os.path.basename(c)[:-2] + ".o")
        r = run_tool([cc] + flags + ["-DLUA_USE_LINUX", "-std=gnu99", "-c", c, "-o", o], timeout=600)
        if not r.ok:
            return None, "%s: compiling %s failed: %s" % (name, os.path.basename(c), r.err.strip()[-500:])
        if r.err.strip():
            log("  %s: %s: %s" % (name, os.path.basename(c), r.err.strip().splitlines()[0]))
        objs.append(o)
    exe = os.path.join(outdir, "lua")
    r = run_tool([cc] + flags + list(link_flags) + objs + ["-o", exe, "-lm", "-ldl"], timeout=600)
    if not r.ok:
        return None, "%s: link failed: %s" % (name, r.err.strip()[-500:])
    return exe, None


def defined_functions(objdir, tools):
    names = []
    for o in sorted(glob.glob(os.path.join(objdir, "*.o"))):
        r = run([tools.tool("llvm-nm"), "--defined-only", o], timeout=60)
        for line in r.out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in ("T", "t"):
                names.append(parts[2])
    return sorted(set(names))


def run_lua(args, tools, summary, workroot):
    tools.check()
    src = fetch_lua()
    if src is None:
        summary.skipped += 1
        log("SKIP real lua: no source (apt-get source lua5.4 failed)")
        return
    srcdir = os.path.join(src, "src")
    d = os.path.join(workroot, "real-lua-" + args.arch)
    os.makedirs(d, exist_ok=True)
    # Debian's luaconf.h includes a header its debian/rules generates.
    mah = os.path.join(srcdir, "lua5.4-deb-multiarch.h")
    if not os.path.exists(mah):
        with open(mah, "w") as f:
            f.write('#ifndef DEB_HOST_MULTIARCH\n#define DEB_HOST_MULTIARCH "x86_64-linux-gnu"\n#endif\n')
    log("real lua: source %s" % src)
    af = tools.arch_flags(args.arch)
    runp = tools.run_prefix(args.arch)
    if args.arch == "aarch64":
        tools.check(need_qemu=True)
    log("real lua: %s" % args.arch)
    stock, err = build("stock", tools.stock_clang, ["-O2", "-w"] + af, srcdir, os.path.join(d, "stock"))
    if not stock:
        summary.skipped += 1
        log("SKIP real lua: stock build failed: %s" % err)
        return
    funcs = [f for f in defined_functions(os.path.join(d, "stock"), tools)
             if "." not in f]  # no compiler-made clones (foo.cold, ...)
    internal = [f for f in funcs if f != "main" and not re.match(r"lua(L|open)?_", f)]
    everything = [f for f in funcs if f != "main"]
    lists = {}
    for lname, names in (("internal", internal), ("all", everything)):
        p = os.path.join(d, lname + ".list")
        with open(p, "w") as f:
            f.write("# difftest --real lua: %d of %d functions\n" % (len(names), len(funcs)))
            f.write("".join("fun:%s\n" % n for n in names))
        lists[lname] = p
    log("real lua: %d functions defined; internal list %d, all list %d"
        % (len(funcs), len(internal), len(everything)))
    quiet = ["-Wno-backend-plugin"]  # the list's warning about exported functions
    builds = [
        ("cacs-apn", ["-O2", "-w", "-fauto-preserve-none"] + af, ()),
        ("cacs-list", ["-O2", "-w", "-fauto-preserve-none", "-fpreserve-none-list=" + lists["internal"]] + quiet + af, ()),
        ("cacs-all", ["-O2", "-w", "-fauto-preserve-none", "-fpreserve-none-list=" + lists["all"]] + quiet + af, ()),
        ("cacs-lto", ["-O2", "-w", "-flto", "-fauto-preserve-none",
                      "-fpreserve-none-list=" + lists["internal"]] + quiet + af, ()),
    ]
    scripts = sorted(glob.glob(os.path.join(SCRIPTS, "*.lua")))
    expected = {}
    for s in scripts:
        r = run(runp + [stock, os.path.basename(s)], timeout=600, cwd=SCRIPTS)
        expected[s] = (normalized(r.out), r.rc)
        if r.rc != 0:
            log("  note: stock lua exits %d on %s: %s" % (r.rc, os.path.basename(s), r.err.strip()[-200:]))
    for name, flags, link in builds:
        exe, err = build(name, tools.cacs_clang, flags, srcdir, os.path.join(d, name), link)
        if not exe:
            summary.add_fail("real lua %s %s" % (args.arch, name), "build-failure", err)
            continue
        # How much the flags changed: preserve_none definitions in the IR of
        # two core files (for the report).
        npn = 0
        for c in ("lvm.c", "ldo.c"):
            r = run_tool([tools.cacs_clang] + [f for f in flags if f != "-flto"]
                         + ["-DLUA_USE_LINUX", "-std=gnu99", "-S", "-emit-llvm", "-o", "-",
                            os.path.join(srcdir, c)], timeout=600)
            npn += len(re.findall(r"^define [^@]*preserve_nonecc", r.out, re.M))
        log("real lua: %s built; %d preserve_none functions in lvm.c+ldo.c" % (name, npn))
        for s in scripts:
            r = run(runp + [exe, os.path.basename(s)], timeout=600, cwd=SCRIPTS)
            if (normalized(r.out), r.rc) == expected[s]:
                summary.add_pass()
            else:
                kind = "timeout" if r.timeout else ("crash" if r.rc < 0 else "mismatch")
                diff = first_difference(expected[s][0], normalized(r.out))
                summary.add_fail("real lua %s %s %s" % (args.arch, name, os.path.basename(s)), kind,
                                 "rc %d (stock %d); %s; %s" % (r.rc, expected[s][1], diff, r.err.strip()[-200:]))
    if not args.keep and summary.failed == 0:
        shutil.rmtree(d, ignore_errors=True)


# --real NAME: the function that builds and tests NAME.
PROJECTS = {"lua": run_lua}


def normalized(out):
    """Output without what differs between any two runs: addresses."""
    return re.sub(r"0x[0-9a-f]{6,}", "0xADDR", out)


def first_difference(a, b):
    la, lb = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            return "line %d: expected %r got %r" % (i + 1, x[:80], y[:80])
    if len(la) != len(lb):
        return "expected %d lines, got %d" % (len(la), len(lb))
    return "same output"
