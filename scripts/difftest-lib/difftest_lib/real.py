"""--real lua, --real zlib: real C projects from Debian source (apt-get
source; deb-src is added if missing; cached in ~/.cache/cacs-difftest), each
built stock and with cacs from the same sources, the cacs builds tested
against the stock one.

Builds (every translation unit of the project compiled separately, then
linked):
  stock        stock clang -O2
  cacs-apn     cacs -O2 -fauto-preserve-none
  cacs-list    cacs -O2 -fauto-preserve-none -fpreserve-none-list=<internal>;
               <internal> names every function the stock objects define but
               the project's public API and main (its share of all defined
               functions is logged)
  cacs-all     the same with a list of every function but main (API and
               library functions too: the address-taken ones get C-entry
               thunks)
  cacs-lto     cacs -O2 -flto -fauto-preserve-none with the <internal> list
--quick (the lit slice) leaves out cacs-apn.

lua    Lua 5.4 (src/*.c but luac.c). API: lua_*, luaL_*, luaopen_*; listed:
       Lua's internal luaX_* functions and all static ones. Tests: the Lua
       scripts in scripts/difftest-lib/lua/ (coroutines, pcall/error, the
       interpreter in general); their output must equal the stock build's.
       (Debian's source package does not carry Lua's own test suite.)
zlib   zlib 1.2 (the library's *.c, and its own test programs test/example.c,
       test/minigzip.c, test/infcover.c, compiled with the same flags). API:
       what zlib.h declares; listed: the static functions, the internal
       ones (_tr_*, inflate_fast, zcalloc, ...) and those of the test
       programs. Tests, each of which must exit 0 with the stock build's
       output: example (its self-checks), infcover (inflate coverage, with
       its own asserts), and minigzip round trips as `make test` does them
       (compress at several levels and strategies, decompress, compare with
       the input; the compressed bytes must equal the stock build's, zlib's
       output being deterministic) on text, binary, tiny and empty inputs.
       cacs-lto compiles infcover.c without -flto: it passes inflateInit_
       a pointer before a string literal, which LTO inlining turns into a
       trap in a stock clang -O2 -flto build as well.
--arch aarch64 cross-compiles and runs the tests under qemu-aarch64.
"""

import functools
import glob
import hashlib
import os
import random
import re
import shutil

from .common import ROOT, log, run, run_tool

SCRIPTS = os.path.join(ROOT, "scripts", "difftest-lib", "lua")
CACHE = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "cacs-difftest")
DEB_SRC = "/etc/apt/sources.list.d/cacs-deb-src.sources"


def have_deb_src():
    """Whether apt has a source-package entry (one-line or deb822 form; not
    in a comment)."""
    files = (glob.glob("/etc/apt/sources.list") + glob.glob("/etc/apt/sources.list.d/*.list")
             + glob.glob("/etc/apt/sources.list.d/*.sources"))
    for p in files:
        for line in open(p, errors="replace"):
            if re.match(r"\s*deb-src\s", line) or re.match(r"\s*Types:.*\bdeb-src\b", line):
                return True
    return False


def add_deb_src():
    """Add deb-src twins of Debian's deb822 entries (with sudo when not root)
    and update apt's lists."""
    base = "/etc/apt/sources.list.d/debian.sources"
    sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
    if not os.path.exists(base) or (sudo and not shutil.which("sudo")):
        log("difftest: no deb-src entry in apt's sources and cannot add one (%s)"
            % ("no " + base if not os.path.exists(base) else "not root, no sudo"))
        return False
    text = re.sub(r"^Types: deb$", "Types: deb-src", open(base).read(), flags=re.M)
    tmp = os.path.join(CACHE, "deb-src.sources")
    with open(tmp, "w") as f:
        f.write(text)
    r = run(sudo + ["cp", tmp, DEB_SRC], timeout=60)
    os.remove(tmp)
    if not r.ok:
        log("difftest: cannot write %s: %s" % (DEB_SRC, r.err.strip()[-200:]))
        return False
    log("difftest: added %s (deb-src)" % DEB_SRC)
    run(sudo + ["apt-get", "update", "-qq"], timeout=600)
    return True


