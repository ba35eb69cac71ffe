// The callee of aarch64-fixed-callee-saved.c, compiled without -ffixed-x25:
// it writes x25, which the C convention makes it restore and preserve_none
// does not.
#if defined(ATTR)
#define PN __attribute__((preserve_none))
#else
#define PN
#endif

PN __attribute__((noinline)) long work(long a, long b) {
  __asm__ volatile("mov x25, #7" ::: "x25");
  return a * 3 + b + 1;
}
