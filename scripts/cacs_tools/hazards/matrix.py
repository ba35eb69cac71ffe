"""Building and running the cells of the hazard matrix.

A group is (arch, hazard, conv, opt, side): one build of one program holding
every selected argument shape, run once. side is None but on the boundary
axis (hazards.SIDES: how the functions' unit was built; conv is then
`list`). Only if that build fails, or its output
differs from the reference, is each shape built or run alone, so that every
cell (a shape in a group) gets its own outcome."""

import os
import re

from ..difftest import common

from . import hazards as hz
from . import program

PN = "__attribute__((preserve_none))"
# The environment variable that adds flags to every cacs-side compile: the
# way to make the matrix fail on purpose (its self-test).
EXTRA_ENV = "HAZARD_MATRIX_EXTRA_CACS_FLAGS"
COMPILE_TIMEOUT = 180
RUN_TIMEOUT = 60

FATAL = ("LLVM ERROR", "fatal error: error in backend", "PLEASE submit a bug report", "Stack dump",
         "Assertion", "UNREACHABLE", "Bad machine code")
CACS_DIAG = re.compile(r"error: .*(preserve_none|preserve-none|cacs)")
LINK = ("linker command failed", "ld.lld: error", "undefined reference", "/ld: ")
# The start of a control's answer that is a failure, not a reason to skip.
RUNTIME_FAILS = "the runtime fails: "
FAILURES = ("mismatch", "crash", "fatal", "diagnostic", "link-error", "compile-error", "timeout")


def control_key(group):
    """Which stock-clang control a group depends on: (arch, hazard, layout,
    O0 or lto). Stock clang may fail with a hazard's flags under LTO only
    (x86-64 GlobalISel has no fallback at the LTO link)."""
    arch, hazard, conv, opt, side = group
    return (arch, hazard, "shlib" if conv == "shlib" else "single", "lto" if opt == "lto" else "O0")


class Cell:
    __slots__ = ("arch", "hazard", "conv", "opt", "side", "shape", "outcome", "detail")

    def __init__(self, group, shape, outcome, detail=""):
        self.arch, self.hazard, self.conv, self.opt, self.side = group
        self.shape, self.outcome, self.detail = shape, outcome, detail

    def key(self):
        conv = self.conv + ("/" + self.side if self.side else "")
        return "%s %s %s %s %s" % (self.arch, self.hazard, conv, self.opt, self.shape)


def first_line(text, pred=None):
    for line in text.splitlines():
        if line.strip() and (pred is None or pred(line)):
            return line.strip()[:200]
    return ""


def build_failure(hazard, res, side=None):
    """The outcome of a failed build and the line that says why."""
    if res.timeout:
        return "timeout", "build timed out"
    text = res.err + res.out
    if any(m in text for m in FATAL):
        return "fatal", first_line(text, lambda l: any(m in l for m in FATAL))
    # The boundary axis: an error that names the mismatch is the right
    # outcome where the right output cannot be had.
    if side and side != "same" and re.search(hz.SIDE_REFUSE, text):
        return "refused", first_line(text, lambda l: re.search(hz.SIDE_REFUSE, l))
    diag = first_line(text, CACS_DIAG.search)
    if diag:
        if hazard.refuse and re.search(hazard.refuse, text):
            return "refused", diag
        return "diagnostic", diag
    if any(m in text for m in LINK):
        return "link-error", first_line(text, lambda l: "error" in l or "undefined" in l)
    return "compile-error", first_line(text, lambda l: "error" in l)


def run_failure(res, want, values=False):
    """Why a run failed. A wrong value is often an address (ASLR), so the
    values are only shown with values=True (-v): the output stays the same
    from run to run."""
    if res.timeout:
        return "timeout", "run timed out"
    if res.rc != 0:
        return "crash", "exit status %d; %s" % (res.rc, first_line(res.err))
    got, exp = res.out.splitlines(), want.splitlines()
    for g, e in zip(got, exp):
        if g != e:
            wrong = [str(i + 1) for i, (a, b) in enumerate(zip(g.split()[1:], e.split()[1:])) if a != b]
            why = "call %s of 3 wrong" % ",".join(wrong) if wrong else "output differs"
            return "mismatch", why + (" (got '%s', want '%s')" % (g, e) if values else "")
    return "mismatch", "got %d lines, want %d" % (len(got), len(exp))


