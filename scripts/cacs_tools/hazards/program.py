"""The generated program: one function per argument shape, each called twice
directly (a lazily bound PLT entry is resolved at the first call) and once
more, through a pointer where the mode allows. Everything that differs
between the reference and a cacs build is a macro, so one source serves
all:

  HZ_PN      the attribute on the functions under test (attr mode)
  HZ_SEED    the attribute on hz_seed, a preserve_none function every
             function under test calls (attr, apn: what APN starts from)
  HZ_STATIC  `static` for the functions under test (apn mode)
  HZ_INDIRECT  the third call goes through a pointer
  HZ_FRAME   bytes of local array in each function under test
  HZ_HELPER_TU  hz_helper (always_inline, a VLA and an over-aligned local)
             lives in another translation unit: only LTO inlines it
  HZ_PART    1: the functions under test only (a shared library);
             2: main only, the functions under test declared
  HZ_SCS     AArch64 shadow call stack: a constructor points x18 at one
  HZ_CYG     -finstrument-functions hooks
  HZ_EXT_THUNKS  the __x86_indirect_thunk_<reg> functions that
             -mretpoline-external-thunk leaves to the program (plain jumps)
  HZ_FENTRY  a __fentry__ (weak and hidden) that clobbers r10 and r11,
             which the x86-64 ABI allows (glibc's leaves them alone)
  HZ_SANCOV  -fsanitize-coverage callbacks (weak and hidden: one per unit
             and shared object), which count what they see
  HZ_TWO_UNITS  the functions under test and main in two translation units
             (unit1.c, unit2.c: HZ_PART 1 and 2, never static), linked
             together
  HZ_BIAS    added to every result: the matrix's self-test injects it on
             the cacs side to see cells fail
  HZ_POOL    the program runs in a pool coroutine (cacs/pool.h, two
             workers, beside a coroutine that keeps yielding), and hz_seed
             yields (a migration point) until it runs on the other worker,
             carrying hz_tl's value over to that thread: the functions under test have frames
             live across a switch that may move them to another thread,
             and each call reads the hz_tl its caller's thread holds, which
             is the right value only if hz_seed wrote the new thread's
             (-fcoroutine-migration)
  HZ_COLD    the call of hz_seed is rare by a hint (__builtin_expect),
             so cacs routes it through a cold shield (shieldsColdCall),
             and integer and FP values computed from the arguments are
             live across it (they add up to nothing: the output does not
             change)
  HZ_IO      hz_seed makes an I/O wait of cacs/io.h park (issue 36: the
             preserve_none helpers between the waits' entries and the park,
             internal.h's CACS__IO_PN, and the timed park on the deadline
             the call fixed, cacs__park_until_pn), from hz_io_step, a
             C-convention function with six integer and two FP values live
             across it (callee-saved registers where the compiler keeps
             them), by the bound preserve_none entry or by the
             default-convention symbol `(cacs_read)(...)`, a case per call
             in turn: untimed and timed reads woken by a partner's write;
             timeout 0 (ETIMEDOUT at once, data at once) and a negative
             timeout other than -1 (waits); a timed read that expires, after
             a fence coroutine parked before the call with a deadline 1 us
             shorter has woken; cacs_close of the descriptor while parked
             (ECANCELED); cacs_wake while parked (EINTR). The partner puts
             garbage in the callee-saved registers before each switch back.
             The thread's first wait (the engine's pick and setup on the
             thread's stack) is inside the first function under test. With
             HZ_POOL, in a pool coroutine (the pool's poller or its workers'
             rings): the reads woken by a write, timeout 0 and negative, the
             expiry. A wrong result or value stops the program (exit 3, a
             line on stderr naming the case)
  HZ_IO_LATE (HZ_IO, not HZ_POOL) a second fence coroutine parks after the
             timed read has, with a deadline 1 us longer, and must find the
             read timed out when it wakes: the wait's deadline is not later
             than its call's. Only where the read ends as its timer fires
             (the epoll engine: io_uring's read waits for its cancel)
  HZ_DLSYM   (HZ_PART 2) main finds the functions under test at run time,
             by their names (dlsym), and calls them through pointers of
             the type its declarations would have: the "other side"
             axis's run-time lookup

The reference is stock clang -O0 with none of them, so preserve_none is
macro'd away (stock clang may itself be wrong with the attribute)."""

