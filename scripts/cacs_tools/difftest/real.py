"""--real lua|zlib|sqlite|jsoncpp|mawk: real C and C++ projects from Debian
source (apt-get source, the newest version the archive serves; deb-src is
added if missing; cached in ~/.cache/cacs-difftest: fetch.py), each built stock and with cacs from the same
sources, the cacs builds tested against the stock one.

Builds (every translation unit of the project compiled separately, then
linked; C++ projects with clang++):
  stock        stock clang -O2
  cacs-apn     cacs -O2 -fauto-preserve-none
  cacs-list    cacs -O2 -fauto-preserve-none -fpreserve-none-list=<internal>;
               <internal> names every function the stock objects define but
               the project's public API and main (its share of all defined
               functions is logged); C++: by mangled name, inline functions
               and template instances too, but none of the standard
               library's (libstdc++.so defines and calls some of them)
  cacs-all     the same with a list of every function but main (API and
               library functions too: the address-taken ones get C-entry
               thunks)
  cacs-lto     cacs -O2 -flto -fauto-preserve-none with the <internal> list
Hazard builds (--real-variants hazards; each is cacs-list plus):
  cacs-O3, cacs-Os          -O3, -Os
  cacs-hardened  -fstack-clash-protection -fno-plt, and -fcf-protection=full
               (x86-64) or -mbranch-protection=standard (AArch64)
  cacs-ubsan   -fsanitize=undefined (its reports go to stderr, which the
               tests compare where they compare output; x86-64 only: Debian
               has no AArch64 runtime for it)
  cacs-asan    -fsanitize=address (x86-64 only: its shadow memory does not
               fit qemu-user)
  cacs-so      not cacs-list but -fPIC and the <all> list: the library is a
               shared object (lib<name>.so) that the programs call through
               the PLT, bound lazily
--real-variants V,... picks builds by name, or `standard` (the first four,
the default), `hazards`, `all`. --quick (the lit slices) leaves out
cacs-apn and runs fewer tests where a project has many.

lua      Lua 5.4 (src/*.c but luac.c). API: lua_*, luaL_*, luaopen_*;
         listed: Lua's internal luaX_* functions and all static ones. Tests:
         the Lua scripts in scripts/cacs_tools/difftest/lua/ (coroutines,
         pcall/error, the interpreter in general); their output must equal
         the stock build's. (Debian's source package does not carry Lua's
         own test suite.)
zlib     zlib 1.2 (the library's *.c, and its own test programs
         test/example.c, test/minigzip.c, test/infcover.c, compiled with the
         same flags). API: what zlib.h declares; listed: the static
         functions, the internal ones (_tr_*, inflate_fast, zcalloc, ...)
         and those of the test programs. Tests, each of which must exit 0
         with the stock build's output: example (its self-checks), infcover
         (inflate coverage, with its own asserts), and minigzip round trips
         as `make test` does them (compress at several levels and
         strategies, decompress, compare with the input; the compressed
         bytes must equal the stock build's, zlib's output being
         deterministic) on text, binary, tiny and empty inputs. cacs-lto
         compiles infcover.c without -flto: it passes inflateInit_ a pointer
         before a string literal, which LTO inlining turns into a trap in a
         stock clang -O2 -flto build as well.
sqlite   SQLite 3.40: the amalgamation (sqlite3.c, one unit of 250,000
         lines; made from Debian's source tree by SQLite's own makefile,
         which needs tclsh) with FTS5, R*Tree, dbstat, STAT4, the math
         functions and memsys5, its shell (shell.c, with the shell's
         extensions: generate_series, regexp, decimal, ieee754, the uint
         collation, SHA-3, an append VFS) and test/speedtest1.c. API:
         sqlite3_*; listed: the rest, nearly all static. Function pointers
         everywhere: the VFS, virtual-table methods, SQL functions,
         collations, sqlite3_exec callbacks; the VDBE's big switch. Tests:
         the SQL scripts in scripts/cacs_tools/difftest/sqlite/ through the shell
         (joins, triggers, recursive CTEs, window functions, collations,
         JSON, FTS5, R*Tree, savepoints and rollbacks, WAL, ATTACH, VACUUM,
         and errors, whose messages go to stderr, compared too), then
         speedtest1 --verify on its test sets main, cte, rtree, orm and fp
         (in memory), main on a WAL file with two sorter threads, and main
         with memsys5 and lookaside: its verification hash and step names
         must equal the stock build's (the times are removed).
jsoncpp  JsonCpp 1.9 (C++17: exceptions, virtual calls, templates,
         lambdas; src/lib_json and its two test programs). API: namespace
         Json (mangled _ZN4Json...); listed: the anonymous-namespace and
         static functions and the tests' own (JsonTest::, the fixtures'
         member functions). Tests: jsoncpp_test, its unit tests (many of
         which expect Json::LogicError or RuntimeError thrown from the
         library through listed frames), and jsontestrunner, as
         runjsontests.py runs it, on each file of test/data (with the
         three writers) and test/jsonchecker (strict mode): its output and
         the .actual, .rewrite and .actual-rewrite files it writes must
         equal the stock build's (the fail*.json files exit 1 in every
         build).
mawk     mawk 1.3.4 (an AWK interpreter; its configure runs once, with
         gcc, for config.h; mawk's own regular-expression engine, as
         upstream builds it). No API: everything but main is listed.
         A callback from the C library (with WHINY_USERS set, qsort sorts
         the keys of each for-in loop with string_compare), setjmp/longjmp out of the regex
         compiler on a bad expression, variadic error reporting, fork and
         pipes.
         Tests: its own test/mawktest and test/fpe_test (their report
         lines), and the scripts of scripts/cacs_tools/difftest/mawk/ (with their
         .dat input), whose output, errors and exit status must equal the
         stock build's.
--arch aarch64 cross-compiles and runs the tests under qemu-aarch64.
Each build logs its build and test times.
"""

