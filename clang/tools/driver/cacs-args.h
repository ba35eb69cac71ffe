//===- cacs-args.h - The front door's scan of its command line --*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// What the front door reads of its command line: response files expanded
// as clang expands them, then the cacs flags (taken out) and what else it
// must know of the command. Apart from the front door's phases so that the
// fuzz target fuzz/args.cpp runs the same code. cacs-args.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_DRIVER_ARGS_H
#define CACS_DRIVER_ARGS_H

#include "cacs-compiler/Settings.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Allocator.h"

#include <string>
#include <vector>

namespace llvm {
namespace vfs {
class FileSystem;
} // namespace vfs
} // namespace llvm

namespace cacs {

/// What the cacs flags of one command line ask for.
struct CACSFlags {
  /// The flag settings of Settings.def's table, by SettingID.
  bool Flag[NumSettings];
  /// The choice settings' values, as indexes into their Choices.
  unsigned Choice[NumSettings] = {};
  std::vector<std::string> ListFiles;
  bool Version = false;
  bool Help = false;       // --help, -help
  bool NoLink = false;     // -c, -S, -E, -fsyntax-only, -M, -MM
  bool SaveTemps = false;  // -save-temps[=...]: cc1 compiles IR
  bool FullLTO = false;    // -flto, -flto=full (last -f[no-]lto* wins)
  bool AnyLTO = false;     // also -flto=thin
  bool HasFuseLd = false;  // the user chose a linker
  bool HasIRInput = false; // .ll/.bc inputs skip the clang plugin
  bool DepFile = false;    // -M, -MM, -MD, -MMD, -MF, -Wp,-M...
  bool FoundCACSFlag = false;
  /// The target the command names (--target=, -target), or empty.
  std::string Target;
  /// -m32, -mx32, -m16, -mabi=ilp32, -mbig-endian: not the ABI libcacs was
  /// built for, whatever the triple says.
  bool OtherABI = false;
  bool NoStdInc = false; // -nostdinc
  /// The directories the command searches for headers (-I, -isystem,
  /// -idirafter) and for libraries (-L), in order.
  std::vector<std::string> IncludeDirs, LibraryDirs;
  /// What the command line gives the linker, in order: -Wl, (split at
  /// commas), -Xlinker, -z.
  std::vector<std::string> LinkerArgs;
  /// The output file (-o), or empty for the default.
  std::string Output;

  CACSFlags() {
    for (const Setting &S : Settings)
      Flag[static_cast<unsigned>(S.ID)] = S.Default;
  }
  bool &flag(SettingID ID) { return Flag[static_cast<unsigned>(ID)]; }
  unsigned &choice(SettingID ID) { return Choice[static_cast<unsigned>(ID)]; }
};

/// Expands the response files (@file) of \p Args in place, as clang does
/// (GNU quoting; a file named in a file is found relative to it), reading
/// them through \p FS, with the strings kept in \p Alloc. Returns LLVM's
/// message where a file cannot be expanded (\p Args are then as given;
/// clang reports it too), else "".
std::string expandResponseFiles(llvm::SmallVectorImpl<const char *> &Args,
                                llvm::BumpPtrAllocator &Alloc,
                                llvm::vfs::FileSystem &FS);

/// Scans (a response-file-expanded copy of) the arguments for what the front
/// door must know, into \p F. Returns the arguments with the cacs flags
/// removed. A cacs flag with a bad value sets \p Error (if it is empty) to
/// the message the front door stops with.
std::vector<const char *> scanArguments(llvm::ArrayRef<const char *> Args,
                                        CACSFlags &F, std::string &Error);

/// Do the linker arguments ask for -z now (-z now, -znow; the last of it and
/// -z lazy wins)?
bool linksBindNow(llvm::ArrayRef<std::string> LinkerArgs);

} // namespace cacs

#endif // CACS_DRIVER_ARGS_H