class Matrix:
    def __init__(self, tools, workroot, shapes, stock=False, single=True):
        self.tools = tools
        self.workroot = workroot
        self.shapes = shapes
        self.stock = stock
        self.extra = os.environ.get(EXTRA_ENV, "").split()
        self.src = os.path.join(workroot, "src" if single else "src-" + shapes[0].name)
        self.write_sources()
        self.ref = {}  # arch -> {shape: expected line}
        self.verbose = False
        # One shape alone, to attribute a failed build to its shapes.
        self.alone = {}
        if single and len(shapes) > 1:
            for s in shapes:
                self.alone[s.name] = Matrix(tools, workroot, [s], stock, single=False)
                self.alone[s.name].ref = self.ref

    def write_sources(self):
        os.makedirs(self.src, exist_ok=True)
        with open(os.path.join(self.src, "prog.c"), "w") as f:
            f.write(program.source(self.shapes))
        with open(os.path.join(self.src, "helper.c"), "w") as f:
            f.write(program.HELPER_TU)
        for name, text in program.UNITS.items():
            with open(os.path.join(self.src, name), "w") as f:
                f.write(text)
        with open(os.path.join(self.src, "pn.list"), "w") as f:
            f.write("fun:f_*\nfun:hz_seed\n")

    # -- commands ---------------------------------------------------------
    def _sources(self, hazard, conv):
        # The shared-library layout has two units already.
        if "HZ_TWO_UNITS" in hazard.defines and conv != "shlib":
            srcs = [os.path.join(self.src, name) for name in sorted(program.UNITS)]
        else:
            srcs = [os.path.join(self.src, "prog.c")]
        if "HZ_HELPER_TU" in hazard.defines:
            srcs.append(os.path.join(self.src, "helper.c"))
        return srcs

    def _defines(self, hazard, conv):
        d = ["-D" + x for x in hazard.defines]
        if conv == "attr":
            d += ["-DHZ_PN=" + PN, "-DHZ_SEED=" + PN, "-DHZ_INDIRECT"]
        elif conv == "apn":
            d += ["-DHZ_SEED=" + PN, "-DHZ_STATIC=static"]
        elif conv in ("list", "shlib"):
            d += ["-DHZ_INDIRECT"]
        return d

    def _conv_flags(self, conv):
        if conv == "apn":
            return ["-fauto-preserve-none"]
        if conv in ("list", "shlib"):
            return ["-fpreserve-none-list=" + os.path.join(self.src, "pn.list")]
        return []

    def gcc(self, arch):
        return "aarch64-linux-gnu-gcc" if arch == "aarch64" else "gcc"

    def side_cmds(self, arch, hazard, opt, side, d):
        """The boundary axis: main's unit built by cacs with the list, the
        functions' unit as side says (hazards.SIDE_DOC)."""
        cacs = self.tools.cacs_clang
        listed = self._conv_flags("list")
        base = (self.tools.arch_flags(arch) + hz.OPTS[opt] + hazard.flags + ["-w"]
                + ["-D" + x for x in hazard.defines] + ["-DHZ_INDIRECT"] + hazard.cacs + self.extra)
        unit1, unit2 = (os.path.join(self.src, u) for u in ("unit1.c", "unit2.c"))
        exe = os.path.join(d, "prog")
        if side == "dlsym":
            lib = os.path.join(d, "libhz.so")
            return [[cacs] + base + listed + ["-fPIC", "-shared", unit1, "-o", lib],
                    [cacs] + base + listed + ["-DHZ_DLSYM", unit2, "-L" + d, "-lhz",
                                              "-Wl,-rpath," + d, "-o", exe]], exe
        o1, o2 = os.path.join(d, "unit1.o"), os.path.join(d, "unit2.o")
        if side == "gcc":
            # GCC knows none of clang's hazard flags, nor its LTO objects.
            level = [f for f in hz.OPTS[opt] if f.startswith("-O")]
            first = [self.gcc(arch)] + level + ["-w", "-DHZ_INDIRECT", "-c", unit1, "-o", o1]
        else:
            first = [cacs] + base + (listed if side == "same" else []) + ["-c", unit1, "-o", o1]
        return [first,
                [cacs] + base + listed + ["-c", unit2, "-o", o2],
                [cacs] + base + listed + [o1, o2, "-o", exe]], exe

    def build_cmds(self, arch, hazard, conv, opt, d, stock=False, side=None):
        """The commands that build d/prog (and d/libhz.so) for a cell.
        stock: the toolchain control (stock clang, preserve_none macro'd away)."""
        if side and not stock:
            return self.side_cmds(arch, hazard, opt, side, d)
        clang = self.tools.stock_clang if (stock or self.stock) else self.tools.cacs_clang
        base = self.tools.arch_flags(arch) + hz.OPTS[opt] + hazard.flags + ["-w"]
        if stock:
            base += ["-D" + x for x in hazard.defines] + ["-DHZ_INDIRECT"]
            # The cacs front door links -flto with lld: the control asks
            # whether lld can link these flags (it cannot link AArch64
            # -mcmodel=tiny's TLS relocations, say).
            if opt == "lto":
                base.append("-fuse-ld=lld")
        else:
            base += self._defines(hazard, conv) + self._conv_flags(conv) + self.extra
            if not self.stock:
                base += hazard.cacs
        exe = os.path.join(d, "prog")
        pool = self._pool_link(arch, hazard)
        if pool:
            base.append("-I" + os.path.join(common.ROOT, "runtime", "include"))
        if conv != "shlib":
            return [[clang] + base + self._sources(hazard, conv) + pool + ["-o", exe]], exe
        lib = os.path.join(d, "libhz.so")
        # The library's calls of the pool bind to the executable's libcacs.
        return [[clang] + base + ["-fPIC", "-shared", "-DHZ_PART=1"] + self._sources(hazard, conv) + ["-o", lib],
                [clang] + base + ["-DHZ_PART=2", os.path.join(self.src, "prog.c"), "-L" + d, "-lhz",
                                  "-Wl,-rpath," + d] + self._pool_link(arch, hazard, shlib=True)
                + (["-rdynamic"] if pool else [])
                + ["-o", exe]], exe

    def _pool_link(self, arch, hazard, shlib=False):
        """HZ_POOL, HZ_IO: the program links the build's libcacs (and its
        I/O module) for the target. shlib: the executable that the library
        of the functions under test is linked to; with HZ_IO it takes every
        object of both archives, since that library calls more of them
        than main does."""
        rt = os.path.join(self.tools.build, "runtime", arch)
        io = [os.path.join(rt, "libcacs_io.a")] if "HZ_IO" in hazard.defines else []
        if not io and "HZ_POOL" not in hazard.defines:
            return []
        libs = io + [os.path.join(rt, "libcacs.a")]
        if io and shlib:
            libs = ["-Wl,--whole-archive"] + libs + ["-Wl,--no-whole-archive"]
        return libs + ["-lpthread"]

    def build(self, cmds):
        for cmd in cmds:
            r = common.run_tool(cmd, timeout=COMPILE_TIMEOUT)
            if not r.ok:
                return r
        return None

    def run(self, arch, hazard, exe, shape=None):
        env_args = [exe] + ([shape] if shape else [])
        cmd = self.tools.run_prefix(arch) + env_args
        if hazard.env:
            cmd = ["env"] + ["%s=%s" % kv for kv in sorted(hazard.env.items())] + cmd
        return common.run(cmd, timeout=RUN_TIMEOUT, cwd=os.path.dirname(exe), longer=2 * RUN_TIMEOUT)

    # -- reference and controls -------------------------------------------
    def reference(self, arch):
        """Stock clang -O0, no hazard flags, preserve_none macro'd away."""
        d = os.path.join(self.workroot, arch, "reference")
        os.makedirs(d, exist_ok=True)
        exe = os.path.join(d, "prog")
        cmd = [self.tools.stock_clang] + self.tools.arch_flags(arch) + [
            "-O0", "-w", os.path.join(self.src, "prog.c"), "-o", exe]
        r = common.run_tool(cmd, timeout=COMPILE_TIMEOUT)
        if not r.ok:
            return None, "reference build failed: " + first_line(r.err)
        r = self.run(arch, hz.BY_NAME["none"], exe)
        if not r.ok:
            return None, "reference run failed: " + first_line(r.err)
        lines = {}
        for line in r.out.splitlines():
            lines[line.split()[0]] = line + "\n"
        return lines, ""

    def control(self, arch, hazard, layout, opt):
        """Can the stock toolchain build and run this hazard's flags at all
        (layout: single or shlib; opt: O0 or lto)? Returns '' or why not."""
        d = os.path.join(self.workroot, arch, hazard.name, "control-%s-%s" % (layout, opt))
        os.makedirs(d, exist_ok=True)
        conv = "shlib" if layout == "shlib" else "attr"
        cmds, exe = self.build_cmds(arch, hazard, conv, opt, d, stock=True)
        r = self.build(cmds)
        if r is not None:
            return "stock clang cannot build it: " + (build_failure(hazard, r)[1] or "timeout")
        r = self.run(arch, hazard, exe)
        # An I/O row's program checks what libcacs's waits return: there a
        # failing run is the runtime's (RUNTIME_FAILS), which the cacs side
        # runs too, not a toolchain that cannot build the flags.
        blame = RUNTIME_FAILS if "HZ_IO" in hazard.defines else ""
        if not r.ok:
            return blame + "stock clang's program fails: " + run_failure(r, "")[1]
        # A pool row's hz_tl is stale after a migration when stock clang
        # reuses its address (-O2 -flto; docs/tls-migration.md): that
        # control asks only that the flags build and run.
        if "HZ_POOL" in hazard.defines and opt != "O0":
            return ""
        if r.out != "".join(self.ref[arch][s.name] for s in self.shapes):
            return blame + "stock clang's program prints something else"
        return ""

    # common.parallel's work functions (module-level objects: they are
    # pickled to the worker processes).
    def control_work(self, item, summary):
        return self.control(item[0], hz.BY_NAME[item[1]], item[2], item[3]), []

    def group_work(self, group, summary):
        cells = self.group(group)
        for c in cells:
            # Paths inside the work directory, which is temporary, would make
            # the output differ from run to run.
            c.detail = c.detail.replace(self.workroot + os.sep, "")
            if c.outcome in FAILURES:
                common.log("FAIL %s: %s: %s" % (c.key(), c.outcome, c.detail))
            elif c.outcome == "refused":
                common.log("REFUSED %s: %s" % (c.key(), c.detail))
            elif self.verbose:
                common.log("PASS %s" % c.key())
        return cells, []

    # -- one group ----------------------------------------------------------
    def group(self, group):
        arch, hname, conv, opt, side = group
        hazard = hz.BY_NAME[hname]
        ref = self.ref[arch]
        d = os.path.join(self.workroot, arch, hname, "%s-%s" % (conv if not side else "side-" + side, opt))
        if not self.alone:
            d = os.path.join(d, self.shapes[0].name)
        os.makedirs(d, exist_ok=True)
        cmds, exe = self.build_cmds(arch, hazard, conv, opt, d, side=side)
        r = self.build(cmds)
        cells = []
        if r is None:
            res = self.run(arch, hazard, exe)
            want = "".join(ref[s.name] for s in self.shapes)
            if res.ok and res.out == want:
                return [Cell(group, s.name, "pass") for s in self.shapes]
            for s in self.shapes:
                res = self.run(arch, hazard, exe, s.name)
                if res.ok and res.out == ref[s.name]:
                    cells.append(Cell(group, s.name, "pass"))
                else:
                    cells.append(Cell(group, s.name, *run_failure(res, ref[s.name], self.verbose)))
            return cells
        if len(self.shapes) == 1:
            return [Cell(group, self.shapes[0].name, *build_failure(hazard, r, side))]
        # Attribute the build failure: each shape alone.
        for s in self.shapes:
            cells += self.alone[s.name].group(group)
        return cells
