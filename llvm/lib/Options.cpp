//===- Options.cpp - Settings shared by the cacs passes -------------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//

#include "cacs/Options.h"

#include "llvm/Support/CommandLine.h"

using namespace llvm;

static cl::opt<bool> AutoPreserveNone(
    "cacs-auto-preserve-none", cl::init(false),
    cl::desc("Propagate preserve_none to the callers of preserve_none "
             "functions where that is safe (-fauto-preserve-none)"));

static cl::list<std::string> PreserveNoneLists(
    "cacs-preserve-none-list", cl::value_desc("file"),
    cl::desc("Give preserve_none to the functions named in this list "
             "(-fpreserve-none-list=); may be repeated"));

bool cacs::autoPreserveNoneEnabled() { return AutoPreserveNone; }

void cacs::setAutoPreserveNone(bool Enabled) { AutoPreserveNone = Enabled; }

ArrayRef<std::string> cacs::preserveNoneListFiles() {
  return PreserveNoneLists;
}

void cacs::addPreserveNoneListFile(StringRef Path) {
  PreserveNoneLists.push_back(Path.str());
}

StringRef cacs::version() { return CACS_VERSION; }
