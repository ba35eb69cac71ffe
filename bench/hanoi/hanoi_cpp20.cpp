//===- bench/hanoi/hanoi_cpp20.cpp - Hanoi with C++20 generators ----------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// Variants (-v):
//   cpp20-nested     one Gen20 per level; each level re-yields every value of
//                    its children, so a move crosses O(depth) frames;
//   cpp20-symmetric  RecGen with O(1) delegation by symmetric transfer.
//
//===----------------------------------------------------------------------===//

#include "gen20.hpp"
#include "hanoi.h"
#include "recgen20.hpp"

#include <cstring>

namespace {

Gen20<uint32_t> hanoiNested(unsigned N, char F, char T, char A) {
  if (N == 0)
    co_return;
  {
    auto G = hanoiNested(N - 1, F, A, T);
    while (G.next())
      co_yield G.value();
  }
  co_yield HANOI_MOVE(N, F, T);
  auto G = hanoiNested(N - 1, A, T, F);
  while (G.next())
    co_yield G.value();
}

RecGen<uint32_t> hanoiSym(unsigned N, char F, char T, char A) {
  if (N == 0)
    co_return;
  co_yield ElementsOf<uint32_t>{hanoiSym(N - 1, F, A, T)};
  co_yield HANOI_MOVE(N, F, T);
  co_yield ElementsOf<uint32_t>{hanoiSym(N - 1, A, T, F)};
}

template <typename Gen>
__attribute__((noinline)) uint64_t drain(Gen G, uint64_t H) {
  while (G.next())
    H = hanoi_fold(H, G.value());
  return H;
}

uint64_t runSym(unsigned N, uint64_t Times, void *) {
  uint64_t H = 0;
  for (uint64_t I = 0; I < Times; ++I)
    H = drain(hanoiSym(N, 'a', 'b', 'c'), H);
  return H;
}

uint64_t runNested(unsigned N, uint64_t Times, void *) {
  uint64_t H = 0;
  for (uint64_t I = 0; I < Times; ++I)
    H = drain(hanoiNested(N, 'a', 'b', 'c'), H);
  return H;
}

} // namespace

int main(int argc, char **argv) {
  bench_args A = bench_parse(argc, argv, 20);
  const char *V = A.variant ? A.variant : "cpp20-symmetric";
  bool Sym = !strcmp(V, "cpp20-symmetric");
  if (!Sym && strcmp(V, "cpp20-nested")) {
    fprintf(stderr, "unknown variant %s\n", V);
    return 64;
  }
  return hanoi_bench(&A, V, Sym ? runSym : runNested, nullptr);
}
