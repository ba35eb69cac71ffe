//===- cacs-errors.h - How the front door stops on an error -----*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_DRIVER_ERRORS_H
#define CACS_DRIVER_ERRORS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace cacs {

/// The flags every clang error carries: "clang: error: ...", as the stock
/// driver prints them, so tools that parse clang's output keep working.
[[noreturn]] inline void fatal(llvm::StringRef Prog, const llvm::Twine &Msg) {
  llvm::errs() << Prog << ": error: " << Msg << "\n";
  std::exit(1);
}

} // namespace cacs

#endif // CACS_DRIVER_ERRORS_H
