//===- PreserveNoneSymbols.h - Symbol names cacs makes ----------*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The suffixes of the symbols the list pass makes: the decorated name of a
// listed function's preserve_none body and the name of its C entry. The list
// pass, the wrappers of the rule set and the front door (which names a
// wrapped definition's body to the linker) spell them from here.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_PRESERVENONESYMBOLS_H
#define CACS_PRESERVENONESYMBOLS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <string>

namespace cacs {

/// The suffix of the symbol under which the preserve_none body of an
/// externally visible listed function is defined and called:
/// `<name>.preserve_none_list`. The plain name is a C-convention entry that
/// calls the body, so whatever reaches the plain name (code built without the
/// list or by another compiler, dlsym, a function pointer, an unprototyped
/// call) is right, and a caller built with the list that meets a definition
/// built without it fails to link, the linker naming the missing
/// `<name>.preserve_none_list`. A dot suffix of lowercase letters and `_`:
/// demanglers read `_Z1fv.preserve_none_list` as `f() [clone
/// .preserve_none_list]`. Another suffix marks another contract: change it
/// when the convention of the body changes.
inline constexpr const char *DecoratedSuffix = ".preserve_none_list";

/// `<Plain>.preserve_none_list`.
inline std::string decoratedName(llvm::StringRef Plain) {
  return (Plain + DecoratedSuffix).str();
}

/// Is \p Name a decorated body's (or something made from one, such as its
/// shield)?
inline bool isDecoratedName(llvm::StringRef Name) {
  return Name.contains(DecoratedSuffix);
}

/// The suffix of the C-convention entry thunk that stands in for a listed
/// function wherever its address is taken: `<name>.cacs_c_entry`.
inline constexpr const char *CEntrySuffix = ".cacs_c_entry";

} // namespace cacs

#endif // CACS_PRESERVENONESYMBOLS_H
