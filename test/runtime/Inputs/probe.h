// Calls an entry from assembly with known values in every callee-saved
// register of the C convention (rbx rbp r12-r15; x19-x29 and d8-d15) and
// reports which came back changed (park-registers.c, park-io-registers.c).
//
//   uint64_t probe(void *fn, const uint64_t args[5], int pn)
//
// calls fn(args[0], ..., args[4]), the arguments in the C convention's
// registers or, if pn, in preserve_none's (r12 r13 r14 r15 rdi / x20-x24,
// the same in LLVM 19 and 22), and returns a mask of the registers that
// changed; fn's result is left in probe_result. probe_check() compares the
// mask with what the entry's convention allows: nothing for a
// default-convention symbol, all but the frame pointer for a preserve_none
// entry, all but the frame and base pointers for its _bp variant. `probe_garbage` counts the preserve_none
// probes where a register that was not an argument came back changed: the
// proof that a trasher ran while the entry waited.

#ifndef CACS_TEST_PROBE_H
#define CACS_TEST_PROBE_H

#include <stdint.h>
#include <stdio.h>

#include "check.h"

#if defined(__x86_64__)
// Bits: rbx rbp r12 r13 r14 r15.
#define PROBE_BP 1u
#define PROBE_FP 2u
#define PROBE_PN_ARGS 0x3cu
#define PROBE_SET(reg, bit) "movabsq $0xc0de00000000000" #bit ", %" #reg "\n"
#define PROBE_REG(reg, bit)                                                    \
  "movabsq $0xc0de00000000000" #bit ", %rcx\n"                                 \
  "cmpq %rcx, %" #reg "\n"                                                     \
  "je 1f\n"                                                                    \
  "orl $(1 << " #bit "), %eax\n"                                               \
  "1:\n"
__asm__(".text\n"
        ".p2align 4\n"
        "probe:\n"
        "pushq %rbp\n pushq %rbx\n pushq %r12\n pushq %r13\n pushq %r14\n"
        "pushq %r15\n subq $8, %rsp\n"
        "movq %rdi, %rax\n movq %rsi, %r11\n"
        PROBE_SET(rbx, 0) PROBE_SET(rbp, 1) PROBE_SET(r12, 2)
        PROBE_SET(r13, 3) PROBE_SET(r14, 4) PROBE_SET(r15, 5)
        "testl %edx, %edx\n jz 1f\n"
        "movq (%r11), %r12\n movq 8(%r11), %r13\n movq 16(%r11), %r14\n"
        "movq 24(%r11), %r15\n movq 32(%r11), %rdi\n jmp 2f\n"
        "1:\n"
        "movq (%r11), %rdi\n movq 8(%r11), %rsi\n movq 16(%r11), %rdx\n"
        "movq 24(%r11), %rcx\n movq 32(%r11), %r8\n"
        "2:\n"
        "callq *%rax\n"
        "movq %rax, probe_result(%rip)\n"
        "xorl %eax, %eax\n"
        PROBE_REG(rbx, 0) PROBE_REG(rbp, 1) PROBE_REG(r12, 2)
        PROBE_REG(r13, 3) PROBE_REG(r14, 4) PROBE_REG(r15, 5)
        "addq $8, %rsp\n popq %r15\n popq %r14\n popq %r13\n popq %r12\n"
        "popq %rbx\n popq %rbp\n ret\n");
#elif defined(__aarch64__)
// Bits: x19..x28 (0-9), x29 (10), d8..d15 (11-18).
#define PROBE_BP 1u
#define PROBE_FP (1u << 10)
#define PROBE_PN_ARGS 0x3eu
#define PROBE_SET(n, bit)                                                      \
  "movz x" #n ", #0xc0de, lsl #48\n movk x" #n ", #" #bit "\n"
#define PROBE_SETD(n, bit)                                                     \
  "movz x9, #0xd0de, lsl #48\n movk x9, #" #bit "\n fmov d" #n ", x9\n"
#define PROBE_CMP(hi, bit)                                                     \
  "movz x10, #" #hi ", lsl #48\n movk x10, #" #bit "\n cmp x9, x10\n"          \
  "b.eq 1f\n orr x0, x0, #(1 << " #bit ")\n 1:\n"