import collections

# ret: how the function returns its result.
#   sum    the value it computed (a long)
#   arg    its first argument unchanged (LLVM infers `returned`, which the
#          AArch64 backend lowered with the C convention's register mask);
#          the value goes to hz_sink
#   tail   its first argument, through a tail call of a function of the
#          same convention that returns its own first argument
#   pair   a two-long struct (in two registers: rax:rdx, x0:x1)
#   sret   a four-long struct (in memory: the caller passes its address)
Shape = collections.namedtuple("Shape", "name kinds ret")
RET_TYPES = {"sum": "long", "arg": "long", "tail": "long", "pair": "struct hz_pair",
             "sret": "struct hz_quad"}


def _shape(kind, n, ret="sum"):
    if kind == "int":
        kinds = "i" * n
    elif kind == "fp":
        kinds = "d" * n
    else:  # mixed: alternating, integer first
        kinds = "".join("id"[i % 2] for i in range(n))
    name = "%s%d" % (kind, n) if ret == "sum" else "%s-int%d" % (ret, n)
    return Shape(name, kinds, ret)


# From 1 up to past the last argument register: x86-64 passes 12 integer
# arguments (r12 r13 r14 r15 rdi rsi rdx rcx r8 r9 r11 rax) and 8 FP
# (xmm0-7) in registers; AArch64 24 integer (x20-x28, x0-x7, x9-x15) and 8
# FP (q0-q7). Argument 11 is r11 (stack-clash probes, lazy PLT, retpoline
# and KCFI use it); 18 and beyond are x9-x15 on AArch64 (the lazy
# resolver's scratch registers). Past the last register they are on the
# stack.
SHAPES = ([_shape("int", n) for n in (1, 6, 10, 11, 12, 13, 17, 18, 24, 26)]
          + [_shape("fp", n) for n in (1, 8, 9, 12)]
          + [_shape("mixed", n) for n in (4, 24, 40)]
          # Other ways to return: the argument counts cover x86-64 r11 and
          # stack arguments (13) and AArch64 x9-x15 and the stack (26).
          + [_shape("int", n, "arg") for n in (1, 13, 26)]
          + [_shape("int", n, "tail") for n in (2, 13, 26)]
          + [_shape("int", n, "pair") for n in (3, 13, 26)]
          + [_shape("int", n, "sret") for n in (3, 13, 26)])
SHAPE_NAMES = [s.name for s in SHAPES]


def _params(shape):
    return ", ".join("%s a%d" % ("long" if k == "i" else "double", i) for i, k in enumerate(shape.kinds))


def _args(shape, call):
    out = []
    for i, k in enumerate(shape.kinds):
        v = 1000003 * (call + 1) + 7919 * (i + 1)
        out.append(("%dL" % v) if k == "i" else ("%d.25" % (v % 100000)))
    return ", ".join(out)


