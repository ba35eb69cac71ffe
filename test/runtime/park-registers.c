// Register survival across the waiting calls (cacs_park, cacs_park_timeout
// woken and timed out, cacs_sleep, cacs_join; cacs_yield beside them) while
// a trasher coroutine puts garbage in every register, the frame pointer
// included, before each switch back.
//
// 1. Each entry called from assembly with known values in every
//    callee-saved register of the C convention (rbx rbp r12-r15; x19-x29
//    and d8-d15): what comes back changed must be what the entry's
//    convention allows: nothing for the default-convention symbols
//    (cacs_park, ...), all but the frame pointer for the preserve_none
//    entries (cacs__park_pn, ...), all but the frame and base pointers for
//    their _bp variants. Some garbage must reach the preserve_none probes
//    (the trasher really ran in between).
// 2. A C caller keeps many values live across each call as the header binds
//    it for this compiler and these flags (LIVE_VALUES: every register the
//    compiler allocates), and compares the frame pointer register.
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_rt_x86_64 -o %ta && %ta | FileCheck %s
// RUN: %clang -O3 -fno-omit-frame-pointer -fauto-preserve-none -I%cacs_include %s %cacs_rt_x86_64 -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O2 -DCACS_YIELD_FULL_SAVE=1 -I%cacs_include %s %cacs_rt_x86_64 -o %tf && %tf | FileCheck %s
// RUN: %stock_clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %ts && %ts | FileCheck %s
// RUN: %stock_clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %ts0 && %ts0 | FileCheck %s
// RUN: %if gcc %{ gcc -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %tg && %tg | FileCheck %s %}
// The runtime built with ASan takes cacs__yield_slow on every switch:
// RUN: %clang -O1 -fsanitize=address -I%cacs_include %s %S/../../runtime/lib/coro.c %S/../../runtime/lib/generator.c %S/../../runtime/lib/stack.c %S/../../runtime/lib/switch.c %S/../../runtime/lib/yield_x86_64.S %S/../../runtime/lib/yield_aarch64.S %S/../../runtime/lib/instack_x86_64.S %S/../../runtime/lib/instack_aarch64.S -o %tasan && %tasan | FileCheck %s
//
// CHECK: probes: 18 entries ok, garbage seen by the preserve_none ones
// CHECK-NEXT: park ok
// CHECK-NEXT: park_timeout woken ok
// CHECK-NEXT: park_timeout expired ok
// CHECK-NEXT: sleep ok
// CHECK-NEXT: join ok
// CHECK-NEXT: yield ok
// CHECK-NEXT: PASS

#include "cacs/coro.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>

#include "Inputs/trash.h"

static cacs_coro *holder;
static volatile int stop, wake_holder;

static void trasher(void *arg) {
  (void)arg;
  while (!stop) {
    if (wake_holder)
      cacs_wake(holder);
    trash();
    yield_bad_fp();
  }
}

// Finishes after a few switches: what cacs_join waits for.
static void finisher(void *arg) {
  (void)arg;
  for (int i = 0; i < 3; ++i)
    cacs_yield();
}

// --- 1. the entries, called from assembly -----------------------------------

// uint64_t probe(void *fn, uint64_t arg, int pn): calls fn(arg), the argument
// in the C convention's first register or, if pn, preserve_none's (r12 /
// x20, the same in LLVM 19 and 22), with known values in every callee-saved
// register; returns a mask of those that came back changed.
#if defined(__x86_64__)
// Bits: rbx rbp r12 r13 r14 r15.
#define MASK_BP 1u
#define MASK_FP 2u
#define MASK_PN_ARG 4u
#define PROBE_REG(reg, bit)                                                    \
  "movabsq $0xc0de00000000000" #bit ", %rcx\n"                                 \
  "cmpq %rcx, %" #reg "\n"                                                     \
  "je 1f\n"                                                                    \
  "orl $(1 << " #bit "), %eax\n"                                               \
  "1:\n"
#define PROBE_SET(reg, bit) "movabsq $0xc0de00000000000" #bit ", %" #reg "\n"
__asm__(".text\n"
        ".p2align 4\n"
        "probe:\n"
        "pushq %rbp\n pushq %rbx\n pushq %r12\n pushq %r13\n pushq %r14\n"
        "pushq %r15\n subq $8, %rsp\n"
        "movq %rdi, %rax\n movq %rsi, %rdi\n"
        PROBE_SET(rbx, 0) PROBE_SET(rbp, 1) PROBE_SET(r12, 2)
        PROBE_SET(r13, 3) PROBE_SET(r14, 4) PROBE_SET(r15, 5)
        "testl %edx, %edx\n jz 1f\n movq %rsi, %r12\n 1:\n"
        "callq *%rax\n"
        "xorl %eax, %eax\n"
        PROBE_REG(rbx, 0) PROBE_REG(rbp, 1) PROBE_REG(r12, 2)
        PROBE_REG(r13, 3) PROBE_REG(r14, 4) PROBE_REG(r15, 5)
        "addq $8, %rsp\n popq %r15\n popq %r14\n popq %r13\n popq %r12\n"
        "popq %rbx\n popq %rbp\n ret\n");
