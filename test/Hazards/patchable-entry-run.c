// -fpatchable-function-entry at run time: the program patches its own entry
// sleds, found through the __patchable_function_entries section, into a
// call of a hook (x86-64: `call hook` over 5 nops; AArch64: `mov x9, x30;
// bl hook` over 2, as Linux's ftrace does), which clobbers what the ABI
// lets it clobber: r10 and r11 on x86-64, x9-x15 on AArch64. These carry
// preserve_none's 11th and its 18th-24th integer arguments; stock clang with
// the attribute gets a wrong sum. cacs moves the body and the sled of a
// preserve_none definition whose arguments reach them into a C-convention
// function (the IR is test/PreserveNoneSafety/entry-hook-split*.ll);
// the program must compute what stock clang -O0 computes without the
// attribute, and the hook must run once per call.
//
// RUN: %stock_clang -O0 -DREFERENCE -DPATCH_NOPS=5 %s -o %t.ref && %t.ref > %t.expected
// RUN: %clang -O0 -DPATCH_NOPS=5 %s -o %t.o0 && %t.o0 > %t.o0.out && diff %t.expected %t.o0.out
// RUN: %clang -O2 -DPATCH_NOPS=5 %s -o %t.o2 && %t.o2 > %t.o2.out && diff %t.expected %t.o2.out
// RUN: %stock_clang -O2 -DPATCH_NOPS=5 %s -o %t.stock && %t.stock > %t.stock.out && not diff %t.expected %t.stock.out
// RUN: %if qemu-aarch64 %{ %stock_clang %aarch64_flags -O0 -DREFERENCE -DPATCH_NOPS=2 %s -o %t.aref && %run_aarch64 %t.aref > %t.aexpected %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O0 -DPATCH_NOPS=2 %s -o %t.a0 && %run_aarch64 %t.a0 > %t.a0.out && diff %t.aexpected %t.a0.out %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -DPATCH_NOPS=2 %s -o %t.a2 && %run_aarch64 %t.a2 > %t.a2.out && diff %t.aexpected %t.a2.out %}
// RUN: %if qemu-aarch64 %{ %stock_clang %aarch64_flags -O2 -DPATCH_NOPS=2 %s -o %t.astock && %run_aarch64 %t.astock > %t.astock.out && not diff %t.aexpected %t.astock.out %}
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(REFERENCE)
#define PN
#else
#define PN __attribute__((preserve_none))
#endif

#define ARGS                                                                   \
  long a1, long a2, long a3, long a4, long a5, long a6, long a7, long a8,      \
      long a9, long a10, long a11, long a12, long a13, long a14, long a15,     \
      long a16, long a17, long a18, long a19, long a20
long hook_calls;

// The hook a tracer patches in: it clobbers what the ABI lets it clobber.
#if defined(__x86_64__)
__asm__(".text\n.globl hook\nhook:\n"
        "  incq hook_calls(%rip)\n"
        "  movq $0x5a5a5a5a, %r11\n  movq $0x6b6b6b6b, %r10\n  ret\n");
#else
// Entered by `mov x9, x30; bl hook` (as Linux's ftrace patches an entry):
// returns with x30 restored from x9; clobbers x9-x15.
__asm__(".text\n.globl hook\nhook:\n"
        "  adrp x10, hook_calls\n  ldr x11, [x10, :lo12:hook_calls]\n"
        "  add x11, x11, #1\n  str x11, [x10, :lo12:hook_calls]\n"
        "  mov x11, #0x5a5a\n  mov x12, #0x5a5a\n  mov x13, #0x5a5a\n"
        "  mov x14, #0x5a5a\n  mov x15, #0x5a5a\n"
        "  mov x10, x30\n  mov x30, x9\n  mov x9, #0x5a5a\n  br x10\n");
#endif
void hook(void);

PN __attribute__((noinline, patchable_function_entry(PATCH_NOPS))) long
f(ARGS) {
  return a1 + 2 * a2 + 3 * a3 + 4 * a4 + 5 * a5 + 6 * a6 + 7 * a7 + 8 * a8 +
         9 * a9 + 10 * a10 + 11 * a11 + 12 * a12 + 13 * a13 + 14 * a14 +
         15 * a15 + 16 * a16 + 17 * a17 + 18 * a18 + 19 * a19 + 20 * a20;
}

// The entries -fpatchable-function-entry records, which a tracer patches.
extern uintptr_t __start___patchable_function_entries[];
extern uintptr_t __stop___patchable_function_entries[];

static void patch(uintptr_t at) {
  long page = sysconf(_SC_PAGESIZE);
  void *start = (void *)(at & ~(uintptr_t)(page - 1));
  mprotect(start, 2 * page, PROT_READ | PROT_WRITE | PROT_EXEC);
#if defined(__x86_64__)
  unsigned char call[5] = {0xe8};
  int32_t rel = (int32_t)((uintptr_t)hook - (at + 5));
  memcpy(call + 1, &rel, 4);
  memcpy((void *)at, call, 5);
#else
  uint32_t insns[2] = {0xaa1e03e9 /* mov x9, x30 */,
                       0x94000000 | ((((uintptr_t)hook - (at + 4)) >> 2) &
                                     0x3ffffff) /* bl hook */};
  memcpy((void *)at, insns, 8);
  __builtin___clear_cache((char *)at, (char *)at + 8);
#endif
  mprotect(start, 2 * page, PROT_READ | PROT_EXEC);
}

int main(void) {
  int sites = 0;
  for (uintptr_t *p = __start___patchable_function_entries;
       p < __stop___patchable_function_entries; ++p, ++sites)
    patch(*p);
  volatile long k = 3;
  long r = 0;
  for (int i = 0; i < 3; ++i)
    r += f(k, k + 1, k + 2, k + 3, k + 4, k + 5, k + 6, k + 7, k + 8, k + 9,
           k + 10 + i, k + 11, k + 12, k + 13, k + 14, k + 15, k + 16,
           k + 17 + i, k + 18, k + 19);
  printf("%s %ld %ld\n", sites ? "patched" : "no site", r, hook_calls);
  return 0;
}
