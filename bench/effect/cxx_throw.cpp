// The throwK shape of effect_shapes.h with a C++ exception (throw and
// catch through K frames, the unwinder's cost), beside the throws by
// effects of cacs_effects.c and seff_effects.c: variant throwK only.

#include "../common/bench.h"

#include <cstdio>

namespace {
struct Fail {
  int frames;
};

__attribute__((noinline)) int deep(int left, int frames) {
  if (left == 0)
    throw Fail{frames};
  int r = deep(left - 1, frames);
  __asm__ volatile("" : "+r"(r));
  return r + 1;
}
} // namespace

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 1000000);
  int k = 0;
  if (!a.variant || std::sscanf(a.variant, "throw%d", &k) != 1 || k < 0) {
    std::fprintf(stderr, "variants: throwK\n");
    return 64;
  }
  uint64_t n = a.n / 10 ? a.n / 10 : 1;
  char variant[64];
  std::snprintf(variant, sizeof variant, "c++-%s", a.variant);
  bench_run r = bench_begin("effect", variant, a.n);
  for (int i = 0; i < a.reps; ++i) {
    uint64_t t0 = bench_cpu_ns(), caught = 0;
    for (uint64_t j = 0; j < n; ++j) {
      try {
        deep(k, k);
      } catch (const Fail &f) {
        caught += (uint64_t)f.frames;
      }
    }
    bench_record(&r, bench_cpu_ns() - t0, n, caught, n * (uint64_t)k);
  }
  return bench_end(&r);
}
