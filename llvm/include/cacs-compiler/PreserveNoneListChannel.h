//===- PreserveNoneListChannel.h - Clang plugin to list pass ----*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// What the clang plugin tells the list pass that the IR does not say: which
// functions a system header declares, which the source declares, and that
// clang compiles a source file. Both run in one process; the plugin links
// against the pass plugin and calls these. PreserveNoneListChannel.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_PRESERVENONELISTCHANNEL_H
#define CACS_PRESERVENONELISTCHANNEL_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class Function;
} // namespace llvm

namespace cacs {

/// Called by the clang plugin for every function of the translation unit that
/// a system header declares, with its symbol name.
void markSystemHeaderFunction(llvm::StringRef SymbolName);

/// Did the clang plugin mark this symbol name?
bool isSystemHeaderFunction(llvm::StringRef SymbolName);

/// Called by the clang plugin for every other function the translation unit
/// declares (outside a system header), with its symbol name.
void markSourceFunction(llvm::StringRef SymbolName);

/// Is \p F a declaration that no source declaration of a clang source
/// compile names, so that the compiler made it for a library of its own
/// (the C++ ABI, a sanitizer's runtime, compiler-rt or libgcc), which is
/// built without any list?
bool isCompilerRuntimeDeclaration(const llvm::Function &F);

/// Called by the clang plugin when clang compiles a source file: clang's
/// code generator then prints the pass's located list problems itself,
/// `file:line:col: error: ...` with the line of the list under it
/// (emitListProblem); elsewhere (opt, a linker, clang on IR) the location
/// leads the message.
void markClangSourceCompile();

/// Did the clang plugin call markClangSourceCompile?
bool isClangSourceCompile();

} // namespace cacs

#endif // CACS_PRESERVENONELISTCHANNEL_H