#define PROBE_REG(n, bit) "mov x9, x" #n "\n" PROBE_CMP(0xc0de, bit)
#define PROBE_REGD(n, bit) "fmov x9, d" #n "\n" PROBE_CMP(0xd0de, bit)
__asm__(".text\n"
        ".p2align 4\n"
        "probe:\n"
        "stp x29, x30, [sp, #-160]!\n"
        "stp x19, x20, [sp, #16]\n stp x21, x22, [sp, #32]\n"
        "stp x23, x24, [sp, #48]\n stp x25, x26, [sp, #64]\n"
        "stp x27, x28, [sp, #80]\n stp d8, d9, [sp, #96]\n"
        "stp d10, d11, [sp, #112]\n stp d12, d13, [sp, #128]\n"
        "stp d14, d15, [sp, #144]\n"
        "mov x16, x0\n mov x17, x1\n"
        PROBE_SET(19, 0) PROBE_SET(20, 1) PROBE_SET(21, 2) PROBE_SET(22, 3)
        PROBE_SET(23, 4) PROBE_SET(24, 5) PROBE_SET(25, 6) PROBE_SET(26, 7)
        PROBE_SET(27, 8) PROBE_SET(28, 9) PROBE_SET(29, 10)
        PROBE_SETD(8, 11) PROBE_SETD(9, 12) PROBE_SETD(10, 13)
        PROBE_SETD(11, 14) PROBE_SETD(12, 15) PROBE_SETD(13, 16)
        PROBE_SETD(14, 17) PROBE_SETD(15, 18)
        "cbz w2, 1f\n"
        "ldp x20, x21, [x17]\n ldp x22, x23, [x17, #16]\n ldr x24, [x17, #32]\n"
        "b 2f\n"
        "1:\n"
        "ldp x0, x1, [x17]\n ldp x2, x3, [x17, #16]\n ldr x4, [x17, #32]\n"
        "2:\n"
        "blr x16\n"
        "adrp x9, probe_result\n str x0, [x9, :lo12:probe_result]\n"
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
uint64_t probe(void *fn, const uint64_t args[5], int pn) __asm__("probe");
// What fn returned to the last probe.
__attribute__((visibility("hidden"))) uint64_t probe_result;

enum probe_conv { CONV_C, CONV_PN, CONV_BP };

static int probe_garbage;

static void probe_check(const char *name, enum probe_conv conv,
                        uint64_t changed) {
  uint64_t allowed = conv == CONV_C    ? 0
                     : conv == CONV_BP ? ~(uint64_t)(PROBE_FP | PROBE_BP)
                                       : ~(uint64_t)PROBE_FP;
  if (changed & ~allowed) {
    printf("FAIL %s: registers changed, mask %#llx\n", name,
           (unsigned long long)changed);
    ++failures;
  }
  probe_garbage += conv != CONV_C && (changed & ~(uint64_t)PROBE_PN_ARGS) != 0;
}

// For a list X(name, kind) of calls: PROBE_DECLARE declares the symbols of
// each call's three entries (cacs_<name>, cacs__<name>_pn, ..._pn_bp);
// PROBE_ALL probes each of them with probe_entry(symbol, address, kind,
// convention), which the test defines, and counts them in `n`; PROBE_NO_BP
// the first two.
#define PROBE_DECLARE(name, kind)                                              \
  extern char sym_c_##name[] __asm__("cacs_" #name);                           \
  extern char sym_pn_##name[] __asm__("cacs__" #name "_pn");                   \
  extern char sym_bp_##name[] __asm__("cacs__" #name "_pn_bp");
#define PROBE_ALL(name, kind)                                                  \
  PROBE_NO_BP(name, kind)                                                      \
  probe_entry("cacs__" #name "_pn_bp", sym_bp_##name, kind, CONV_BP);         \
  n += 1;
// The same for calls without a _bp entry (cacs/sync.h's).
#define PROBE_NO_BP(name, kind)                                                \
  probe_entry("cacs_" #name, sym_c_##name, kind, CONV_C);                     \
  probe_entry("cacs__" #name "_pn", sym_pn_##name, kind, CONV_PN);            \
  n += 2;

// The verdict of `n` probes.
static void probe_report(int n) {
  if (!failures && probe_garbage)
    printf("probes: %d entries ok, garbage seen by the preserve_none ones\n",
           n);
  else if (!probe_garbage)
    printf("FAIL: no probe saw the trasher's garbage\n"), ++failures;
}

#endif // CACS_TEST_PROBE_H