PRELUDE = r"""
#ifdef HZ_DLSYM
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <stdlib.h>
#endif
#include <stdio.h>
#include <string.h>
#ifdef HZ_POOL
#include "cacs/pool.h"
#endif
#ifdef HZ_IO
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include "cacs/coro.h"
#include "cacs/io.h"
#endif
#ifndef HZ_PN
#define HZ_PN
#endif
#ifndef HZ_SEED
#define HZ_SEED
#endif
#ifndef HZ_STATIC
#define HZ_STATIC
#endif
#ifndef HZ_FRAME
#define HZ_FRAME 256
#endif
#ifndef HZ_PART
#define HZ_PART 0
#endif
#define HZ_NOINLINE __attribute__((noinline))
#ifdef HZ_COLD
/* Read at run time, so the optimizer cannot fold what they guard. */
static volatile long hz_rare = 1, hz_one = 1;
static volatile double hz_onef = 1.0;
#endif
struct hz_pair { long a, b; };
struct hz_quad { long a, b, c, d; };

#if defined(HZ_CYG) && !defined(HZ_ONLY_HELPER)
__attribute__((no_instrument_function, visibility("hidden"))) void
__cyg_profile_func_enter(void *fn, void *site) { (void)fn; (void)site; }
__attribute__((no_instrument_function, visibility("hidden"))) void
__cyg_profile_func_exit(void *fn, void *site) { (void)fn; (void)site; }
#endif

#if defined(HZ_EXT_THUNKS) && !defined(HZ_ONLY_HELPER)
#define HZ_THUNK(r) ".globl __x86_indirect_thunk_" #r "\n.hidden __x86_indirect_thunk_" #r \
  "\n__x86_indirect_thunk_" #r ":\n  jmp *%" #r "\n"
__asm__(".text\n" HZ_THUNK(rax) HZ_THUNK(rbx) HZ_THUNK(rcx) HZ_THUNK(rdx) HZ_THUNK(rsi)
        HZ_THUNK(rdi) HZ_THUNK(rbp) HZ_THUNK(r8) HZ_THUNK(r9) HZ_THUNK(r10) HZ_THUNK(r11)
        HZ_THUNK(r12) HZ_THUNK(r13) HZ_THUNK(r14) HZ_THUNK(r15));
#endif

#if defined(HZ_FENTRY) && !defined(HZ_ONLY_HELPER)
__asm__(".text\n.weak __fentry__\n.hidden __fentry__\n.type __fentry__, @function\n"
        "__fentry__:\n  movq $0x5a5a5a5a, %r11\n  movq $0x6b6b6b6b, %r10\n  ret\n");
#endif

#if defined(HZ_SANCOV) && !defined(HZ_ONLY_HELPER)
#include <stdint.h>
#define HZ_COV __attribute__((weak, visibility("hidden"), no_sanitize("coverage")))
static volatile uint64_t hz_cov;
HZ_COV void __sanitizer_cov_trace_pc_guard_init(uint32_t *b, uint32_t *e) {
  for (uint32_t n = 0; b < e; b++)
    *b = ++n;
}
HZ_COV void __sanitizer_cov_trace_pc_guard(uint32_t *g) { hz_cov += *g; }
#define HZ_CMP(n, t)                                                           \
  HZ_COV void __sanitizer_cov_trace_cmp##n(t a, t b) { hz_cov ^= a * 31 + b; } \
  HZ_COV void __sanitizer_cov_trace_const_cmp##n(t a, t b) { hz_cov ^= a + b; }
HZ_CMP(1, uint8_t) HZ_CMP(2, uint16_t) HZ_CMP(4, uint32_t) HZ_CMP(8, uint64_t)
HZ_COV void __sanitizer_cov_trace_switch(uint64_t v, uint64_t *cases) { hz_cov += v + cases[0]; }
#endif

#if defined(HZ_HELPER_TU) && defined(HZ_ONLY_HELPER)
__attribute__((always_inline)) inline long hz_helper(long n) {
  char vla[(n & 15) + 1];
  _Alignas(64) char big[64];
  for (long i = 0; i <= (n & 15); i++)
    vla[i] = (char)i;
  memset(big, 1, sizeof big);
  return vla[n & 15] + big[n & 63]; /* (n & 15) + 1, as the other hz_helper */
}
extern long hz_helper(long n);
#elif defined(HZ_HELPER_TU)
long hz_helper(long n);
#else
static inline long hz_helper(long n) { return (n & 15) + 1; }
#endif
"""

