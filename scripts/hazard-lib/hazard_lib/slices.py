"""The fast slice that ./scripts/test runs (--slice)."""

# Shapes around the registers that hazards use: r11 (argument 11) and rax
# (12) on x86-64, x9-x15 (18-24) on AArch64, FP past xmm7/q7, a mixed one
# with stack arguments of both kinds, and one argument.
SHAPES = ["int1", "int11", "int13", "int18", "int26", "fp9", "mixed40"]


def _wanted(group):
    arch, hazard, conv, opt = group
    if arch == "x86_64":
        # Every hazard row, at -O0 and -O2, through APN and the list across
        # a shared library; the attribute at -O2; and LTO where it is the
        # hazard.
        if hazard in ("lto-inline", "thinlto", "cfi-icall"):
            return (conv, opt) in (("apn", "lto"), ("list", "lto"))
        return (conv, opt) in (("apn", "O0"), ("apn", "O2"), ("shlib", "O0"), ("attr", "O2"))
    # AArch64 under qemu: a few rows.
    if hazard in ("none", "stack-clash", "no-global-isel", "stack-protector"):
        return (conv, opt) in (("apn", "O2"), ("shlib", "O0"), ("list", "O0"))
    return False


def select(groups, archs, hazards):
    return [g for g in groups if _wanted(g)], SHAPES