import functools
import glob
import hashlib
import os
import random
import re
import shutil
import time

from .common import ROOT, log, run, run_tool
from .fetch import fetch_source, tree_version

SCRIPTS = os.path.join(ROOT, "scripts", "cacs_tools", "difftest", "lua")


def build(name, cc, flags, sources, programs, outdir, link_flags=(), no_lto=(), shared=None):
    """Compile each of `sources` (flags carry --target for aarch64; the
    stems in no_lto without -flto) and link `programs`, (executable, [source
    stems]) pairs; returns {executable: path} or None, and an error text.
    With `shared` (a library name, its stems and, optionally, programs that
    need its hidden functions), those stems are linked into lib<name>.so
    and each other program links that instead of their objects (flags must
    then carry -fPIC)."""
    os.makedirs(outdir, exist_ok=True)
    objs = {}
    for c in sources:
        stem, c = c if isinstance(c, tuple) else (source_stem(c), c)
        o = objs[stem] = os.path.join(outdir, stem + ".o")
        cflags = [f for f in flags if f != "-flto"] if stem in no_lto else flags
        r = run_tool([cc] + cflags + ["-c", c, "-o", o], timeout=1200)
        if not r.ok:
            return None, "%s: compiling %s %s: %s" % (name, os.path.basename(c), "timed out after %.0f s"
                                                     % r.secs if r.timeout else "failed", r.err.strip()[-500:])
        if r.err.strip():
            log("  %s: %s: %s" % (name, os.path.basename(c), r.err.strip().splitlines()[0]))
    libs, in_lib, static = [], (), ()
    if shared:
        lib, in_lib, *more = shared
        static = more[0] if more else ()
        so = os.path.join(outdir, "lib%s.so" % lib)
        r = run_tool([cc] + flags + ["-shared", "-o", so] + [objs[s] for s in in_lib] + list(link_flags),
                     timeout=1200)
        if not r.ok:
            return None, "%s: linking %s failed: %s" % (name, os.path.basename(so), r.err.strip()[-500:])
        libs = ["-L" + outdir, "-l" + lib, "-Wl,-rpath," + outdir]
    exes = {}
    for exe, stems in programs:
        exes[exe] = os.path.join(outdir, exe)
        dynamic = exe not in static
        r = run_tool([cc] + flags + [objs[s] for s in stems if s not in in_lib or not dynamic]
                     + (libs if dynamic else []) + list(link_flags)
                     + ["-o", exes[exe]], timeout=1200)
        if not r.ok:
            return None, "%s: linking %s failed: %s" % (name, exe, r.err.strip()[-500:])
    return exes, None