# HZ_IO: the waits hz_seed makes (program docstring). In the functions'
# unit: main's (HZ_PART 2) starts the coroutines and the pool's hz_busy
# writes for it.
IO_LIB = r"""
#ifdef HZ_IO
#define HZ_IO_T 2000 /* us: the timed read that expires */
#define HZ_IO_LONG 10000000 /* us: a timeout that is never reached */
enum { HZ_IO_WRITE = 1, HZ_IO_CLOSE, HZ_IO_WAKE, HZ_IO_FENCE };
int hz_io_fds[2];       /* the pipe the reads wait on */
int hz_io_cmd;          /* what the partner (pool: hz_busy) does next */
int hz_io_stop;         /* the coroutines' end (main) */
long hz_io_n;           /* hz_seed's calls: the case */
volatile long hz_io_live[6] = {11, -22, 333, -4444, 55555, -666666};
volatile double hz_io_livef[2] = {0.5, -7.25};
HZ_NOINLINE void hz_io_fail(const char *what, long got) {
  fprintf(stderr, "hz_io: call %ld: %s (got %ld)\n", hz_io_n, what, got);
  fflush(stdout);
  exit(3);
}
/* One byte from `fd` through the default-convention symbol, from a
   C-convention function that calls nothing else on its way: it keeps
   these values in callee-saved registers across the call, which the
   symbol's own saves (sched.h's CACS__DEFAULT_ENTRY) protect. 1, or minus
   errno. */
HZ_NOINLINE long hz_io_read_c(int fd, long timeout) {
  long v0 = hz_io_live[0], v1 = hz_io_live[1], v2 = hz_io_live[2];
  long v3 = hz_io_live[3], v4 = hz_io_live[4], v5 = hz_io_live[5];
  double f0 = hz_io_livef[0], f1 = hz_io_livef[1];
  char c = 0;
  long n = (cacs_read)(fd, &c, 1, timeout);
  if (v0 != hz_io_live[0] || v1 != hz_io_live[1] || v2 != hz_io_live[2] ||
      v3 != hz_io_live[3] || v4 != hz_io_live[4] || v5 != hz_io_live[5] ||
      f0 != hz_io_livef[0] || f1 != hz_io_livef[1])
    hz_io_fail("a value live across the default-convention cacs_read changed",
               v0 ^ v1 ^ v2 ^ v3 ^ v4 ^ v5);
  return n < 0 ? -errno : n == 1 ? (long)c : n;
}
/* The same through the bound entry (a preserve_none call where io.h binds
   it), or the default-convention symbol (`direct`). */
static long hz_io_read(int direct, int fd, long timeout) {
  char c = 0;
  long n = direct ? hz_io_read_c(fd, timeout) : cacs_read(fd, &c, 1, timeout);
  if (!direct && n == 1)
    n = c;
  if (n > 0 && n != 'w')
    hz_io_fail("read a wrong byte", n);
  return n == 'w' ? 1 : n < 0 && !direct ? -errno : n;
}
static void hz_io_want(long got, long want, const char *what) {
  if (got != want)
    hz_io_fail(what, got);
}
static void hz_io_put(void) {
  if (write(hz_io_fds[1], "w", 1) != 1)
    hz_io_fail("write", -errno);
}
#ifndef HZ_POOL
cacs_coro *hz_io_co[3]; /* the coroutine that runs hz_run, the partner, the late fence */
int hz_io_closing;      /* the descriptor the partner closes */
volatile int hz_io_fenced, hz_io_late, hz_io_timed_out, hz_io_late_done, hz_io_waiting;
/* Garbage in the callee-saved registers before a switch back. */
#if defined(__x86_64__)
#define HZ_TRASH()                                                             \
  __asm__ volatile("mov $0x5a5a5a5a, %%ebx\n mov %%rbx, %%r12\n mov %%rbx, %%r13\n" \
                   "mov %%rbx, %%r14\n mov %%rbx, %%r15" ::: "rbx", "r12", "r13", "r14", "r15")
#elif defined(__aarch64__)
#define HZ_TRASH()                                                             \
  __asm__ volatile("mov x19, #0x5a5a\n mov x20, x19\n mov x21, x19\n mov x22, x19\n"     \
                   "mov x23, x19\n mov x24, x19\n mov x25, x19\n mov x26, x19\n"         \
                   "mov x27, x19\n mov x28, x19\n fmov d8, x19\n fmov d9, x19\n"         \
                   "fmov d10, x19\n fmov d11, x19\n fmov d12, x19\n fmov d13, x19\n"     \
                   "fmov d14, x19\n fmov d15, x19" ::: "x19", "x20", "x21", "x22", "x23", \
                   "x24", "x25", "x26", "x27", "x28", "d8", "d9", "d10", "d11", "d12",      \
                   "d13", "d14", "d15")
#endif
void hz_io_partner(void *arg) {
  (void)arg;
  while (!hz_io_stop) {
    int cmd = hz_io_cmd;
    hz_io_cmd = 0;
    if (cmd == HZ_IO_WRITE)
      hz_io_put();
    else if (cmd == HZ_IO_CLOSE)
      hz_io_want(cacs_close(hz_io_closing), 0, "cacs_close");
    else if (cmd == HZ_IO_WAKE)
      cacs_wake(hz_io_co[0]);
    else if (cmd == HZ_IO_FENCE) {
      /* Parked before the read's call, 1 us shorter: wakes first. */
      hz_io_want(cacs_park_timeout(HZ_IO_T - 1) == -1 && errno == ETIMEDOUT, 1,
                 "the early fence's park");
      hz_io_fenced = 1;
    }
    HZ_TRASH();
    cacs_park();
  }
}
void hz_io_late_fence(void *arg) {
  (void)arg;
  while (!hz_io_stop) {
    if (hz_io_late) {
      hz_io_late = 0;
      /* Parked after the read did, 1 us longer: the read's timer fired first. */
      hz_io_want(cacs_park_timeout(HZ_IO_T + 1) == -1 && errno == ETIMEDOUT, 1,
                 "the late fence's park");
      if (!hz_io_timed_out)
        hz_io_fail("a timed read outlived a deadline set after its call", 0);
      hz_io_late_done = 1;
      if (hz_io_waiting)
        cacs_wake(hz_io_co[0]);
    }
    HZ_TRASH();
    cacs_park();
  }
}
static void hz_io_ask(int cmd) {
  hz_io_cmd = cmd;
  cacs_wake(hz_io_co[1]);
}
#else
static void hz_io_ask(int cmd) {
  __atomic_store_n(&hz_io_cmd, cmd, __ATOMIC_RELEASE);
}
#endif
#ifdef HZ_POOL
#define HZ_IO_CASES 4 /* no cacs_close race, no cacs_wake in a pool */
#else
#define HZ_IO_CASES 6
#endif
HZ_NOINLINE void hz_io_step(void) {
  long v0 = hz_io_live[0], v1 = hz_io_live[1], v2 = hz_io_live[2];
  long v3 = hz_io_live[3], v4 = hz_io_live[4], v5 = hz_io_live[5];
  double f0 = hz_io_livef[0], f1 = hz_io_livef[1];
  /* Every case at every call, so that one shape alone (the matrix's
     rerun of a failed program) makes them all, each way in turn. */
  int direct = (int)(hz_io_n & 1), rd = hz_io_fds[0];
  for (int how = 0; how < HZ_IO_CASES; how++)
  switch (how) {
  case 0: /* untimed, woken by a write */
    hz_io_ask(HZ_IO_WRITE);
    hz_io_want(hz_io_read(direct, rd, -1), 1, "an untimed read");
    break;
  case 1: /* timed, woken by a write before the deadline */
    hz_io_ask(HZ_IO_WRITE);
    hz_io_want(hz_io_read(direct, rd, HZ_IO_LONG), 1, "a timed read woken by data");
    break;
  case 2: /* timeout 0: never waits; a negative one waits for ever */
    hz_io_want(hz_io_read(direct, rd, 0), -ETIMEDOUT, "timeout 0 on an empty pipe");
    hz_io_put();
    hz_io_want(hz_io_read(direct, rd, 0), 1, "timeout 0 with data");
    hz_io_ask(HZ_IO_WRITE);
    hz_io_want(hz_io_read(direct, rd, -7), 1, "timeout -7");
    break;
  case 3: /* a timed read that expires, from its call */
#ifndef HZ_POOL
    hz_io_fenced = hz_io_timed_out = hz_io_late_done = 0;
    hz_io_ask(HZ_IO_FENCE);
    cacs_yield(); /* the fence parks first */
#ifdef HZ_IO_LATE
    hz_io_late = 1;
    cacs_wake(hz_io_co[2]);
#endif
#endif
    hz_io_want(hz_io_read(direct, rd, HZ_IO_T), -ETIMEDOUT, "a timed read on an empty pipe");
#ifndef HZ_POOL
    if (!hz_io_fenced)
      hz_io_fail("a timed read ended before a deadline set before its call", 0);
#ifdef HZ_IO_LATE
    hz_io_timed_out = 1;
    while (!hz_io_late_done) {
      hz_io_waiting = 1;
      cacs_park();
      hz_io_waiting = 0;
    }
#endif
#endif
    break;
#ifndef HZ_POOL
  case 4: { /* the descriptor closed while parked */
    int p[2];
    hz_io_want(pipe(p), 0, "pipe");
    hz_io_closing = p[0];
    hz_io_ask(HZ_IO_CLOSE);
    hz_io_want(hz_io_read(direct, p[0], HZ_IO_LONG), -ECANCELED, "a read whose descriptor was closed");
    close(p[1]);
    break;
  }
  case 5: /* woken while parked */
    hz_io_ask(HZ_IO_WAKE);
    hz_io_want(hz_io_read(direct, rd, HZ_IO_LONG), -EINTR, "a read ended by cacs_wake");
    break;
#endif
  }
  hz_io_n++;
  if (v0 != hz_io_live[0] || v1 != hz_io_live[1] || v2 != hz_io_live[2] ||
      v3 != hz_io_live[3] || v4 != hz_io_live[4] || v5 != hz_io_live[5] ||
      f0 != hz_io_livef[0] || f1 != hz_io_livef[1])
    hz_io_fail("a value live across the wait changed", v0 ^ v1 ^ v2 ^ v3 ^ v4 ^ v5);
}
#endif
"""

