//===- PreserveNoneRulesWrapper.h - C-convention wrappers -------*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// How cacs builds a C-convention wrapper around a preserve_none call
// (WrapperBuilder): the list's C-entry thunks and the safety pass's shields
// are the same kind of function, and keep the code generation settings of
// the function they stand for.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_PRESERVENONERULESWRAPPER_H
#define CACS_PRESERVENONERULESWRAPPER_H

#include "llvm/IR/Attributes.h"

#include <map>
#include <string>
#include <tuple>

namespace llvm {
class Function;
class FunctionType;
class Module;
} // namespace llvm

namespace cacs {

/// Marks the C-convention wrappers cacs makes (shields, C entries, alias
/// entries): they exist to keep the C convention, so no list or APN may
/// give them preserve_none (a later full-LTO link sees them too).
inline constexpr const char *WrapperAttr = "cacs-wrapper";

/// Is \p F one of the wrappers cacs makes (WrapperAttr; C entries are also
/// known by their name, as modules from before the attribute name them)?
bool isCACSWrapper(const llvm::Function &F);

/// Gives \p To the code generation settings of \p From that a function
/// cacs makes must not lose (target features, frame pointers, branch
/// protection, stack probes, entry instrumentation, ...).
void copyCodeGenSettings(llvm::Function &To, const llvm::Function &From);

/// What a C-convention wrapper around a preserve_none call is for.
enum class WrapperKind {
  /// The list's `<name>.cacs_c_entry`: stands for the function wherever its
  /// address is taken; one per function and program (linkonce_odr).
  CEntry,
  /// The entry an alias of a listed function points at when the alias is
  /// not listed: `<name>.cacs_c_entry.alias`, internal and in no comdat (a
  /// comdat may be discarded for another unit's copy).
  AliasEntry,
  /// The safety pass's `<name>.cacs.shield`: saves every callee-saved
  /// register around the call; private, one per lowering.
  Shield,
};

/// Builds and caches the wrappers of a module. The key holds everything that
/// changes how a wrapper is lowered: the callee, its function type, the
/// call-site attributes, and the code generation attributes of the function
/// whose settings the wrapper copies (target cpu and features, frame pointer,
/// branch protection, stack probes, optnone, ...).
class WrapperBuilder {
public:
  explicit WrapperBuilder(llvm::Module &M) : M(M) {}

  /// A wrapper that calls \p Callee (null: the wrapper's first parameter,
  /// an indirect callee) with type \p FTy, attributes \p CallAttrs, and the
  /// code generation settings of \p SettingsFrom.
  llvm::Function *get(WrapperKind K, llvm::Function *Callee,
                      llvm::FunctionType *FTy, llvm::AttributeList CallAttrs,
                      const llvm::Function &SettingsFrom, bool NoThrow);

private:
  llvm::Module &M;
  std::map<std::tuple<int, llvm::Function *, llvm::FunctionType *, void *,
                      std::string>,
           llvm::Function *>
      Cache;
};

} // namespace cacs

#endif // CACS_PRESERVENONERULESWRAPPER_H
