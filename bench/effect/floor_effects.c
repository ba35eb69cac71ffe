// The floor of a perform + resume round (issue 33): the same two switches
// the round's assembly makes (lib/effect_x86_64.S: SUSPEND, then
// CONTINUE through the word below the saved sp), between two fixed
// contexts, with nothing else: no table, no tests, no chain. A round of
// `up1` is the performer's call and the handler's answer; `state` is the
// get/put loop, two rounds per iteration. x86-64 only; the other shapes
// are not this file's (exit 64).

#include <stdint.h>

#if !defined(__x86_64__)
#error "floor_effects.c: x86-64 only"
#endif

// sp, (pc: unused, the word below sp), fp, bp: effect_layout.h's offsets.
typedef struct {
  void *sp, *pc, *fp, *bp;
} fctx;

// Suspend into *from (r12), continue *to (r13), which returns v (r14).
__attribute__((preserve_none)) uint64_t floor_switch(fctx *from, fctx *to,
                                                     uint64_t v);
__asm__(".text\n"
        ".p2align 4\n"
        ".globl floor_switch\n"
        ".type floor_switch,@function\n"
        "floor_switch:\n"
        "  leaq 8(%rsp), %rax\n"
        "  movq %rax, 0(%r12)\n"
        "  movq %rbp, 16(%r12)\n"
        "  movq %rbx, 24(%r12)\n"
        "  movq %r14, %rax\n"
        "  movq 16(%r13), %rbp\n"
        "  movq 24(%r13), %rbx\n"
        "  movq 0(%r13), %rsp\n"
        "  jmpq *-8(%rsp)\n"
        ".size floor_switch, .-floor_switch\n");

#define FLOOR_CTX fctx
#define FLOOR_IMPL "floor"
#define FLOOR_RESUME floor_switch
#define FLOOR_PERFORM floor_switch
#define FLOOR_BODY_ATTRS __attribute__((preserve_none))
#include "floor_rounds.h"

static void start(void) {
  void **sp = (void **)(stack + sizeof stack - 8); // as after a call
  sp[0] = NULL;
  sp[-1] = (void *)body;
  self.sp = sp;
  self.fp = NULL;
  self.bp = NULL;
}
