//===- PreserveNoneListChannel.cpp - Clang plugin to list pass ------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// What the clang plugin marked, kept for the list pass of the same process.
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/PreserveNoneListChannel.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Function.h"

using namespace llvm;

/// The symbol names the clang plugin marked; one translation unit per
/// process.
static StringSet<> &systemHeaderFunctions() {
  static StringSet<> Names;
  return Names;
}

/// A symbol name without the "\01" that marks an asm label in the IR.
static StringRef symbolName(StringRef Name) {
  Name.consume_front("\1");
  return Name;
}

void cacs::markSystemHeaderFunction(StringRef SymbolName) {
  systemHeaderFunctions().insert(symbolName(SymbolName));
}

bool cacs::isSystemHeaderFunction(StringRef SymbolName) {
  return systemHeaderFunctions().contains(symbolName(SymbolName));
}

/// The symbol names of the other functions the source declares.
static StringSet<> &sourceFunctions() {
  static StringSet<> Names;
  return Names;
}

void cacs::markSourceFunction(StringRef SymbolName) {
  sourceFunctions().insert(symbolName(SymbolName));
}

static bool &clangSourceCompile() {
  static bool Set = false;
  return Set;
}

void cacs::markClangSourceCompile() { clangSourceCompile() = true; }

bool cacs::isClangSourceCompile() { return clangSourceCompile(); }

bool cacs::isCompilerRuntimeDeclaration(const Function &F) {
  // Only a source compile knows what its source declares; the plugin marks
  // the compile as one only when a list is given.
  if (!clangSourceCompile() || !F.isDeclaration() || F.isIntrinsic())
    return false;
  StringRef Name = symbolName(F.getName());
  return !sourceFunctions().contains(Name) &&
         !systemHeaderFunctions().contains(Name);
}
