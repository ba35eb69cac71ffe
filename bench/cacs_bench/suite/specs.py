"""The workloads of scripts/bench: binaries, sizes (full, --quick,
callgrind) and variants."""

# (workload, binary, -v argument or None, full n, quick n, callgrind n)
SUMSEQ_N, SUMSEQ_CG = 50_000_000, 1_000_000
YIELD_N, YIELD_CG = 50_000_000, 1_000_000
WF_N, WF_CG = 100 << 20, 8 << 20  # bytes per task
APN_N, APN_CG = 2_000_000, 100_000
BENCHES = [
    ("sumseq", "sumseq_cpp20", "plain-loop", SUMSEQ_N, 10_000, SUMSEQ_CG),
    ("sumseq", "sumseq_cpp20", "cpp20-for", SUMSEQ_N, 10_000, SUMSEQ_CG),
    ("sumseq", "sumseq_cpp20", "cpp20-while", SUMSEQ_N, 10_000, SUMSEQ_CG),
    ("sumseq", "sumseq_boost", None, SUMSEQ_N, 10_000, SUMSEQ_CG),
    ("sumseq", "sumseq_instack", None, SUMSEQ_N, 10_000, SUMSEQ_CG),
    ("sumseq", "sumseq_instack_cpp", None, SUMSEQ_N, 10_000, SUMSEQ_CG),
    ("sumseq", "sumseq_libcacs", None, SUMSEQ_N, 10_000, SUMSEQ_CG),
    ("sumseq", "sumseq_libcacs_cpp", None, SUMSEQ_N, 10_000, SUMSEQ_CG),
    ("yield", "yield_libcacs", "empty", YIELD_N, 10_000, YIELD_CG),
    ("yield", "yield_boost", None, YIELD_N, 10_000, YIELD_CG),
    ("yield", "yield_ucontext", None, YIELD_N, 10_000, YIELD_CG),
    ("yield", "yield_boost_fiber", None, YIELD_N, 10_000, YIELD_CG),
    ("yield", "yield_libcacs", None, YIELD_N, 10_000, YIELD_CG),
    ("yield", "yield_libcacs_apn", None, YIELD_N, 10_000, YIELD_CG),
    ("yield", "yield_libcacs_apn", "small", YIELD_N, 10_000, YIELD_CG),
    ("yield", "switch_libcacs", None, YIELD_N, 10_000, YIELD_CG),
    ("yield", "switch_libcacs", "tail", YIELD_N, 10_000, YIELD_CG),
    # -fpreserve-none-callee-saved=none (x86-64, LLVM 22 builds only).
    ("yield", "yield_libcacs_csnone", None, YIELD_N, 10_000, YIELD_CG),
    ("yield", "yield_libcacs_apn_csnone", None, YIELD_N, 10_000, YIELD_CG),
    ("yield", "switch_libcacs_csnone", "tail", YIELD_N, 10_000, YIELD_CG),
    ("write_fully", "write_fully_cpp20", None, WF_N, 80_000, WF_CG),
    ("write_fully", "write_fully_boost", None, WF_N, 80_000, WF_CG),
    ("write_fully", "write_fully_libcacs", None, WF_N, 80_000, WF_CG),
    ("write_fully", "write_fully_libcacs_apn", None, WF_N, 80_000, WF_CG),
    ("apn_client", "apn_client_libcacs", None, APN_N, 2_000, APN_CG),
    ("apn_client", "apn_client_libcacs_apn", None, APN_N, 2_000, APN_CG),
    ("apn_client", "apn_client_libcacs_apn", "small", APN_N, 2_000, APN_CG),
    ("apn_client", "apn_client_libcacs_csnone", None, APN_N, 2_000, APN_CG),
    ("apn_client", "apn_client_libcacs_apn_csnone", None, APN_N, 2_000, APN_CG),
]
# The switch in the call patterns of real programs (issue 22,
# bench/patterns/patterns.h): every pattern on every runtime, interleaved.
# ops = switches; time = the thread's CPU time (bench_cpu_ns).
PAT_N, PAT_QUICK, PAT_CG = 10_000_000, 20_000, 200_000
PATTERNS = ["pingpong", "pipeline", "ring2", "ring10", "ring10same", "ring100",
            "ring10000", "chain", "server", "server-hinted"]
PAT_RUNTIMES = [("pat_cacs", "libcacs cacs_yield"),
                ("pat_cacs_site", "libcacs, jump-entered yields (-fswitch-site-jumps)"),
                ("pat_asm", "inline-asm switch (cacs_switch inlined, no scheduler)"),
                ("pat_boost", "Boost jump_fcontext"),
                ("pat_fiber", "Boost.Fiber")]
# Columns a run from before they were measured has no record of (the
# switch sites: session 35): the report leaves them out for such a run.
PAT_NEWER = {"pat_cacs_site"}
# The slow ones (Boost.Fiber: ~2 us per switch in ring10000) run fewer.
# The server rows decide a margin of a few per cent over Boost
# jump_fcontext (both runtimes run the same byte loops, 84 % of the
# instructions): they run PAT_ROUNDS_X times the rounds at a third of the
# switches each (the same time), and the report gives the median of the
# per-round paired ratios (pat_paired).
PAT_N_SMALL = {"ring10000": 2_000_000, "server": 700_000,
               "server-hinted": 700_000}
PAT_ROUNDS_X = {"pat-server": 3, "pat-server-hinted": 3}
for _p in PATTERNS:
    for _b, _ in PAT_RUNTIMES:
        BENCHES.append(("pat-" + _p, _b, _p, PAT_N_SMALL.get(_p, PAT_N), PAT_QUICK,
                        # ring10000 under callgrind: 20 rounds of the ring.
                        PAT_CG))
