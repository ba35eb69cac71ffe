"""The hazard table: flag sets under which code the compiler does not see, or
code emitted below the IR, may use a register that carries a preserve_none
argument or that a caller relies on.

Each row: name, the targets it applies to, the flags (given to every clang
command of a cell: compile and link), program macros, environment for the
run, flags for the cacs builds only (`cacs`: cacs's own flags, which
stock clang does not know), and `refuse`: a regular expression that a cacs diagnostic for this
hazard must match for a cell to count as `refused` (None: no diagnostic
is expected; any cacs error is then a failure).
docs/research/hazard-inventory.md records what each row found."""

import collections

Hazard = collections.namedtuple("Hazard", "name archs flags defines env refuse note cacs")

X86, A64 = "x86_64", "aarch64"
BOTH = (X86, A64)

# The diagnostic expected where an 11-argument indirect (or load-time bound)
# preserve_none call meets a retpoline thunk, which needs r11.
RETPOLINE = (r"error: preserve_none call (to '[^']*' |through a pointer )in '[^']*' passes 11 or "
             r"more integer arguments, the 11th in r11, which the retpoline thunk of an indirect "
             r"call \(or of a call bound at load time, as cacs binds calls that the lazy PLT "
             r"resolver would clobber\) needs; pass fewer integer arguments, or compile without "
             r"-mretpoline \(-mspeculative-load-hardening and -mlvi-cfi imply it\)")
# AArch64 -O0: an indirect preserve_none call from an optnone function needs
# a shield, and a call with a KCFI operand bundle cannot be routed through
# one.
NO_SHIELD = (r"error: '.*' is optnone, and on AArch64 LLVM passes the arguments of its "
             r"preserve_none calls in the wrong registers, and cacs cannot route this call "
             r"through a shield")
# An indirect preserve_none call whose KCFI check may clobber an argument:
# x86-64 r11 (the 11th), AArch64 x9 (the 23rd).
KCFI = (r"error: preserve_none call through a pointer in '[^']*' passes (11|23) or more integer "
        r"arguments, and the KCFI check of the call \(-fsanitize=kcfi\) may use (r11|x9), which "
        r"carries the (11th|23rd); pass fewer integer arguments, or compile without "
        r"-fsanitize=kcfi")

# x86-64: the large code model without PIC takes function addresses as
# absolute immediates: a lazily bound callee cannot be bound at load time.
LARGE_NO_PIC = (r"error: preserve_none function '[^']*' may be bound lazily, and its integer "
                r"argument 11 is in a register the lazy PLT resolver clobbers; code of the large "
                r"code model \(-mcmodel=large\) that is not position-independent takes its "
                r"address directly")


def _h(name, archs, flags=(), defines=(), env=(), refuse=None, note="", cacs=()):
    return Hazard(name, tuple(archs), list(flags), list(defines), dict(env), refuse, note, list(cacs))


