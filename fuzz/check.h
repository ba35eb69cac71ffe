//===- fuzz/check.h - How a fuzz target stops on a broken promise -*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// FUZZ_CHECK(Cond): a promise of the code under test; broken, it stops the
// run as a crash does (libFuzzer saves the input), naming the promise. For
// the C and the C++ targets alike.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_FUZZ_CHECK_H
#define CACS_FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define FUZZ_CHECK(Cond)                                                       \
  do {                                                                         \
    if (!(Cond)) {                                                             \
      fprintf(stderr, "fuzz: broken promise: %s (%s:%d)\n", #Cond, __FILE__,  \
              __LINE__);                                                       \
      abort();                                                                 \
    }                                                                          \
  } while (0)

#endif // CACS_FUZZ_CHECK_H
