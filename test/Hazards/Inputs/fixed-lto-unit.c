// The unit of aarch64-fixed-callee-saved-lto.c compiled without
// -ffixed-x25.
#if defined(REFERENCE)
#define PN
#else
#define PN __attribute__((preserve_none))
#endif

PN __attribute__((noinline)) void seed(long *p) {
  __asm__ volatile("mov x25, #7" ::: "x25");
  *p += 1;
}

__attribute__((noinline)) long mid(long a, long b) {
  long t = a * 3 + b;
  seed(&t);
  return t;
}