LIB_COMMON = IO_LIB + r"""
__thread long hz_tl;
long hz_sink;
HZ_SEED HZ_NOINLINE void hz_seed(long *p) {
  *p ^= 0x5a5a;
#ifdef HZ_POOL
  /* Yield until on the other worker (hz_busy keeps both taking work). */
  long v = hz_tl;
  int w = cacs_pool_worker_index();
#ifdef HZ_IO
  hz_io_step(); /* may end on the other worker (the pool's poller) */
#endif
  for (int i = 0; i < 1000 && cacs_pool_worker_index() == w; i++)
    cacs_pool_yield();
  hz_tl = v;
#elif defined(HZ_IO)
  hz_io_step();
#endif
}
"""

MAIN_DECLS = r"""
extern __thread long hz_tl;
extern long hz_sink;
HZ_SEED void hz_seed(long *p);
#ifdef HZ_IO
extern int hz_io_fds[2], hz_io_cmd, hz_io_stop;
void hz_io_fail(const char *what, long got);
#ifndef HZ_POOL
extern cacs_coro *hz_io_co[3];
void hz_io_partner(void *arg);
void hz_io_late_fence(void *arg);
#endif
#endif
"""

SCS_INIT = r"""
#ifdef HZ_SCS
static void *hz_scs[4096];
__attribute__((constructor, no_sanitize("shadow-call-stack"))) static void hz_scs_init(void) {
  __asm__ volatile("mov x18, %0" ::"r"(hz_scs));
}
#endif
"""


