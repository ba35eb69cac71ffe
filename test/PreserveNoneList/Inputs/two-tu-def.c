// Definitions of the listed functions (two-tu-*.c, lto*.c). noinline keeps
// them, and their calls, in the IR after a full-LTO link.
__attribute__((noinline)) long mix8(long a, long b, long c, long d, long e, long f, long g, long h) {
  return a + 10 * b + 100 * c + 1000 * d + 10000 * e + 100000 * f +
         1000000 * g + 10000000 * h;
}
__attribute__((noinline)) double fiber_step(double x, int n) { return x * n + 0.5; }
int apply(int (*f)(int), int x) { return f(x) + 1; }
int sq(int x) { return x * x; }
// The address of a listed function, taken in this unit too.
int (*apply_here(void))(int (*)(int), int) { return apply; }