def source_stem(path):
    return os.path.splitext(os.path.basename(path))[0]


def defined_functions(objdir, tools, kinds=("T", "t")):
    """The functions the objects in objdir define (llvm-nm symbol kinds:
    T, t; C++ inline functions and template instances are W)."""
    names = []
    for o in sorted(glob.glob(os.path.join(objdir, "*.o"))):
        r = run([tools.tool("llvm-nm"), "--defined-only", o], timeout=60)
        for line in r.out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in kinds:
                names.append(parts[2])
    return sorted(set(names))


# C++ standard library functions (std::, __gnu_cxx::, mangled): instances
# of its templates are defined in the project's objects, but libstdc++.so
# defines and calls some of them too, with the C convention.
STD_MANGLED = re.compile(r"^_ZN?[rVKRO]*(St|S[absiod]|9__gnu_cxx)")


class Project:
    """What every project may set; see Lua and Zlib for the rest."""
    cxx = False  # compiled and linked with clang++
    nm_kinds = ("T", "t")  # the symbol kinds of its functions
    no_lto = ()
    link_flags = ()
    library = None  # (name, [stems]): what cacs-so links into lib<name>.so
    quick = False  # --quick: the tests may be fewer

    @classmethod
    def prepare(cls, src):
        """Make what the build needs from the fetched source (cached beside
        it); whether that worked."""
        return True


class Lua(Project):
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
        self.programs = [("lua", [source_stem(c) for c in self.sources])]
        self.library = ("lua", [source_stem(c) for c in self.sources if source_stem(c) != "lua"])

    def is_api(self, f):
        return re.match(r"lua(L|open)?_", f) is not None

    def tests(self, exes, runp, work):
        """(test, output, exit status, stderr) of each Lua script."""
        for s in sorted(glob.glob(os.path.join(SCRIPTS, "*.lua"))):
            r = run(runp + [exes["lua"], os.path.basename(s)], timeout=600, cwd=SCRIPTS)
            yield os.path.basename(s), normalized(r.out), r.rc, r.err, r.timeout


class Zlib(Project):
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
        self.programs = [(t, [source_stem(c) for c in lib] + [t]) for t in tests]
        # infcover calls inflate's internal (hidden) functions: not through
        # libz.so.
        self.library = ("z", [source_stem(c) for c in lib], ("infcover",))
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