def _args_of(shape):
    return ", ".join("a%d" % i for i in range(len(shape.kinds)))


def _tail_callee(shape):
    """What a `tail` shape's function calls in tail position: it returns
    its first argument too."""
    return ("HZ_STATIC HZ_PN HZ_NOINLINE long f_%(n)s_id(%(p)s) {\n"
            "  long t = %(sum)s;\n"
            "  hz_seed(&t);\n"
            "  hz_sink ^= t;\n"
            "  return a0;\n"
            "}\n") % {"n": shape.name.replace("-", "_"), "p": _params(shape),
                      "sum": " + ".join("a%d * %dL" % (i, i + 2) for i in range(len(shape.kinds)))}


# The last statements of a function, by shape.ret: s is what it computed.
RETURNS = {
    "sum": ["  return s;"],
    "arg": ["  hz_sink += s;", "  return a0;"],
    "tail": ["  hz_sink += s;", "  return f_%(n)s_id(%(args)s);"],
    "pair": ["  struct hz_pair r = {s, s ^ a0};", "  return r;"],
    "sret": ["  struct hz_quad r = {s, a0, s >> 3, s * 5};", "  return r;"],
}


def _cname(shape):
    return shape.name.replace("-", "_")


def _seed_call(shape):
    """The call of hz_seed; HZ_COLD: rare by a hint, with values of both
    register classes live across it that add up to zero."""
    ints = [i for i, k in enumerate(shape.kinds) if k == "i"]
    fps = [i for i, k in enumerate(shape.kinds) if k == "d"]
    k = " + ".join("a%d * %dL" % (i, i + 5) for i in ints) or "s * 3"
    d = " + ".join("a%d * %d.5" % (i, i + 1) for i in fps) or "(double)s * 0.5"
    return ["#ifdef HZ_COLD",
            "  long hz_k = %s;" % k,
            "  double hz_d = %s;" % d,
            "  if (__builtin_expect(hz_rare, 0))",
            "    hz_seed(&s);",
            "  s += (hz_k * hz_one - hz_k) + (long)(hz_d * hz_onef - hz_d);",
            "#else",
            "  hz_seed(&s);",
            "#endif"]