#elif defined(__aarch64__)
// Bits: x19..x28 (0-9), x29 (10), d8..d15 (11-18).
#define MASK_BP 1u
#define MASK_FP (1u << 10)
#define MASK_PN_ARG 2u
#define PROBE_SET(n, bit)                                                      \
  "movz x" #n ", #0xc0de, lsl #48\n movk x" #n ", #" #bit "\n"
#define PROBE_SETD(n, bit)                                                     \
  "movz x9, #0xd0de, lsl #48\n movk x9, #" #bit "\n fmov d" #n ", x9\n"
#define PROBE_CMP(bit)                                                         \
  "movz x10, #0xc0de, lsl #48\n movk x10, #" #bit "\n cmp x9, x10\n"           \
  "b.eq 1f\n orr x0, x0, #(1 << " #bit ")\n 1:\n"
#define PROBE_REG(n, bit) "mov x9, x" #n "\n" PROBE_CMP(bit)
#define PROBE_REGD(n, bit)                                                     \
  "fmov x9, d" #n "\n movz x10, #0xd0de, lsl #48\n movk x10, #" #bit "\n"      \
  "cmp x9, x10\n b.eq 1f\n orr x0, x0, #(1 << " #bit ")\n 1:\n"
__asm__(".text\n"
        ".p2align 4\n"
        "probe:\n"
        "stp x29, x30, [sp, #-160]!\n"
        "stp x19, x20, [sp, #16]\n stp x21, x22, [sp, #32]\n"
        "stp x23, x24, [sp, #48]\n stp x25, x26, [sp, #64]\n"
        "stp x27, x28, [sp, #80]\n stp d8, d9, [sp, #96]\n"
        "stp d10, d11, [sp, #112]\n stp d12, d13, [sp, #128]\n"
        "stp d14, d15, [sp, #144]\n"
        "mov x16, x0\n mov x0, x1\n"
        PROBE_SET(19, 0) PROBE_SET(20, 1) PROBE_SET(21, 2) PROBE_SET(22, 3)
        PROBE_SET(23, 4) PROBE_SET(24, 5) PROBE_SET(25, 6) PROBE_SET(26, 7)
        PROBE_SET(27, 8) PROBE_SET(28, 9) PROBE_SET(29, 10)
        PROBE_SETD(8, 11) PROBE_SETD(9, 12) PROBE_SETD(10, 13)
        PROBE_SETD(11, 14) PROBE_SETD(12, 15) PROBE_SETD(13, 16)
        PROBE_SETD(14, 17) PROBE_SETD(15, 18)
        "cbz w2, 1f\n mov x20, x1\n 1:\n"
        "blr x16\n"
        "mov x0, #0\n"
        PROBE_REG(19, 0) PROBE_REG(20, 1) PROBE_REG(21, 2) PROBE_REG(22, 3)
        PROBE_REG(23, 4) PROBE_REG(24, 5) PROBE_REG(25, 6) PROBE_REG(26, 7)
        PROBE_REG(27, 8) PROBE_REG(28, 9) PROBE_REG(29, 10)
        PROBE_REGD(8, 11) PROBE_REGD(9, 12) PROBE_REGD(10, 13)
        PROBE_REGD(11, 14) PROBE_REGD(12, 15) PROBE_REGD(13, 16)
        PROBE_REGD(14, 17) PROBE_REGD(15, 18)
        "ldp d14, d15, [sp, #144]\n ldp d12, d13, [sp, #128]\n"
        "ldp d10, d11, [sp, #112]\n ldp d8, d9, [sp, #96]\n"
        "ldp x27, x28, [sp, #80]\n ldp x25, x26, [sp, #64]\n"
        "ldp x23, x24, [sp, #48]\n ldp x21, x22, [sp, #32]\n"
        "ldp x19, x20, [sp, #16]\n ldp x29, x30, [sp], #160\n ret\n");
#endif
uint64_t probe(void *fn, uint64_t arg, int pn) __asm__("probe");

// The entries by symbol (the header binds the names to one of them).
#define ENTRIES(X)                                                             \
  X(park, WAIT_PARK) X(park_timeout, WAIT_PARK_TIMEOUT) X(sleep, WAIT_SLEEP)   \
  X(join, WAIT_JOIN) X(yield, WAIT_YIELD)