class Sqlite(Project):
    name, package, probe = "sqlite", "sqlite3", "tool/mksqlite3c.tcl"
    link_flags = ("-lpthread", "-ldl", "-lm")
    stock_must_pass = False  # the scripts' SQL errors exit 1 on purpose
    pn_files = ("shell.c",)  # sqlite3.c would take as long as a build
    AMALGAMATION = "cacs-amalgamation"  # made from the source tree, beside it
    SCRIPTS = os.path.join(ROOT, "scripts", "cacs_tools", "difftest", "sqlite")

    @classmethod
    def prepare(cls, src):
        """The amalgamation (sqlite3.c, shell.c) as SQLite's own makefile
        makes it (configure; make sqlite3.c shell.c: tclsh and cc)."""
        out = os.path.join(src, cls.AMALGAMATION)
        if all(os.path.exists(os.path.join(out, f)) for f in ("sqlite3.c", "shell.c", "sqlite3.h")):
            return True
        if not shutil.which("tclsh"):
            log("difftest: the SQLite amalgamation needs tclsh (Debian package tcl)")
            return False
        tmp = out + ".tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        r = run([os.path.join(src, "configure"), "--disable-tcl", "--disable-readline"], cwd=tmp, timeout=600)
        if r.ok:
            r = run(["make", "sqlite3.c", "shell.c"], cwd=tmp, timeout=1200)
        if not r.ok:
            log("difftest: making the SQLite amalgamation failed: %s" % (r.out + r.err).strip()[-500:])
            return False
        os.makedirs(out, exist_ok=True)
        for f in ("sqlite3.c", "sqlite3.h", "sqlite3ext.h", "shell.c"):
            shutil.copy(os.path.join(tmp, f), os.path.join(out, f))
        shutil.rmtree(tmp, ignore_errors=True)
        return True

    def __init__(self, src):
        self.srcdir = os.path.join(src, self.AMALGAMATION)
        self.cflags = ["-DSQLITE_ENABLE_FTS5", "-DSQLITE_ENABLE_RTREE", "-DSQLITE_ENABLE_DBSTAT_VTAB",
                       "-DSQLITE_ENABLE_MATH_FUNCTIONS", "-DSQLITE_ENABLE_STAT4", "-DSQLITE_ENABLE_MEMSYS5",
                       "-DHAVE_USLEEP=1", "-DHAVE_ISNAN=1", "-I" + self.srcdir]
        self.sources = [os.path.join(self.srcdir, "sqlite3.c"), os.path.join(self.srcdir, "shell.c"),
                        os.path.join(src, "test", "speedtest1.c")]
        self.programs = [("sqlite3", ["sqlite3", "shell"]), ("speedtest1", ["sqlite3", "speedtest1"])]
        self.library = ("sqlite3", ["sqlite3"])


    def is_api(self, f):
        return f.startswith("sqlite3_")

    # speedtest1 runs: (name, arguments); sizes small enough for qemu.
    SPEEDTESTS = [("speedtest1 %s" % t, ["--testset", t, "--memdb"]) for t in ("main", "cte", "rtree", "orm", "fp")]
    SPEEDTESTS += [("speedtest1 main wal file threads", ["--testset", "main", "--journal", "wal",
                                                          "--threads", "2", "--pagesize", "1024", "speed.db"]),
                   ("speedtest1 main memsys5 lookaside", ["--testset", "main", "--memdb", "--heap", "40000000",
                                                          "64", "--lookaside", "100", "256", "--reprepare"])]

    def tests(self, exes, runp, work):
        """(test, output, exit status, stderr, timed out): the SQL scripts
        through the shell, then speedtest1 (its verification hash and the
        names of its steps; the times are removed)."""
        os.makedirs(work, exist_ok=True)
        for s in sorted(glob.glob(os.path.join(self.SCRIPTS, "*.sql"))):
            for f in glob.glob(os.path.join(work, "*.db*")):
                os.unlink(f)
            with open(s, "rb") as stdin:
                r = run(runp + [exes["sqlite3"], "-batch"], timeout=900, cwd=work, stdin=stdin)
            yield os.path.basename(s), normalized(r.out) + "--- stderr\n" + r.err, r.rc, r.err, r.timeout
        size = "3" if self.quick else "10"
        for name, targs in (self.SPEEDTESTS[:2] if self.quick else self.SPEEDTESTS):
            for f in glob.glob(os.path.join(work, "*.db*")):
                os.unlink(f)
            r = run(runp + [exes["speedtest1"], "--verify", "--size", size] + targs, timeout=900, cwd=work)
            out = re.sub(r"\s+[0-9]+\.[0-9]+s$", "", r.out, flags=re.M)
            yield name, out, r.rc, r.err, r.timeout