def _function(shape):
    body = ["  volatile char hz_big[HZ_FRAME];", "  long s = 0;"]
    for i, k in enumerate(shape.kinds):
        if k == "i":
            body.append("  s += a%d * %dL;" % (i, 2 * i + 3))
        else:
            body.append("  s += (long)(a%d * %d.5) * %dL;" % (i, i + 1, 2 * i + 5))
    body += ["  unsigned long at = (unsigned long)s %% HZ_FRAME;",
             "  hz_big[at] = (char)(s >> 5);",
             "  hz_big[HZ_FRAME - 1] = (char)(long)a0; /* a0 may be a double */",
             "  s += hz_big[at] + hz_big[HZ_FRAME - 1];",
             "  s += hz_tl++;"] + _seed_call(shape) + [
             "  s += hz_helper(s);",
             "#ifdef HZ_BIAS",
             "  s += HZ_BIAS;",
             "#endif"]
    body += [line % {"n": _cname(shape), "args": _args_of(shape)} for line in RETURNS[shape.ret]]
    callee = _tail_callee(shape) if shape.ret == "tail" else ""
    return callee + "HZ_STATIC HZ_PN HZ_NOINLINE %s f_%s(%s) {\n%s\n}\n" % (
        RET_TYPES[shape.ret], _cname(shape), _params(shape), "\n".join(body).replace("%%", "%"))


def _decl(shape):
    return "HZ_STATIC HZ_PN %s f_%s(%s);\n" % (RET_TYPES[shape.ret], _cname(shape), _params(shape))


def _lookup(shape):
    """HZ_DLSYM: the name of a function under test stands for the address
    dlsym finds for it, as a pointer of the declaration's type."""
    return '#define f_%(n)s ((HZ_PN %(t)s (*)(%(p)s))hz_lookup("f_%(n)s"))\n' % {
        "n": _cname(shape), "t": RET_TYPES[shape.ret], "p": _params(shape)}


LOOKUP = r"""
#ifdef HZ_DLSYM
static void *hz_lookup(const char *name) {
  void *p = dlsym(RTLD_DEFAULT, name);
  if (!p) {
    fprintf(stderr, "dlsym: %s not found\n", name);
    exit(2);
  }
  return p;
}
#endif
"""


# How a runner turns a call's result into the long it prints (%(v)s: the
# call), by shape.ret: a statement sequence that leaves it in %(r)s.
COLLECT = {
    "sum": "  long %(r)s = %(v)s;\n",
    "arg": "  long %(r)s = %(v)s;\n  %(r)s += 3 * hz_sink;\n",
    "pair": "  struct hz_pair %(r)s_p = %(v)s;\n  long %(r)s = %(r)s_p.a * 3 + %(r)s_p.b;\n",
    "sret": ("  struct hz_quad %(r)s_q = %(v)s;\n"
             "  long %(r)s = %(r)s_q.a + 2 * %(r)s_q.b + 3 * %(r)s_q.c + 4 * %(r)s_q.d;\n"),
}
COLLECT["tail"] = COLLECT["arg"]


def _runner(shape):
    n = _cname(shape)
    calls = {"r0": "f_%s(%s)" % (n, _args(shape, 0)), "r1": "f_%s(%s)" % (n, _args(shape, 1)),
             "r2d": "f_%s(%s)" % (n, _args(shape, 2)), "r2i": "fp(%s)" % _args(shape, 2)}
    c = COLLECT[shape.ret]
    return ("static void run_%(n)s(void) {\n"
            "  hz_tl = 0;\n"
            "  hz_sink = 0;\n"
            "%(c0)s%(c1)s"
            "#ifdef HZ_INDIRECT\n"
            "  %(t)s (*volatile fp)(%(p)s) HZ_PN = f_%(n)s;\n"
            "%(c2i)s"
            "#else\n"
            "%(c2d)s"
            "#endif\n"
            "  printf(\"%(name)s %%ld %%ld %%ld\\n\", r0, r1, r2);\n"
            "}\n") % {"n": n, "name": shape.name, "p": _params(shape), "t": RET_TYPES[shape.ret],
                      "c0": c % {"r": "r0", "v": calls["r0"]},
                      "c1": c % {"r": "r1", "v": calls["r1"]},
                      "c2i": c % {"r": "r2", "v": calls["r2i"]},
                      "c2d": c % {"r": "r2", "v": calls["r2d"]}}


