//===- cacs-settings-header.cpp - Writes the settings header --------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// A build step: writes share/cacs/cacs-settings.h, the header the front door
// includes first in every compile that has a cacs flag, from the settings
// table (Settings.def): one line marker slot per list file a compilation may
// take.
//
//   cacs-settings-header <output file>
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/Settings.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static constexpr StringLiteral Head =
    R"(/*===- cacs-settings.h - The cacs settings, in the translation unit -------===*
 *
 * Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
 * Generated from the settings table (Settings.def) by cacs-settings-header.
 *
 *===----------------------------------------------------------------------===*
 *
 * The front door includes this file first in every compile that has a cacs
 * flag, with macros that say what the settings are. It puts them into the
 * translation unit, so that tools which only look at the preprocessed source
 * see them:
 *  - "#pragma cacs settings" names the cacs build and a digest of the flags
 *    and of the preserve-none lists' text: preprocessor-mode caches (ccache,
 *    sccache) hash it, and the front door compares it with its own when it
 *    compiles a preprocessed file (distcc's server) and refuses a mismatch;
 *  - a line marker names each list file as the command line does, so that
 *    ccache's direct mode hashes the list like an included header.
 * Clang ignores the pragma; it is wrapped so that -Wunknown-pragmas is quiet.
 * __CACS_SETTINGS is _Pragma("cacs settings ..."), from the command line.
 *
 *===----------------------------------------------------------------------===*/
#ifndef __ASSEMBLER__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunknown-pragmas"
)";

int main(int Argc, char **Argv) {
  if (Argc != 2) {
    errs() << "usage: cacs-settings-header <output file>\n";
    return 2;
  }
  std::error_code EC;
  raw_fd_ostream OS(Argv[1], EC, sys::fs::OF_Text);
  if (EC) {
    errs() << "cacs-settings-header: " << Argv[1] << ": " << EC.message()
           << "\n";
    return 1;
  }
  OS << Head << cacs::SettingsPragmaMacro << "\n";
  for (const cacs::Setting &S : cacs::Settings)
    for (unsigned I = 1; I <= S.MaxFiles; ++I)
      OS << "#ifdef " << cacs::ListFileMacroPrefix << I << "\n#line 1 "
         << cacs::ListFileMacroPrefix << I << "\n#endif\n";
  OS << "#pragma clang diagnostic pop\n#endif\n";
  return OS.has_error() ? 1 : 0;
}