class Jsoncpp(Project):
    name, package, probe = "jsoncpp", "libjsoncpp", "src/lib_json/json_value.cpp"
    cxx = True
    nm_kinds = ("T", "t", "W")
    pn_files = ("lib_json/json_value.cpp", "test_lib_json/jsontest.cpp")
    stock_must_pass = True  # its unit tests; the reader tests exit 0 too

    def __init__(self, src):
        self.srcdir = os.path.join(src, "src")
        self.data = os.path.join(src, "test")
        self.cflags = ["-std=c++17", "-I" + os.path.join(src, "include")]
        lib = ["json_reader", "json_value", "json_writer"]
        self.sources = [(f, os.path.join(self.srcdir, "lib_json", f + ".cpp")) for f in lib]
        self.sources += [(f, os.path.join(self.srcdir, "test_lib_json", f + ".cpp"))
                         for f in ("jsontest", "fuzz", "main")]
        self.sources += [("runner", os.path.join(self.srcdir, "jsontestrunner", "main.cpp"))]
        self.programs = [("jsoncpp_test", lib + ["jsontest", "fuzz", "main"]),
                         ("jsontestrunner", lib + ["runner"])]
        self.library = ("jsoncpp", lib)

    def is_api(self, f):
        return re.match(r"_ZN?K?4Json", f) is not None  # namespace Json

    def tests(self, exes, runp, work):
        """(test, output, exit status, stderr, timed out): the unit tests
        (jsoncpp_test), then jsontestrunner on each test file as
        runjsontests.py runs it (three writers; the JSON checker's files in
        strict mode), the files it writes compared too."""
        os.makedirs(work, exist_ok=True)
        r = run(runp + [exes["jsoncpp_test"]], timeout=900, cwd=work)
        yield "jsoncpp_test", r.out + "--- stderr\n" + r.err, r.rc, r.err, r.timeout
        cases = [(f, ["--json-writer", w]) for f in sorted(glob.glob(os.path.join(self.data, "data", "*.json")))
                 for w in ("StyledWriter", "StyledStreamWriter", "BuiltStyledStreamWriter")]
        cases += [(f, ["--json-checker"]) for f in sorted(glob.glob(os.path.join(self.data, "jsonchecker", "*.json")))]
        if self.quick:
            cases = cases[::7]
        for f, targs in cases:
            name = os.path.basename(f)
            shutil.copy(f, os.path.join(work, name))
            r = run(runp + [exes["jsontestrunner"]] + targs + [name], timeout=900, cwd=work)
            out = r.out + "--- stderr\n" + r.err
            base = os.path.join(work, name[:-len(".json")])
            for suffix in (".actual", ".rewrite", ".actual-rewrite"):
                if os.path.exists(base + suffix):
                    out += "--- %s\n%s" % (suffix, open(base + suffix, errors="replace").read())
                    os.unlink(base + suffix)
            # A file meant to be rejected (fail*.json) exits 1 in every build.
            rc = 0 if name.startswith("fail") and r.rc == 1 else r.rc
            yield "jsontestrunner %s %s" % (" ".join(targs), name), out, rc, r.err, r.timeout