POOL_MAIN = r"""
#ifdef HZ_POOL
static int hz_argc, hz_done;
static char **hz_argv;
static void hz_body(void *arg) {
  (void)arg;
  hz_run(hz_argc, hz_argv);
  fflush(stdout);
  __atomic_store_n(&hz_done, 1, __ATOMIC_RELEASE);
}
static void hz_busy(void *arg) {
  (void)arg;
  while (!__atomic_load_n(&hz_done, __ATOMIC_ACQUIRE)) {
#ifdef HZ_IO
    if (__atomic_exchange_n(&hz_io_cmd, 0, __ATOMIC_ACQ_REL) == 1 /* HZ_IO_WRITE */ &&
        write(hz_io_fds[1], "w", 1) != 1)
      hz_io_fail("hz_busy's write", -1);
#endif
    cacs_pool_yield();
    for (volatile int i = 0; i < 2000; i++)
      ;
  }
}
int main(int argc, char **argv) {
  hz_argc = argc;
  hz_argv = argv;
#ifdef HZ_IO
  if (pipe(hz_io_fds) != 0)
    return 2;
#endif
  cacs_pool_attr attr = {2, 0, CACS_POOL_MIGRATE_RUNNING};
  cacs_pool *p = cacs_pool_create_ex(&attr);
  cacs_pool_task *busy = cacs_pool_spawn(p, hz_busy, NULL);
  cacs_pool_join(cacs_pool_spawn(p, hz_body, NULL));
  cacs_pool_join(busy);
  return cacs_pool_destroy(p);
}
#elif defined(HZ_IO)
static int hz_argc;
static char **hz_argv;
static void hz_body(void *arg) {
  (void)arg;
  hz_run(hz_argc, hz_argv);
}
int main(int argc, char **argv) {
  hz_argc = argc;
  hz_argv = argv;
  if (pipe(hz_io_fds) != 0)
    return 2;
  hz_io_co[1] = cacs_create(hz_io_partner, NULL, 0);
  hz_io_co[2] = cacs_create(hz_io_late_fence, NULL, 0);
  hz_io_co[0] = cacs_create(hz_body, NULL, 0);
  if (!hz_io_co[0] || !hz_io_co[1] || !hz_io_co[2])
    return 2;
  cacs_join(hz_io_co[0]);
  hz_io_stop = 1;
  cacs_wake(hz_io_co[1]);
  cacs_wake(hz_io_co[2]);
  cacs_join(hz_io_co[1]);
  cacs_join(hz_io_co[2]);
  return 0;
}
#else
int main(int argc, char **argv) {
  hz_run(argc, argv);
  return 0;
}
#endif
"""


def source(shapes):
    """The C source of a program over shapes; `prog arg` runs the shape
    named arg, `prog` all of them in order."""
    out = [PRELUDE, "#ifndef HZ_ONLY_HELPER\n", "#if HZ_PART != 2\n", LIB_COMMON]
    out += [_function(s) for s in shapes]
    out.append("#else\n")
    out.append(MAIN_DECLS)
    out.append("#ifndef HZ_DLSYM\n")
    out += [_decl(s) for s in shapes]
    out.append("#else\n")
    out.append(LOOKUP)
    out += [_lookup(s) for s in shapes]
    out.append("#endif\n")
    out.append("#endif\n#if HZ_PART != 1\n")
    out.append(SCS_INIT)
    out += [_runner(s) for s in shapes]
    out.append("static void hz_run(int argc, char **argv) {\n")
    for s in shapes:
        out.append("  if (argc < 2 || !strcmp(argv[1], \"%s\")) run_%s();\n" % (s.name, _cname(s)))
    out.append("}\n")
    out.append(POOL_MAIN)
    out.append("#endif\n#endif\n")
    return "".join(out)


HELPER_TU = '#define HZ_ONLY_HELPER 1\n#include "prog.c"\n'
# HZ_TWO_UNITS: the functions under test, then main; not static even in the
# apn mode (another unit calls them).
UNITS = {"unit%d.c" % part: '#define HZ_PART %d\n#undef HZ_STATIC\n#include "prog.c"\n' % part
         for part in (1, 2)}