HAZARDS = [
    _h("none", BOTH, note="baseline"),
    # PLT / lazy binding: matter in the shared-library mode (run without
    # LD_BIND_NOW: the matrix removes it from the environment).
    _h("fno-plt", BOTH, ["-fno-plt"], note="calls through the GOT, bound at load"),
    _h("z-now", BOTH, ["-Wl,-z,now"], note="all PLT entries bound at load"),
    _h("fpic", BOTH, ["-fPIC"], note="position-independent code in the executable too"),
    # Frame lowering that uses registers in the prologue.
    _h("stack-clash", BOTH, ["-fstack-clash-protection"], ["HZ_FRAME=70000"],
       note="probe loop of a 70000-byte frame"),
    _h("stack-protector", BOTH, ["-fstack-protector-all"]),
    _h("split-stack", (X86,), ["-fsplit-stack"], ["HZ_FRAME=70000"],
       note="__morestack gets the frame size in r10/r11"),
    # Indirect-branch and speculation hardening.
    _h("retpoline", (X86,), ["-mretpoline"], ["HZ_INDIRECT"], refuse=RETPOLINE,
       note="__llvm_retpoline_r11 thunk"),
    _h("retpoline-external", (X86,), ["-mretpoline-external-thunk"], ["HZ_INDIRECT", "HZ_EXT_THUNKS"],
       refuse=RETPOLINE, note="the program's own __x86_indirect_thunk_<reg>"),
    _h("slh", BOTH, ["-mspeculative-load-hardening"], ["HZ_INDIRECT"], refuse=RETPOLINE,
       note="x86-64: implies retpoline indirect calls"),
    _h("harden-sls", BOTH, ["-mharden-sls=all"], ["HZ_INDIRECT"]),
    _h("cet", (X86,), ["-fcf-protection=full"], ["HZ_INDIRECT"]),
    _h("bti-pac", (A64,), ["-mbranch-protection=standard"], ["HZ_INDIRECT"]),
    _h("kcfi", BOTH, ["-fsanitize=kcfi"], ["HZ_INDIRECT"], refuse=NO_SHIELD + "|" + KCFI,
       note="the check before an indirect call"),
    _h("cfi-icall", BOTH, ["-flto", "-fvisibility=hidden", "-fsanitize=cfi-icall"], ["HZ_INDIRECT"]),
    # Function entry instrumentation.
    _h("pg", BOTH, ["-pg"], note="mcount at entry, a glibc function"),
    _h("mfentry", (X86,), ["-pg", "-mfentry"], note="__fentry__ before the prologue"),
    _h("mfentry-r11", (X86,), ["-pg", "-mfentry"], ["HZ_FENTRY"],
       note="the program's __fentry__ clobbers r10 and r11"),
    _h("instrument-functions", BOTH, ["-finstrument-functions"], ["HZ_CYG"]),
    _h("xray", BOTH, ["-fxray-instrument", "-fxray-instruction-threshold=1"],
       env={"XRAY_OPTIONS": "patch_premain=true"}, note="sleds patched to the trampolines at start"),
    _h("patchable-entry", BOTH, ["-fpatchable-function-entry=16,8"]),
    # TLS.
    _h("tls-gd", BOTH, ["-fPIC", "-ftls-model=global-dynamic"]),
    _h("tlsdesc", (X86,), ["-fPIC", "-ftls-model=global-dynamic", "-mtls-dialect=gnu2"]),
    # Coroutine migration: every function under test reads and writes the
    # thread-local hz_tl around its call of hz_seed; cacs turns each
    # thread-local address into a call of a C-convention accessor
    # (docs/tls-migration.md), from preserve_none functions too.
    _h("migration", BOTH, cacs=["-fcoroutine-migration"],
       note="thread-local addresses through accessor calls"),
    _h("migration-tls-gd", BOTH, ["-fPIC", "-ftls-model=global-dynamic"],
       cacs=["-fcoroutine-migration"], note="the accessors call __tls_get_addr / TLSDESC"),
    _h("migration-tlsdesc", (X86,), ["-fPIC", "-ftls-model=global-dynamic", "-mtls-dialect=gnu2"],
       cacs=["-fcoroutine-migration"]),
    # Pool coroutines (cacs/pool.h): the program runs in one on two workers,
    # and hz_seed, which every function under test calls, yields and may
    # come back on the other thread (HZ_POOL). The preserve_none frames of
    # the functions under test are live across that switch; hz_tl is right
    # only with -fcoroutine-migration: also with -fPIC (accessors
    # through __tls_get_addr / TLSDESC) and with LTO (the opt axis).
    _h("pool", BOTH, [], ["HZ_POOL"], cacs=["-fcoroutine-migration"],
       note="functions under test in a pool coroutine that migrates at hz_seed"),
    _h("pool-tls-gd", BOTH, ["-fPIC", "-ftls-model=global-dynamic"], ["HZ_POOL"],
       cacs=["-fcoroutine-migration"], note="pool, hz_tl through __tls_get_addr / TLSDESC"),
    # Cold shields (shieldsColdCall): hz_seed's call is rare by a hint, so
    # cacs routes it through a C-convention shield, with values of both
    # register classes live across it (HZ_COLD); in a migrating pool
    # coroutine too, where the shielded call is the switch.
    _h("cold", BOTH, [], ["HZ_COLD"], note="hz_seed's call rare: through a cold shield"),
    _h("pool-cold", BOTH, [], ["HZ_POOL", "HZ_COLD"], cacs=["-fcoroutine-migration"],
       note="pool, the migrating call through a cold shield"),
    # I/O waits that park (issue 36; session 34 made the helpers between
    # the waits' entries and the park preserve_none, internal.h's
    # CACS__IO_PN, and a timed wait parks on the deadline its call fixed,
    # cacs__park_until_pn): hz_seed's calls make cacs_read park in turn
    # untimed, timed, with timeout 0 and -7, until the deadline (between
    # two fences), closed and woken, from a C-convention function with
    # values live across the wait, through the bound entry and the
    # default-convention symbol (HZ_IO, program.py). The thread's engine
    # by name; io-asan: an ASan program, whose calls bind to the _bp
    # entries; pool-io: a migrating pool coroutine on its worker's ring
    # (AArch64's libcacs_io has no io_uring: the pool's poller there).
    _h("io", BOTH, [], ["HZ_IO", "HZ_IO_LATE"], env={"CACS_IO_ENGINE": "epoll"},
       note="cacs/io.h waits that park, the thread's epoll engine"),
    _h("io-uring", (X86,), [], ["HZ_IO"], env={"CACS_IO_ENGINE": "uring"},
       note="the same on the thread's io_uring engine"),
    _h("io-asan", (X86,), ["-fsanitize=address"], ["HZ_IO", "HZ_IO_LATE"],
       env={"CACS_IO_ENGINE": "epoll"}, note="io, an ASan program (the _bp entries)"),
    _h("pool-io", BOTH, [], ["HZ_POOL", "HZ_IO"], env={"CACS_IO_ENGINE": "uring"},
       cacs=["-fcoroutine-migration"], note="io in a migrating pool coroutine, workers on rings"),
    # Reserved registers.
    _h("shadow-call-stack", (A64,), ["-fsanitize=shadow-call-stack", "-ffixed-x18"], ["HZ_SCS"]),
    # Sanitizers (this machine has their runtimes for x86-64 only).
    _h("asan", (X86,), ["-fsanitize=address"], note="frames changed after cacs decided"),
    _h("asan-uar", (X86,), ["-fsanitize=address", "-fsanitize-address-use-after-return=always"]),
    _h("hwasan", (X86,), ["-fsanitize=hwaddress"]),
    _h("msan", (X86,), ["-fsanitize=memory"]),
    _h("tsan", (X86,), ["-fsanitize=thread"]),
    _h("ubsan", (X86,), ["-fsanitize=undefined", "-fno-sanitize-recover=undefined"],
       note="UB in the program itself stops the control"),
    _h("lsan", (X86,), ["-fsanitize=leak"]),
    # Instruction selectors: at -O0 x86-64 uses FastISel, AArch64 GlobalISel.
    _h("global-isel", BOTH, ["-fglobal-isel"]),
    _h("no-global-isel", BOTH, ["-fno-global-isel"], note="AArch64 -O0: FastISel"),
    _h("fast-isel", BOTH, ["-mllvm", "-fast-isel"], note="FastISel at every -O"),
    # Code generation choices that move code or registers around (session 12).
    _h("no-pie", BOTH, ["-fno-pic", "-no-pie"],
       note="addresses taken directly: canonical PLT entries (shlib)"),
    _h("outline", BOTH, ["-moutline"], note="MachineOutliner"),
    _h("outline-oz", BOTH, ["-Oz", "-moutline"], note="every column at -Oz"),
    _h("zero-regs-all", BOTH, ["-fzero-call-used-regs=all"]),
    _h("zero-regs-used-gpr", BOTH, ["-fzero-call-used-regs=used-gpr"]),
    _h("mcmodel-large", (X86,), ["-mcmodel=large"]),
    _h("mcmodel-large-no-pie", BOTH, ["-mcmodel=large", "-fno-pic", "-no-pie"], refuse=LARGE_NO_PIC,
       note="AArch64 allows the large model only without PIC"),
    _h("mcmodel-large-pic", (X86,), ["-mcmodel=large", "-fPIC"]),
    _h("mcmodel-tiny", (A64,), ["-mcmodel=tiny"]),
    _h("stackrealign", BOTH, ["-mstackrealign"]),
    _h("no-red-zone", (X86,), ["-mno-red-zone"]),
    _h("safe-stack", (X86,), ["-fsanitize=safe-stack"], note="a second stack for unsafe locals"),
    _h("sancov", BOTH, ["-fsanitize-coverage=trace-pc-guard,trace-cmp"], ["HZ_SANCOV"],
       note="the program's own callbacks"),
    _h("profile", BOTH, ["-fprofile-instr-generate"], env={"LLVM_PROFILE_FILE": "/dev/null"}),
    _h("fsanitize-function", BOTH, ["-fsanitize=function", "-fsanitize-trap=function"],
       ["HZ_INDIRECT"], note="the signature check before an indirect call"),
    # Link-time optimization.
    _h("thinlto", BOTH, ["-flto=thin"]),
    _h("units", BOTH, [], ["HZ_TWO_UNITS"], note="callers and callees in two units (lto: across them)"),
    _h("thinlto-units", BOTH, ["-flto=thin"], ["HZ_TWO_UNITS"]),
    _h("lto-inline", BOTH, ["-flto"], ["HZ_HELPER_TU"],
       note="an always_inline helper with a VLA and an over-aligned local from another unit"),
]

