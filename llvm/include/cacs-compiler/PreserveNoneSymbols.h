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

#include "cacs/detail/contract.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Demangle/Demangle.h"

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

/// The name the user wrote for the function whose symbol is \p Name, for
/// diagnostics: a listed function's decorated body or C entry by its own
/// name, libcacs's preserve_none entry `cacs__<name>_pn` (`_pn_bp`,
/// `_pn_none`; cacs/detail/contract.h) by the call `cacs_<name>` that binds
/// to it, and a C++ name demangled.
inline std::string sourceName(llvm::StringRef Name) {
  Name.consume_front("\1");
  for (const char *Suffix : {DecoratedSuffix, CEntrySuffix}) {
    size_t At = Name.find(Suffix);
    if (At != llvm::StringRef::npos)
      Name = Name.take_front(At);
  }
  llvm::StringRef Entry = Name;
  if (Entry.consume_front(CACS_CONTRACT_ENTRY_PREFIX))
    for (const char *Suffix :
         {CACS_CONTRACT_ENTRY_SUFFIX_NONE, CACS_CONTRACT_ENTRY_SUFFIX_BP,
          CACS_CONTRACT_ENTRY_SUFFIX})
      if (Entry.consume_back(Suffix) && !Entry.empty())
        return ("cacs_" + Entry).str();
  return llvm::demangle(Name);
}

} // namespace cacs

#endif // CACS_PRESERVENONESYMBOLS_H