# The paper's Figure 15 ablation (bench/libcacs/ablation.c), one run.
ABLATION_STEPS = ["vanilla", "cacs", "cacs+pn", "cacs+pn+random", "cacs+pn+random+small"]
for _s in ABLATION_STEPS:
    BENCHES.append(("ablation", "ablation", _s, PAT_N, PAT_QUICK, PAT_CG))
HANOI = [
    ("hanoi_instack", "plain-callback"),
    ("hanoi_instack", None),
    ("hanoi_libcacs", None),
    ("hanoi_boost", None),
    ("hanoi_cpp20", "cpp20-symmetric"),
    ("hanoi_cpp20", "cpp20-nested"),
]
HANOI_BASE = ("hanoi_instack", "plain-callback")
HANOI_FULL_NS = list(range(1, 21))
HANOI_CG_N = 20
MEMORY_FULL = [("memory_libcacs", 1_000_000, "4112"),
               ("memory_libcacs", 1_000_000, "16384")]
MEMORY_QUICK = [("memory_libcacs", 10_000, "4112")]
# Binaries that only exist when the runtime (target `cacs`) is configured,
# or the peer library is installed.
OPTIONAL = {"yield_boost_fiber", "sumseq_libcacs", "sumseq_libcacs_cpp", "sumseq_instack",
            "sumseq_instack_cpp", "memory_libcacs", "yield_libcacs", "yield_libcacs_apn",
            "write_fully_libcacs", "write_fully_libcacs_apn", "hanoi_libcacs", "hanoi_instack",
            "apn_client_libcacs", "apn_client_libcacs_apn", "switch_libcacs"}
# Built only where -fpreserve-none-callee-saved=none is supported.
OPTIONAL |= {b for b, _ in PAT_RUNTIMES} | {"ablation"}
OPTIONAL |= {"switch_libcacs_csnone", "yield_libcacs_csnone", "yield_libcacs_apn_csnone",
             "apn_client_libcacs_csnone", "apn_client_libcacs_apn_csnone"}

# skynet (issue 25, bench/skynet): a tree of 1,111,111 coroutines on 1 and
# 2 workers, libcacs's pool vs goroutines vs Boost.Fiber work_stealing.
# Multi-threaded, so not pinned to one CPU: each run gets CPUs 0..w-1.
# Figures: the process's CPU time (every thread) and the wall-clock time.
SKYNET_N, SKYNET_QUICK = 1_000_000, 1_000
SKYNET_WORKERS = [1, 2]
SKYNET_BINS = ["skynet_pool", "skynet_go", "skynet_fiber"]

# stackbound (issue 34, bench/stackbound): stacks the compiler sizes
# (-fcacs-stack-bounds). (part, program, mode, full n, quick n): the ring
# of exact.c on exact, guarded 64 KiB private and shared stacks, libaco's
# beside them (exact_aco, built only when LIBACO_DIR names its source);
# the server shape's pool coroutines parked in a wait (pool.c) on exact
# and guarded stacks; then 10,000,000 exact ones parked at once, once.
# Pinned (the pool's 2 workers share the CPU), CACS_IO_ENGINE=epoll, as
# bench/stackbound/run.sh runs them; the ring and the pool interleaved
# over the rounds (the pool's RSS does not vary: SB_POOL_ROUNDS of them).
SB_RING = [("ring", "exact", "exact", 1_000_000, 2_000),
           ("ring", "exact", "private64k", 1_000_000, 2_000),
           ("ring", "exact", "shared", 1_000_000, 2_000),
           ("ring", "exact_aco", "aco", 1_000_000, 2_000)]
SB_POOL = [("pool", "pool", "exact", 1_000_000, 2_000),
           ("pool", "pool", "guarded", 1_000_000, 2_000)]
SB_FIT = ("fit", "pool", "exact", 10_000_000, 5_000)
SB_POOL_ROUNDS = 3
# The ring of yields (exact.c built as exact_ring, exact_aco.c as
# exact_aco_ring): the server shape yielding in its deepest call, each
# coroutine ROUNDS rounds. (program, mode) of its members, and per ring size
# (n, rounds) in the full run and with --quick (None: not run there): 2M
# switches at 10 and 10,000, 9M at 1,000,000 (whose guarded 64 KiB run,
# 50 s loaded, is mostly the creation and release of the stacks).
# Interleaved with the ring's and the pool's modes, every size in every
# round.
SB_YRING = [("exact_ring", "exact"), ("exact_ring", "private64k"),
            ("exact_ring", "shared"), ("exact_aco_ring", "aco")]
SB_YRING_SIZES = [((10, 200_000), (10, 100)), ((10_000, 200), (2_000, 3)),
                  ((1_000_000, 10), None)]
# The cost of a call from a coroutine (bench/stackbound/call.c; part
# "call"): (part, program, mode, full n, quick n) of each way (plain, on
# the system stack, split stacks) and callee (a small function, one that
# calls snprintf, one that calls qsort), the ways of a callee side by
# side; the rounds interleave every mode. Full n: 0.05 to 0.1 s of calls
# per process, 2 to 4 s under split stacks, where a call of the C library
# takes libgcc's __morestack; callgrind counts SB_CALL_CG_N calls (ROUNDS 2
# minus 1).
SB_CALL = [("call", prog, way + "-" + callee, n, 1_000)
           for callee, n in (("small", 20_000_000), ("snprintf", 1_000_000),
                             ("qsort", 500_000))
           for prog, way in (("call", "plain"), ("call", "sys"), ("call_split", "split"))]
SB_CALL_CG_N = 20_000
# The goals (issue 34): bytes of RSS per parked exact pool coroutine at
# 1M, the ring's time on exact stacks against guarded 64 KiB ones.
SB_RSS_GOAL, SB_RING_GOAL = 600, 1.1