def fetch_source(package, probe):
    """The top directory of Debian source package `package` (cached), via
    apt-get source; `probe` is a file the tree must contain."""
    def cached():
        found = glob.glob(os.path.join(CACHE, package + "-*", probe))
        return found[0][:-len(probe)].rstrip("/") if found else None
    if cached():
        return cached()
    os.makedirs(CACHE, exist_ok=True)
    if not have_deb_src() and not add_deb_src():
        return None
    r = run(["apt-get", "source", "-qq", package], cwd=CACHE, timeout=600)
    if not cached():
        log("difftest: apt-get source %s failed: %s" % (package, r.err.strip()[-300:]))
    return cached()


def build(name, cc, flags, sources, programs, outdir, link_flags=(), no_lto=()):
    """Compile each of `sources` (flags carry --target for aarch64; the
    stems in no_lto without -flto) and link `programs`, (executable, [source
    stems]) pairs; returns {executable: path} or None, and an error text."""
    os.makedirs(outdir, exist_ok=True)
    objs = {}
    for c in sources:
        stem = os.path.basename(c)[:-2]
        o = objs[stem] = os.path.join(outdir, stem + ".o")
        cflags = [f for f in flags if f != "-flto"] if stem in no_lto else flags
        r = run_tool([cc] + cflags + ["-c", c, "-o", o], timeout=600)
        if not r.ok:
            return None, "%s: compiling %s failed: %s" % (name, os.path.basename(c), r.err.strip()[-500:])
        if r.err.strip():
            log("  %s: %s: %s" % (name, os.path.basename(c), r.err.strip().splitlines()[0]))
    exes = {}
    for exe, stems in programs:
        exes[exe] = os.path.join(outdir, exe)
        r = run_tool([cc] + flags + list(link_flags) + [objs[s] for s in stems] + ["-o", exes[exe]],
                     timeout=600)
        if not r.ok:
            return None, "%s: linking %s failed: %s" % (name, exe, r.err.strip()[-500:])
    return exes, None


def defined_functions(objdir, tools):
    names = []
    for o in sorted(glob.glob(os.path.join(objdir, "*.o"))):
        r = run([tools.tool("llvm-nm"), "--defined-only", o], timeout=60)
        for line in r.out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in ("T", "t"):
                names.append(parts[2])
    return sorted(set(names))


class Lua:
    name, package, probe = "lua", "lua5.4", "src/lvm.c"
    link_flags = ("-lm", "-ldl")
    no_lto = ()
    pn_files = ("lvm.c", "ldo.c")  # counted for the log
    stock_must_pass = False  # a script may fail on purpose; stock is the reference

    def __init__(self, src):
        self.srcdir = os.path.join(src, "src")
        self.cflags = ["-DLUA_USE_LINUX", "-std=gnu99"]
        # Debian's luaconf.h includes a header its debian/rules generates.
        mah = os.path.join(self.srcdir, "lua5.4-deb-multiarch.h")
        if not os.path.exists(mah):
            with open(mah, "w") as f:
                f.write('#ifndef DEB_HOST_MULTIARCH\n#define DEB_HOST_MULTIARCH "x86_64-linux-gnu"\n#endif\n')
        self.sources = [c for c in sorted(glob.glob(os.path.join(self.srcdir, "*.c")))
                        if os.path.basename(c) != "luac.c"]
        self.programs = [("lua", [os.path.basename(c)[:-2] for c in self.sources])]

    def is_api(self, f):
        return re.match(r"lua(L|open)?_", f) is not None

    def tests(self, exes, runp, work):
        """(test, output, exit status, stderr) of each Lua script."""
        for s in sorted(glob.glob(os.path.join(SCRIPTS, "*.lua"))):
            r = run(runp + [exes["lua"], os.path.basename(s)], timeout=600, cwd=SCRIPTS)
            yield os.path.basename(s), normalized(r.out), r.rc, r.err, r.timeout


