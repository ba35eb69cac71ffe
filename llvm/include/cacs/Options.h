//===- cacs/Options.h - Settings shared by the cacs passes ------*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The settings of one compilation. They come from `-mllvm -cacs-*` options
// (for `opt`, and for stock clang with `-fplugin=` loading this library) or
// from the cacs clang plugin, which the `build/bin/clang` front door drives
// with `-fplugin-arg-cacs-*`. The passes read them when the pipeline is built.
//
// Settings never reach a full-LTO link this way (lld loads pass plugins after
// parsing its options), so the per-TU passes also record what they need in the
// IR: see AutoPreserveNone.h and PreserveNoneList.h.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_OPTIONS_H
#define CACS_OPTIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace cacs {

/// Is automatic preserve_none propagation (-fauto-preserve-none) on for this
/// translation unit?
bool autoPreserveNoneEnabled();
void setAutoPreserveNone(bool Enabled);

/// The -fpreserve-none-list= files, in command-line order.
llvm::ArrayRef<std::string> preserveNoneListFiles();
void addPreserveNoneListFile(llvm::StringRef Path);

/// The version string of cacs, e.g. "0.1.0".
llvm::StringRef version();

} // namespace cacs

#endif // CACS_OPTIONS_H