BY_NAME = {h.name: h for h in HAZARDS}

# How preserve_none comes to the functions under test.
CONVS = ["attr", "apn", "list", "shlib"]
CONV_DOC = {
    "attr": "__attribute__((preserve_none)) in the source",
    "apn": "static functions infected by -fauto-preserve-none (they call a preserve_none function)",
    "list": "-fpreserve-none-list= naming them",
    "shlib": "the list, across a -fPIC -shared library called from an executable (lazy binding)",
}

OPTS = {"O0": ["-O0"], "O1": ["-O1"], "O2": ["-O2"], "O3": ["-O3"], "lto": ["-O2", "-flto"]}

# The boundary axis (issue 21): how the other side of the calls was built.
# The functions under test, which the list names, are in a unit of their
# own (unit1.c), and main's unit (unit2.c) is built by cacs with the list:
SIDES = ["same", "nolist", "gcc", "dlsym"]
SIDE_DOC = {
    "same": "the functions' unit built by cacs with the same list",
    "nolist": "the functions' unit built by cacs without the list (a library built without it)",
    "gcc": "the functions' unit built by GCC (another compiler), at the same -O",
    "dlsym": "the functions' unit a -fPIC -shared library built with the list; main finds the "
             "functions by name at run time (dlsym) and calls them through C pointers",
}
# What a side must get where it cannot get the right output: an error that
# names the mismatch, at compile or link time. A caller built with the list
# calls the preserve_none body by a decorated name (`f_x.<tag>`), which a
# definition built otherwise lacks: the link names it as undefined. Or a
# cacs diagnostic naming the function.
SIDE_REFUSE = (r"(undefined symbol: |undefined reference to `)f_\w+\.\w+"
               r"|error: .*'f_\w+'.*(preserve.none|list)")