class Zlib:
    name, package, probe = "zlib", "zlib", "zlib.h"
    link_flags = ()
    # infcover.c calls inflateInit_(&strm, ZLIB_VERSION - 1, ...): a pointer
    # before a string literal, read through once inflateInit_ is inlined;
    # stock clang -O2 -flto makes that undefined behaviour a trap too.
    no_lto = ("infcover",)
    pn_files = ("deflate.c", "inflate.c")
    stock_must_pass = True  # zlib's own tests

    def __init__(self, src):
        self.srcdir = src
        # What ./configure finds on Linux, without running it.
        self.cflags = ["-std=gnu11", "-D_LARGEFILE64_SOURCE=1", "-DHAVE_HIDDEN", "-DHAVE_UNISTD_H",
                       "-DHAVE_STDARG_H", "-I" + src]
        lib = sorted(glob.glob(os.path.join(src, "*.c")))
        tests = [t for t in ("example", "minigzip", "infcover")
                 if os.path.exists(os.path.join(src, "test", t + ".c"))]
        self.sources = lib + [os.path.join(src, "test", t + ".c") for t in tests]
        self.programs = [(t, [os.path.basename(c)[:-2] for c in lib] + [t]) for t in tests]
        header = open(os.path.join(src, "zlib.h"), encoding="latin-1").read()
        self.api = set(re.findall(r"^\s*ZEXTERN\b[^;(]*?\W(\w+)\s+(?:OF|Z_ARG)\b", header, re.M))

    def is_api(self, f):
        return f in self.api

    def inputs(self):
        """Inputs of the minigzip round trips: name -> bytes, the same for
        every build."""
        text = b"".join(open(p, "rb").read() for p in
                        sorted(glob.glob(os.path.join(self.srcdir, "*.[ch]"))))[:512 * 1024]
        rnd, binary = random.Random(1), bytearray()
        while len(binary) < 256 * 1024:  # literals, near and far matches, runs
            k = rnd.randrange(4)
            if k == 0 or len(binary) < 64:
                binary += bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 64)))
            elif k == 1:
                n, start = rnd.randrange(3, 300), rnd.randrange(max(0, len(binary) - 40000), len(binary) - 3)
                binary += binary[start:start + n]
            elif k == 2:
                binary += bytes([rnd.randrange(256)]) * rnd.randrange(1, 600)
            else:
                binary += bytes(rnd.randrange(16) for _ in range(rnd.randrange(1, 200)))
        return {"text": text, "binary": bytes(binary), "hello": b"hello world\n", "empty": b""}

    def tests(self, exes, runp, work):
        """(test, output, exit status, stderr, timed out) of each test."""
        os.makedirs(work, exist_ok=True)
        for t in ("example", "infcover"):
            if t in exes:
                r = run(runp + [exes[t]] + (["foo.gz"] if t == "example" else []), timeout=600, cwd=work)
                yield t, normalized(r.out + r.err), r.rc, r.err, r.timeout
        cases = [(name, mode) for name in ("text", "binary") for mode in ("-1", "", "-9", "-f", "-h", "-r")]
        cases += [("hello", ""), ("empty", "")]
        data = self.inputs()
        for name, mode in cases:
            test = "minigzip %s%s" % (mode + " " if mode else "", name)
            f = os.path.join(work, name)
            with open(f, "wb") as out:
                out.write(data[name])
            c = run(runp + [exes["minigzip"]] + ([mode] if mode else []) + [name], timeout=600, cwd=work)
            gz = open(f + ".gz", "rb").read() if os.path.exists(f + ".gz") else b""
            d = run(runp + [exes["minigzip"], "-d", name + ".gz"], timeout=600, cwd=work)
            back = open(f, "rb").read() if os.path.exists(f) else None
            same = back == data[name]
            # The compressed bytes' digest is compared with the stock build's.
            out = "compress: rc %d, %d bytes, sha256 %s\ndecompress: rc %d, %s\n" % (
                c.rc, len(gz), hashlib.sha256(gz).hexdigest()[:16], d.rc,
                "same as the input" if same else "DIFFERENT from the input")
            rc = c.rc or d.rc or (0 if same else 1)
            yield test, out, rc, c.err + d.err, c.timeout or d.timeout
            for p in (f, f + ".gz"):
                if os.path.exists(p):
                    os.unlink(p)


