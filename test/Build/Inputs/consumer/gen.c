// A libcacs user: a generator of squares, summed by the main coroutine.
#include <cacs/generator.h>
#include <stdio.h>

static void squares(cacs_gen *g, void *arg) {
  long n = *(long *)arg;
  for (long i = 1; i <= n; ++i)
    cacs_gen_yield(g, (uint64_t)(i * i));
}

int main(void) {
  long n = 100;
  cacs_gen *g = cacs_gen_create(squares, &n, 64 * 1024);
  uint64_t v, sum = 0;
  while (cacs_gen_next(g, &v))
    sum += v;
  cacs_gen_destroy(g);
  printf("sum=%llu\n", (unsigned long long)sum);
  return 0;
}
