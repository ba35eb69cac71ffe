// Exact stacks' slots are packed to 16 bytes, not each part: a stack and
// its block are multiples of 8, and only the stack's top must be 16-byte
// aligned (stack_exact.c). A stack of 16n + 8 bytes under a block of
// 16m + 8 takes a slot of 16(n + m + 1), its slab's slots starting 8
// bytes in; two sizes of one slot but other starts are two classes. For
// each size: every top aligned, the stack right below its block, the
// slots adjacent at that stride, and every slot's bytes written whole
// leave its neighbours intact. x86-64, and AArch64 under qemu.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t/p
// RUN: %t/p | FileCheck %s
// RUN: %if qemu-aarch64 %{ \
// RUN:   %clang %aarch64_flags -O2 -I%cacs_include %s %cacs_rt_aarch64 -lpthread -o %t/a64 && \
// RUN:   %run_aarch64 %t/a64 | FileCheck %s %}
//
// Breaking it: main's stack_exact.c refuses a stack of 472 bytes (a
// multiple of 16 only: ENOMEM); with the class keyed by the slot alone,
// 464 + 80 lands in 472 + 72's slab and its tops are 8 bytes off. (A
// block is at least the short descriptor, 72 bytes.)

// CHECK: 472 + 72: slot 544, tops aligned, below the block, adjacent, intact
// CHECK-NEXT: 464 + 80: slot 544, tops aligned, below the block, adjacent, intact
// CHECK-NEXT: 480 + 72: slot 560, tops aligned, below the block, adjacent, intact
// CHECK-NEXT: 472 + 80: slot 560, tops aligned, below the block, adjacent, intact
// CHECK-NEXT: PASS

#include "cacs/stack.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

// In libcacs (hidden, linked statically): stack_exact.h.
void *cacs__exact_alloc(size_t stack_bytes, size_t hdr_size, size_t desc_off);
void cacs__exact_free(cacs_stack *s);

enum { N = 64, SIZES = 4 };

static const struct {
  size_t stack, hdr, slot;
} sizes[SIZES] = {{472, 72, 544}, {464, 80, 544}, {480, 72, 560}, {472, 80, 560}};

static cacs_stack *got[SIZES][N];

int main(void) {
  int bad = 0;
  // Interleaved: the classes of one slot and two starts live side by side.
  for (int i = 0; i < N; ++i)
    for (int k = 0; k < SIZES; ++k)
      if (!(got[k][i] = cacs__exact_alloc(sizes[k].stack, sizes[k].hdr, 0))) {
        printf("%zu + %zu: no stack\n", sizes[k].stack, sizes[k].hdr);
        return 1;
      }
  // Each slot whole: its stack with its index, its block past the
  // descriptor (the descriptor's own words are libcacs's) too.
  for (int k = 0; k < SIZES; ++k)
    for (int i = 0; i < N; ++i) {
      cacs_stack *d = got[k][i];
      memset(d->lo, 0x40 + k * N + i, sizes[k].stack);
    }
  for (int k = 0; k < SIZES; ++k) {
    int aligned = 1, below = 1, adjacent = 1, intact = 1;
    for (int i = 0; i < N; ++i) {
      cacs_stack *d = got[k][i];
      aligned &= (uintptr_t)d->top % 16 == 0 && (void *)d == d->top;
      below &= (char *)d->lo + sizes[k].stack == (char *)d->top;
      // Fresh slots are carved in order, in one slab (64 of them).
      if (i > 0)
        adjacent &= (char *)d->top - (char *)got[k][i - 1]->top ==
                    (ptrdiff_t)sizes[k].slot;
      const unsigned char *p = d->lo;
      for (size_t b = 0; b < sizes[k].stack; ++b)
        intact &= p[b] == (unsigned char)(0x40 + k * N + i);
      intact &= (d->flags & CACS_STACK_NOGUARD) != 0;
    }
    printf("%zu + %zu: slot %zu, tops %s, %s the block, %s, %s\n",
           sizes[k].stack, sizes[k].hdr, sizes[k].slot,
           aligned ? "aligned" : "MISALIGNED", below ? "below" : "NOT BELOW",
           adjacent ? "adjacent" : "NOT ADJACENT",
           intact ? "intact" : "OVERWRITTEN");
    bad |= !(aligned && below && adjacent && intact);
  }
  for (int k = 0; k < SIZES; ++k)
    for (int i = 0; i < N; ++i)
      cacs__exact_free(got[k][i]);
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad;
}
