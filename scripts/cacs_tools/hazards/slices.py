"""The fast slice that ./scripts/test runs (--slice)."""

# Shapes around the registers that hazards use: one argument; on x86-64
# argument 11 (r11) and 13 (past rax, on the stack); on AArch64 18 (x9, the
# lazy resolver's scratch) and 26 (past x15, on the stack); FP past
# xmm7/q7; a mixed one with stack arguments of both kinds.
# A function that returns its first argument (AArch64's `returned` mask);
# on x86-64 one that returns it through a tail call with 13 arguments (a
# jump through the GOT has no register left for its target).
SHAPES = {"x86_64": ["int1", "int11", "int13", "fp9", "mixed40", "tail-int13"],
          "aarch64": ["int1", "int18", "int26", "fp9", "mixed40", "arg-int1"]}

# Rows where the shared library (lazily bound unless the row binds at load
# time) is the point.
LIBRARY_ROWS = ("none", "fno-plt", "z-now", "tls-gd", "tlsdesc", "asan", "migration-tls-gd",
                "pool-tls-gd")


# Rows that never failed (session 12's, docs/research/hazard-inventory.md):
# only the full matrix runs them, to keep the slice fast.
FULL_ONLY = ("outline", "outline-oz", "zero-regs-all", "zero-regs-used-gpr", "mcmodel-large",
             "mcmodel-large-pic", "mcmodel-large-no-pie", "mcmodel-tiny", "stackrealign",
             "no-red-zone", "safe-stack", "sancov", "profile", "fsanitize-function", "units",
             "thinlto-units")


def _wanted(group):
    arch, hazard, conv, opt, side = group
    if hazard in FULL_ONLY:
        return False
    if arch == "x86_64":
        # Every hazard row through APN at -O0, the attribute and the list at
        # -O2 (the LTO rows at -O2 -flto); the library rows across a shared
        # library at -O0.
        if hazard in ("lto-inline", "thinlto", "cfi-icall"):
            return (conv, opt) in (("apn", "lto"), ("list", "lto"))
        # Cold shields are made by optimized code generation only.
        if hazard in ("cold", "pool-cold"):
            return (conv, opt) in (("attr", "O2"), ("list", "O2"), ("apn", "lto"))
        if conv == "shlib":
            return hazard in LIBRARY_ROWS and opt == "O0"
        return (conv, opt) in (("apn", "O0"), ("attr", "O2"), ("list", "O2"))
    # AArch64 under qemu: a few rows.
    if hazard in ("none", "stack-clash", "no-global-isel", "stack-protector"):
        return (conv, opt) in (("apn", "O2"), ("shlib", "O0"), ("list", "O0"))
    if hazard in ("fast-isel", "kcfi", "shadow-call-stack", "migration", "migration-tls-gd"):
        return (conv, opt) in (("attr", "O2"), ("list", "O2"))
    # A pool coroutine that migrates: -fPIC and LTO together too. Cold
    # shields: an optimized compile, and the decision at the LTO link.
    if hazard in ("pool", "pool-tls-gd", "cold", "pool-cold"):
        return (conv, opt) in (("apn", "O2"), ("list", "lto"))
    # I/O waits that park: also at -O0, where FastISel makes the calls of
    # the preserve_none entries (cacs shields them).
    if hazard in ("io", "pool-io"):
        return (conv, opt) in (("apn", "O0"), ("attr", "O2"), ("list", "lto"))
    return False


def select(groups, archs, hazards):
    shapes = SHAPES["aarch64" if archs == ["aarch64"] else "x86_64"]
    return [g for g in groups if _wanted(g)], shapes