#define DECLARE(name, kind)                                                    \
  extern char sym_c_##name[] __asm__("cacs_" #name);                           \
  extern char sym_pn_##name[] __asm__("cacs__" #name "_pn");                   \
  extern char sym_bp_##name[] __asm__("cacs__" #name "_pn_bp");
ENTRIES(DECLARE)

enum wait_kind {
  WAIT_PARK,
  WAIT_PARK_TIMEOUT,
  WAIT_PARK_EXPIRE,
  WAIT_SLEEP,
  WAIT_JOIN,
  WAIT_YIELD
};
enum conv { CONV_C, CONV_PN, CONV_BP };

// The argument of a wait of this kind, and whether the trasher wakes us.
static uint64_t wait_setup(enum wait_kind kind) {
  wake_holder = kind == WAIT_PARK || kind == WAIT_PARK_TIMEOUT;
  switch (kind) {
  case WAIT_PARK_TIMEOUT:
    return 10 * 1000 * 1000; // woken long before
  case WAIT_PARK_EXPIRE:
  case WAIT_SLEEP:
    return 1000;
  case WAIT_JOIN:
    return (uint64_t)(uintptr_t)cacs_create(finisher, NULL, 0);
  default:
    return 0;
  }
}

static int garbage_seen;

static void probe_entry(const char *name, void *fn, enum wait_kind kind,
                        enum conv conv) {
  uint64_t changed = probe(fn, wait_setup(kind), conv != CONV_C);
  uint64_t allowed = conv == CONV_C    ? 0
                     : conv == CONV_BP ? ~(uint64_t)(MASK_FP | MASK_BP)
                                       : ~(uint64_t)MASK_FP;
  if (changed & ~allowed) {
    printf("FAIL %s (convention %d): registers changed, mask %#llx\n", name,
           conv, (unsigned long long)changed);
    ++failures;
  }
  garbage_seen += conv != CONV_C && (changed & ~(uint64_t)MASK_PN_ARG) != 0;
}

static void probe_all(void) {
  int n = 0;
#define PROBE(name, kind)                                                      \
  probe_entry("cacs_" #name, sym_c_##name, kind, CONV_C);                     \
  probe_entry("cacs__" #name "_pn", sym_pn_##name, kind, CONV_PN);            \
  probe_entry("cacs__" #name "_pn_bp", sym_bp_##name, kind, CONV_BP);         \
  n += 3;
  ENTRIES(PROBE)
  // cacs_park_timeout once more, running into its timeout.
  PROBE(park_timeout, WAIT_PARK_EXPIRE)
#undef PROBE
  if (!failures && garbage_seen)
    printf("probes: %d entries ok, garbage seen by the preserve_none ones\n",
           n);
  else if (!garbage_seen)
    printf("FAIL: no probe saw the trasher's garbage\n"), ++failures;
}

// --- 2. a C caller with many live values -------------------------------------

__attribute__((noinline)) static void live_across(enum wait_kind kind,
                                                  const char *name) {
  uint64_t arg = wait_setup(kind);
  int before = failures;
  LIVE_VALUES_DEFINE(seed, dseed);
  void *fp0, *fp1;
  READ_FP(fp0);
  int r = 0;
  switch (kind) {
  case WAIT_PARK:
    cacs_park();
    break;
  case WAIT_PARK_TIMEOUT:
  case WAIT_PARK_EXPIRE:
    r = cacs_park_timeout((int64_t)arg);
    break;
  case WAIT_SLEEP:
    r = cacs_sleep((int64_t)arg);
    break;
  case WAIT_JOIN:
    r = cacs_join((cacs_coro *)(uintptr_t)arg);
    break;
  case WAIT_YIELD:
    cacs_yield();
    break;
  }
  READ_FP(fp1);
  LIVE_VALUES_CHECK(seed, dseed, check);
  check("frame pointer", 0, fp0 == fp1);
  check("result", 0, r == (kind == WAIT_PARK_EXPIRE ? ETIMEDOUT : 0));
  printf("%s %s\n", name, failures == before ? "ok" : "FAILED");
}

int main(void) {
  watchdog(60);
  holder = cacs_self();
  cacs_coro *t = cacs_create(trasher, NULL, 0);
  probe_all();
  live_across(WAIT_PARK, "park");
  live_across(WAIT_PARK_TIMEOUT, "park_timeout woken");
  live_across(WAIT_PARK_EXPIRE, "park_timeout expired");
  live_across(WAIT_SLEEP, "sleep");
  live_across(WAIT_JOIN, "join");
  live_across(WAIT_YIELD, "yield");
  stop = 1;
  cacs_join(t);
  if (failures)
    return 1;
  printf("PASS\n");
  return 0;
}
