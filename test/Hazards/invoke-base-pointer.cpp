// An invoke of a preserve_none function from a C++ frame that addresses its
// locals through a base pointer (rbx: a realigned frame with dynamic
// allocas, which ASan gives any frame with locals). LLVM 22 saves rbx
// around such a call, but not around an invoke: the backend stopped with
// "Stack realignment in presence of dynamic allocas is not supported with
// this calling convention" (stock clang 22 and cacs alike; a cacs_yield()
// inside a std::lock_guard's scope under -O0 -fsanitize=address was
// enough). cacs shields the invoke (the C-convention shield saves rbx and
// lets exceptions through). The callee trashes rbx and may throw; the
// output must be stock clang -O0's without the attribute.
//
// RUN: %stock_clangxx -O0 -DREFERENCE %s -o %t.ref && %t.ref > %t.expected
// RUN: %clangxx -O0 -fsanitize=address %s -o %t.a0 && %t.a0 > %t.a0.out && diff %t.expected %t.a0.out
// RUN: %clangxx -O2 -fsanitize=address %s -o %t.a2 && %t.a2 > %t.a2.out && diff %t.expected %t.a2.out
// RUN: %clangxx -O0 %s -o %t.v0 && %t.v0 > %t.v0.out && diff %t.expected %t.v0.out
// RUN: %clangxx -O2 %s -o %t.v2 && %t.v2 > %t.v2.out && diff %t.expected %t.v2.out
// RUN: %clangxx -O2 -fauto-preserve-none %s -o %t.apn && %t.apn > %t.apn.out && diff %t.expected %t.apn.out
// RUN: %clangxx %aarch64_flags -O2 %s -o %t.arm && %run_aarch64 %t.arm > %t.arm.out && diff %t.expected %t.arm.out
#include <cstdio>
#include <cstring>
#include <stdexcept>

#ifdef REFERENCE
#define PN
#else
#define PN __attribute__((preserve_none))
#endif

// Clobbers every callee-saved register but the frame pointer, as any
// preserve_none function may, and throws when asked to.
PN __attribute__((noinline)) long clobber(long x) {
#if defined(__x86_64__)
  __asm__ volatile("movq $0, %%rbx" ::: "rbx");
  __asm__ volatile("" ::: "r12", "r13", "r14", "r15", "memory");
#elif defined(__aarch64__)
  __asm__ volatile("mov x19, #0" ::: "x19");
  __asm__ volatile("" ::: "x20", "x21", "x22", "x23", "x24", "x25", "x26",
                   "x27", "x28", "memory");
#endif
  if (x < 0)
    throw std::runtime_error("negative");
  return x * 3;
}

static int destroyed;
struct Guard {
  ~Guard() { ++destroyed; } // makes each call below an invoke
};

// A realigned frame with a VLA: the locals are addressed through the base
// pointer, which the invokes below must not lose.
__attribute__((noinline)) long frame(int n) {
  alignas(64) long aligned[4] = {1, 2, 3, 4};
  long *vla = static_cast<long *>(__builtin_alloca(n * sizeof(long)));
  for (int i = 0; i < n; i++)
    vla[i] = 100 + i;
  long sum = 0;
  {
    Guard g;
    sum += clobber(aligned[1]);
    sum += clobber(vla[n - 1]);
  }
  try {
    Guard g;
    sum += clobber(-1);
  } catch (const std::exception &e) {
    std::printf("caught %s\n", e.what());
  }
  for (int i = 0; i < 4; i++)
    sum += aligned[i] * 1000;
  for (int i = 0; i < n; i++)
    sum += vla[i];
  return sum;
}

int main() {
  long a = frame(5);
  long b = frame(9);
  std::printf("frame(5) = %ld, frame(9) = %ld, guards %d\n", a, b, destroyed);
  return 0;
}