class Mawk(Project):
    name, package, probe = "mawk", "mawk", "rexp.c"
    link_flags = ("-lm",)
    pn_files = ("execute.c", "regexp.c")
    stock_must_pass = False  # features.awk ends on a bad regular expression
    CONFIG = "cacs-config"  # config.h as configure makes it, beside the source
    SCRIPTS = os.path.join(ROOT, "scripts", "cacs_tools", "difftest", "mawk")
    UNITS = ("parse scan memory main hash execute code da error init bi_vars cast print bi_funct kw jmp "
             "array field split re_cmpl regexp zmalloc fin files scancode matherr fcall version").split()

    @classmethod
    def prepare(cls, src):
        """config.h from mawk's configure (run once, with gcc; the same for
        both targets, LP64 Linux), with mawk's own regular-expression engine
        (Debian's package uses the C library's) and srand/rand, which a
        script can seed; scancode.c, which its makefile makes."""
        out = os.path.join(src, cls.CONFIG)
        if all(os.path.exists(os.path.join(out, f)) for f in ("config.h", "scancode.c")):
            return True
        tmp = out + ".tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        r = run([os.path.join(src, "configure"), "CC=gcc", "--with-builtin-regex", "--enable-builtin-srand"], cwd=tmp, timeout=600)
        if r.ok:
            r = run(["make", "scancode.c"], cwd=tmp, timeout=600)
        if not r.ok:
            log("difftest: mawk's configure or make scancode.c failed: %s" % (r.out + r.err).strip()[-500:])
            return False
        os.makedirs(out, exist_ok=True)
        for f in ("config.h", "scancode.c"):
            shutil.copy(os.path.join(tmp, f), os.path.join(out, f))
        shutil.rmtree(tmp, ignore_errors=True)
        return True

    def __init__(self, src):
        self.srcdir = src
        # configure passes these on the command line, not in config.h
        self.cflags = ["-DHAVE_CONFIG_H", "-DLOCAL_REGEXP", "-D_DEFAULT_SOURCE", "-D_XOPEN_SOURCE=500",
                       "-I" + os.path.join(src, self.CONFIG),
                       "-I" + src]
        self.sources = [os.path.join(src, self.CONFIG if u == "scancode" else "", u + ".c") for u in self.UNITS]
        self.programs = [("mawk", list(self.UNITS))]
        self.library = ("mawk", [u for u in self.UNITS if u != "main"])

    def is_api(self, f):
        return False  # a program: everything but main is internal

    def tests(self, exes, runp, work):
        """(test, output, exit status, stderr, timed out): mawk's own
        tests (test/mawktest, test/fpe_test, with the examples they use)
        and the scripts of scripts/cacs_tools/difftest/mawk/ (with WHINY_USERS)."""
        os.makedirs(work, exist_ok=True)
        for d in ("test", "examples"):
            shutil.rmtree(os.path.join(work, d), ignore_errors=True)
            shutil.copytree(os.path.join(self.srcdir, d), os.path.join(work, d))
        for f in glob.glob(os.path.join(self.srcdir, "*.[ch]")):  # mawktest reads ../scan.c
            shutil.copy(f, work)
        prog = " ".join(runp + [exes["mawk"]])
        for t in ("mawktest", "fpe_test"):
            r = run(["env", "MAWK=" + prog, "TMPDIR=" + work, "sh", t], timeout=900,
                    cwd=os.path.join(work, "test"))
            yield t, r.out.replace(prog, "MAWK") + "--- stderr\n" + r.err.replace(prog, "MAWK"), r.rc, r.err, r.timeout
        for s in sorted(glob.glob(os.path.join(self.SCRIPTS, "*.awk"))):
            data = s[:-len(".awk")] + ".dat"
            # WHINY_USERS: for-in loops sort their keys with qsort(3)
            r = run(["env", "WHINY_USERS=1"] + runp + [exes["mawk"], "-f", s]
                    + ([data] if os.path.exists(data) else []), timeout=900, cwd=work)
            yield os.path.basename(s), r.out + "--- stderr\n" + r.err, r.rc, r.err, r.timeout


def real_builds(args, af, cflags, lists, library):
    """The cacs builds --real-variants selects: (name, flags, shared
    library or None, reference). The hazard builds add to APN and the
    internal list what often breaks calling-convention changes; they
    compare with the stock -O2 build too, but for the sanitizers, whose
    reports of the project's own undefined behaviour or leaks are part of
    the output: their reference is stock -O2 with the same sanitizer
    (reference: the flags that build adds, else None)."""
    quiet = ["-Wno-backend-plugin"]  # the list's warning about exported functions
    # DIFFTEST_EXTRA_CACS_FLAGS: as for --programs, a way to make a cacs
    # build differ on purpose (to see a slice fail).
    apn = ["-O2", "-w", "-fauto-preserve-none"] + af + cflags + os.environ.get(
        "DIFFTEST_EXTRA_CACS_FLAGS", "").split()
    listed = apn + ["-fpreserve-none-list=" + lists["internal"]] + quiet
    x86 = args.arch == "x86_64"
    builds = [
        ("cacs-apn", apn, None, None),
        ("cacs-list", listed, None, None),
        ("cacs-all", apn + ["-fpreserve-none-list=" + lists["all"]] + quiet, None, None),
        ("cacs-lto", listed + ["-flto"], None, None),
        # hazards
        ("cacs-O3", listed + ["-O3"], None, None),
        ("cacs-Os", listed + ["-Os"], None, None),
        ("cacs-hardened", listed + ["-fstack-clash-protection", "-fno-plt"]
         + (["-fcf-protection=full"] if x86 else ["-mbranch-protection=standard"]), None, None),
        ("cacs-ubsan", listed + ["-fsanitize=undefined"], None, ["-fsanitize=undefined"]),
        ("cacs-asan", listed + ["-fsanitize=address"], None, ["-fsanitize=address"]),
        # a real shared-library boundary with lazy PLT binding; the list of
        # every function, exported ones included, on both sides
        ("cacs-so", apn + ["-fPIC", "-fpreserve-none-list=" + lists["all"]] + quiet, library, None),
    ]
    standard = ["cacs-apn", "cacs-list", "cacs-all", "cacs-lto"]
    hazards = [b[0] for b in builds if b[0] not in standard]
    if not x86:  # AddressSanitizer's shadow memory does not fit qemu-user;
        hazards.remove("cacs-asan")  # Debian has no AArch64 UBSan runtime
        hazards.remove("cacs-ubsan")
    want = []
    for v in (args.real_variants or ",".join(standard)).split(","):
        want += {"standard": standard, "hazards": hazards, "all": standard + hazards}.get(v, [v])
    unknown = [v for v in want if v not in [b[0] for b in builds]]
    if unknown:
        raise SystemExit("difftest: unknown --real-variants %s (known: %s, standard, hazards, all)"
                         % (",".join(unknown), ",".join(b[0] for b in builds)))
    if args.quick and not args.real_variants:  # the lit slice: APN alone runs in the list builds as well
        want.remove("cacs-apn")
    return [b for b in builds if b[0] in want]


