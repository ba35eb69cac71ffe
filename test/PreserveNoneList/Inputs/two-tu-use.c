// Calls of the listed functions from another translation unit (two-tu-*.c).
#include <stdio.h>
long mix8(long, long, long, long, long, long, long, long);
double fiber_step(double, int);
int apply(int (*)(int), int);
int sq(int);
int (*apply_here(void))(int (*)(int), int);
int main(int argc, char **argv) {
  long n = argc; // 1: keep the arguments out of constant folding.
  printf("mix8 %ld\n", mix8(n, n + 1, n + 2, n + 3, n + 4, n + 5, n + 6, n + 7));
  printf("fiber_step %.1f\n", fiber_step(2.0 * n, (int)n + 2));
  printf("apply %d\n", apply(sq, (int)n + 4));
  // Through pointers: the C-entry thunk, one address in both units.
  int (*volatile p)(int (*)(int), int) = apply;
  printf("pointer %d\n", p(sq, (int)n + 5));
  printf("same address %d\n", p == apply_here());
  return 0;
}
