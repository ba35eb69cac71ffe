//===- fuzz/stack-bounds.cpp - Fuzz target: the stack-bounds reader -------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The bytes of a linked program, read by the link's half of
// -fcacs-stack-bounds (cacs-stack-bounds.cpp): its symbols, .stack_sizes,
// the compiles' records of entries and breakers, its PLT, and the machine
// code of every function an entry reaches. The seeds are small programs
// linked with -fcacs-stack-bounds. Besides what the sanitizers catch, it
// stops on a broken promise: the bounds come in the order of their
// addresses, each with a size or a reason, not both; an error leaves no
// bounds.
//
//===----------------------------------------------------------------------===//

#include "cacs-stack-bounds.h"

#include "check.h"

#include "llvm/Support/MemoryBufferRef.h"

#include <cstdint>
#include <string>

using namespace llvm;
using namespace cacs;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  MemoryBufferRef Program(StringRef(reinterpret_cast<const char *>(Data), Size),
                          "fuzz.elf");
  std::string Error;
  std::vector<StackBound> Bounds = computeStackBounds(Program, Error);
  FUZZ_CHECK(Error.empty() || Bounds.empty());
  for (size_t I = 0; I < Bounds.size(); ++I) {
    const StackBound &B = Bounds[I];
    FUZZ_CHECK(I == 0 || Bounds[I - 1].Address < B.Address);
    FUZZ_CHECK(B.Bytes.has_value() == B.Why.empty());
  }
  std::optional<uint64_t> Base = imageBase(Program);
  if (!Bounds.empty())
    stackBoundsTableAsm(Bounds, Base.value_or(0));
  return 0;
}