def reference_results(p, exes, runp, work, what, summary, must_pass):
    """{test: (output, exit status)} of a stock build; a failing test is
    a failure where `must_pass`, else a note."""
    expected = {}
    for test, out, rc, err, timeout in p.tests(exes, runp, work):
        expected[test] = (comparable(out), rc)
        if rc != 0 and must_pass:
            summary.add_fail("%s stock %s" % (what, test), "stock-failure",
                             "rc %d; %s" % (rc, (out + err).strip()[-300:]))
        elif rc != 0:
            log("  note: stock %s exits %d on %s: %s" % (p.name, rc, test, (err.strip().splitlines() or [""])[0][:200]))
    return expected


def run_real(project, args, tools, summary, workroot):
    tools.check()
    src = fetch_source(project.package, project.probe)
    if src is None or not project.prepare(src):
        summary.skipped += 1
        log("SKIP real %s: no source (apt-get source %s failed; see above)" % (project.name, project.package))
        return
    p = project(src)
    p.quick = args.quick
    what = "real %s %s" % (p.name, args.arch)
    d = os.path.join(workroot, "real-%s-%s" % (p.name, args.arch))
    os.makedirs(d, exist_ok=True)
    log("real %s: source %s (%s)" % (p.name, src, tree_version(src)))
    af = tools.arch_flags(args.arch)
    runp = tools.run_prefix(args.arch)
    if args.arch == "aarch64":
        tools.check(need_qemu=True)
    log("real %s: %s" % (p.name, args.arch))
    stock_cc = tools.tool("clang++") if p.cxx else tools.stock_clang
    cacs_cc = tools.cacs_clang + ("++" if p.cxx else "")
    t0 = time.time()
    stock, err = build("stock", stock_cc, ["-O2", "-w"] + af + p.cflags, p.sources, p.programs,
                       os.path.join(d, "stock"), p.link_flags)
    if not stock:
        summary.skipped += 1
        log("SKIP %s: stock build failed: %s" % (what, err))
        return
    funcs = [f for f in defined_functions(os.path.join(d, "stock"), tools, p.nm_kinds)
             if "." not in f and not STD_MANGLED.match(f)]  # no clones (foo.cold), no std::
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
    t1 = time.time()
    expected = reference_results(p, stock, runp, os.path.join(d, "stock", "run"), what, summary,
                                 p.stock_must_pass)
    log("real %s: stock built in %.0f s, tested in %.1f s" % (p.name, t1 - t0, time.time() - t1))
    os.environ.setdefault("ASAN_OPTIONS", "detect_leaks=0")  # leak reports name process ids
    references = {None: expected}
    for name, flags, shared, ref in real_builds(args, af, p.cflags, lists, p.library):
        key = " ".join(ref or []) or None
        if key not in references:
            t0 = time.time()
            rname = "stock-" + name[len("cacs-"):]
            rexes, err = build(rname, stock_cc, ["-O2", "-w"] + af + p.cflags + ref, p.sources, p.programs,
                               os.path.join(d, rname), p.link_flags)
            if not rexes:
                summary.add_fail("%s %s" % (what, rname), "stock-build-failure", err)
                continue
            t1 = time.time()
            # A sanitizer may find the project's own bugs: the same
            # report from the cacs build passes.
            references[key] = reference_results(p, rexes, runp, os.path.join(d, rname, "run"), what, summary,
                                                False)
            log("real %s: %s built in %.0f s, tested in %.1f s" % (p.name, rname, t1 - t0, time.time() - t1))
        expected = references[key]
        t0 = time.time()
        exes, err = build(name, cacs_cc, flags, p.sources, p.programs, os.path.join(d, name),
                          p.link_flags, p.no_lto, shared)
        if not exes:
            summary.add_fail("%s %s" % (what, name), "build-failure", err)
            continue
        t1 = time.time()
        # How much the flags changed: preserve_none definitions in the IR of
        # the core files (for the report).
        npn = 0
        for c in p.pn_files:
            r = run_tool([cacs_cc] + [f for f in flags if f != "-flto"]
                         + ["-S", "-emit-llvm", "-o", "-", os.path.join(p.srcdir, c)], timeout=1200)
            npn += len(re.findall(r"^define [^@]*preserve_nonecc", r.out, re.M))
        log("real %s: %s built; %d preserve_none functions in %s" % (p.name, name, npn, "+".join(p.pn_files)))
        t2 = time.time()
        failed = summary.failed
        for test, out, rc, err, timeout in p.tests(exes, runp, os.path.join(d, name, "run")):
            out = comparable(out)
            if (out, rc) == expected.get(test) and (rc == 0 or not p.stock_must_pass or ref):
                summary.add_pass()
            else:
                kind = "timeout" if timeout else ("crash" if rc < 0 else "mismatch")
                exp = expected.get(test, ("", 0))
                summary.add_fail("%s %s %s" % (what, name, test), kind,
                                 "rc %d (stock %d); %s; %s" % (rc, exp[1], first_difference(exp[0], out),
                                                               err.strip()[-200:]))
        log("real %s: %s %s: built in %.0f s, tested in %.1f s" % (
            p.name, name, "passed" if summary.failed == failed else "FAILED", t1 - t0, time.time() - t2))
    if not args.keep and summary.failed == 0:
        shutil.rmtree(d, ignore_errors=True)


