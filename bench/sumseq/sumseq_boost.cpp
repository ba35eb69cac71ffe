//===- bench/sumseq/sumseq_boost.cpp - Sum of sequence, Boost.Context -----===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The generator runs on its own stack; every value costs two jump_fcontext
// (resume and yield), the value travels in transfer_t::data.
//
//===----------------------------------------------------------------------===//

#include "sumseq.h"

#include <boost/context/detail/fcontext.hpp>
#include <cstdlib>

namespace bc = boost::context::detail;

namespace {

constexpr size_t StackSize = 64 * 1024;

// The producer: yields Count..1, then 0 as the end marker.
void producer(bc::transfer_t T) {
  uint64_t Count = *static_cast<uint64_t *>(T.data);
  bc::fcontext_t Caller = T.fctx;
  for (; Count != 0; --Count)
    Caller = bc::jump_fcontext(Caller, reinterpret_cast<void *>(Count)).fctx;
  bc::jump_fcontext(Caller, nullptr);
  std::abort();
}

__attribute__((noinline)) uint64_t sumOf(uint64_t N, void *State) {
  char *Stack = static_cast<char *>(State);
  bc::fcontext_t G = bc::make_fcontext(Stack + StackSize, StackSize, producer);
  uint64_t Sum = 0;
  bc::transfer_t T = bc::jump_fcontext(G, &N);
  while (T.data) {
    Sum += reinterpret_cast<uint64_t>(T.data);
    T = bc::jump_fcontext(T.fctx, nullptr);
  }
  return Sum;
}

} // namespace

int main(int argc, char **argv) {
  bench_args A = sumseq_args(argc, argv);
  return sumseq_bench(&A, "boost-fcontext", sumOf,
                      aligned_alloc(4096, StackSize));
}