def run_real(project, args, tools, summary, workroot):
    tools.check()
    src = fetch_source(project.package, project.probe)
    if src is None:
        summary.skipped += 1
        log("SKIP real %s: no source (apt-get source %s failed)" % (project.name, project.package))
        return
    p = project(src)
    what = "real %s %s" % (p.name, args.arch)
    d = os.path.join(workroot, "real-%s-%s" % (p.name, args.arch))
    os.makedirs(d, exist_ok=True)
    log("real %s: source %s" % (p.name, src))
    af = tools.arch_flags(args.arch)
    runp = tools.run_prefix(args.arch)
    if args.arch == "aarch64":
        tools.check(need_qemu=True)
    log("real %s: %s" % (p.name, args.arch))
    stock, err = build("stock", tools.stock_clang, ["-O2", "-w"] + af + p.cflags, p.sources, p.programs,
                       os.path.join(d, "stock"), p.link_flags)
    if not stock:
        summary.skipped += 1
        log("SKIP %s: stock build failed: %s" % (what, err))
        return
    funcs = [f for f in defined_functions(os.path.join(d, "stock"), tools)
             if "." not in f]  # no compiler-made clones (foo.cold, ...)
    internal = [f for f in funcs if f != "main" and not p.is_api(f)]
    everything = [f for f in funcs if f != "main"]
    lists = {}
    for lname, names in (("internal", internal), ("all", everything)):
        path = os.path.join(d, lname + ".list")
        with open(path, "w") as f:
            f.write("# difftest --real %s: %d of %d functions\n" % (p.name, len(names), len(funcs)))
            f.write("".join("fun:%s\n" % n for n in names))
        lists[lname] = path
    log("real %s: %d functions defined; internal list %d (%d%%; left out: %d API, main), all list %d"
        % (p.name, len(funcs), len(internal), 100 * len(internal) // max(1, len(funcs)),
           len(everything) - len(internal), len(everything)))
    quiet = ["-Wno-backend-plugin"]  # the list's warning about exported functions
    apn = ["-O2", "-w", "-fauto-preserve-none"] + af + p.cflags
    builds = [
        ("cacs-apn", apn),
        ("cacs-list", apn + ["-fpreserve-none-list=" + lists["internal"]] + quiet),
        ("cacs-all", apn + ["-fpreserve-none-list=" + lists["all"]] + quiet),
        ("cacs-lto", apn + ["-flto", "-fpreserve-none-list=" + lists["internal"]] + quiet),
    ]
    if args.quick:  # the lit slice: APN alone runs in the list builds as well
        builds = builds[1:]
    expected = {}
    for test, out, rc, err, timeout in p.tests(stock, runp, os.path.join(d, "stock", "run")):
        expected[test] = (out, rc)
        if rc != 0 and p.stock_must_pass:
            summary.add_fail("%s stock %s" % (what, test), "stock-failure",
                             "rc %d; %s" % (rc, (out + err).strip()[-300:]))
        elif rc != 0:
            log("  note: stock %s exits %d on %s: %s" % (p.name, rc, test, err.strip()[-200:]))
    for name, flags in builds:
        exes, err = build(name, tools.cacs_clang, flags, p.sources, p.programs, os.path.join(d, name),
                          p.link_flags, p.no_lto)
        if not exes:
            summary.add_fail("%s %s" % (what, name), "build-failure", err)
            continue
        # How much the flags changed: preserve_none definitions in the IR of
        # two core files (for the report).
        npn = 0
        for c in p.pn_files:
            r = run_tool([tools.cacs_clang] + [f for f in flags if f != "-flto"]
                         + ["-S", "-emit-llvm", "-o", "-", os.path.join(p.srcdir, c)], timeout=600)
            npn += len(re.findall(r"^define [^@]*preserve_nonecc", r.out, re.M))
        log("real %s: %s built; %d preserve_none functions in %s" % (p.name, name, npn, "+".join(p.pn_files)))
        for test, out, rc, err, timeout in p.tests(exes, runp, os.path.join(d, name, "run")):
            if (out, rc) == expected.get(test) and (rc == 0 or not p.stock_must_pass):
                summary.add_pass()
            else:
                kind = "timeout" if timeout else ("crash" if rc < 0 else "mismatch")
                exp = expected.get(test, ("", 0))
                summary.add_fail("%s %s %s" % (what, name, test), kind,
                                 "rc %d (stock %d); %s; %s" % (rc, exp[1], first_difference(exp[0], out),
                                                               err.strip()[-200:]))
    if not args.keep and summary.failed == 0:
        shutil.rmtree(d, ignore_errors=True)


# --real NAME: the function that builds and tests NAME.
PROJECTS = {"lua": functools.partial(run_real, Lua), "zlib": functools.partial(run_real, Zlib)}


def fetch_all():
    """Fetch (or find cached) every project's source; whether all are there.
    scripts/setup calls this, so that the tests need no network."""
    ok = True
    for project in (Lua, Zlib):
        src = fetch_source(project.package, project.probe)
        log("real %s: %s" % (project.name, src or "NOT FETCHED"))
        ok = ok and src is not None
    return ok


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