# --real NAME: the function that builds and tests NAME.
PROJECTS = {p.name: functools.partial(run_real, p) for p in (Lua, Zlib, Sqlite, Jsoncpp, Mawk)}


def fetch_all(names=()):
    """Fetch (or find cached) the source of every project (or of those
    named); whether all are there. scripts/setup calls this, so that the
    tests need no network."""
    ok = True
    for project in (Lua, Zlib, Sqlite, Jsoncpp, Mawk):
        if names and project.name not in names:
            continue
        src = fetch_source(project.package, project.probe)
        if src is not None and not project.prepare(src):
            src = None
        log("real %s: %s" % (project.name, "%s (%s)" % (src, tree_version(src)) if src else "NOT FETCHED"))
        ok = ok and src is not None
    return ok


def comparable(out):
    """Output as a cacs build and a stock one must both print it: without
    the process ids of sanitizer reports (==1234==), AddressSanitizer's
    reports cut to their kind, and naming a function
    rather than its C entry (f.cacs_c_entry, which UBSan's function-type
    check names when a project calls f through a pointer of another
    type)."""
    out = re.sub(r"==[0-9]+==", "==PID==", out).replace(".cacs_c_entry", "")
    # An AddressSanitizer report: its kind only (its stack traces name the
    # build's path and code offsets).
    return re.sub(r"^=+\n==PID==ERROR: (AddressSanitizer: [\w-]+).*?^==PID==ABORTING\n", r"\1 (report)\n",
                  out, flags=re.M | re.S)


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
