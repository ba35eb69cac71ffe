// The floor of a perform + resume round (issue 33): the same two switches
// the round's assembly makes (lib/effect_x86_64.S: SUSPEND, then
// CONTINUE through the word below the saved sp), between two fixed
// contexts, with nothing else: no table, no tests, no chain. A round of
// `up1` is the performer's call and the handler's answer; `state` is the
// get/put loop, two rounds per iteration. x86-64 only; the other shapes
// are not this file's (exit 64).

#include "effect_shapes.h"

#include <stdlib.h>

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

static fctx self, caller;
static uint64_t count;
static int state_shape;
static _Alignas(16) char stack[1 << 16];

__attribute__((preserve_none, noreturn)) static void body(void) {
  uint64_t acc = 0;
  if (state_shape) {
    for (uint64_t i = 0; i < count; ++i) {
      uint64_t v = floor_switch(&self, &caller, 0); // get
      floor_switch(&self, &caller, v + 1);          // put
    }
  } else {
    for (uint64_t i = 0; i < count; ++i)
      acc += floor_switch(&self, &caller, i);
  }
  floor_switch(&self, &caller, acc); // done
  abort();                           // never resumed
}

static void start(void) {
  void **sp = (void **)(stack + sizeof stack - 8); // as after a call
  sp[0] = NULL;
  sp[-1] = (void *)body;
  self.sp = sp;
  self.fp = NULL;
  self.bp = NULL;
}

static uint64_t shape_up(int up, uint64_t n) {
  (void)up; // no handlers between: the floor has no depth
  count = n;
  state_shape = 0;
  start();
  uint64_t v = floor_switch(&caller, &self, 0);
  for (uint64_t i = 0; i < n; ++i)
    v = floor_switch(&caller, &self, v + 1);
  return v;
}

static uint64_t shape_state(uint64_t n) {
  count = n;
  state_shape = 1;
  start();
  uint64_t value = 0, q = floor_switch(&caller, &self, 0);
  for (uint64_t i = 0; i < 2 * n; ++i) {
    if (i % 2 == 0) {
      q = floor_switch(&caller, &self, value); // answer get
    } else {
      value = q;                           // put's payload
      q = floor_switch(&caller, &self, 0); // answer put
    }
  }
  return value;
}

static uint64_t unsupported(void) {
  fprintf(stderr, "floor_effects: only the shapes state and upK\n");
  exit(64);
}
static uint64_t shape_throw(int frames, uint64_t n) {
  (void)frames, (void)n;
  return unsupported();
}
static uint64_t shape_generator(uint64_t n) {
  (void)n;
  return unsupported();
}
static uint64_t shape_skynet(uint64_t leaves) {
  (void)leaves;
  return unsupported();
}
static uint64_t shape_idle(uint64_t n, uint64_t *rss_bytes) {
  (void)n, (void)rss_bytes;
  return unsupported();
}

int main(int argc, char **argv) { return shape_main(argc, argv, "floor"); }
