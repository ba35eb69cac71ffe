//===- cacs-settings-header.cpp - Writes the settings header --------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// A build step: writes share/cacs/cacs-settings.h, the header the front door
// includes first in every compile that has a cacs flag, from the settings
// table (Settings.def): one line marker slot per list file a compilation may
// take; and the man page cacs.1, whose flags come from the same table.
//
//   cacs-settings-header <header> <man page>
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

static void writeHeader(raw_ostream &OS) {
  OS << Head << cacs::SettingsPragmaMacro << "\n";
  for (const cacs::Setting &S : cacs::Settings)
    for (unsigned I = 1; I <= S.MaxFiles; ++I)
      OS << "#ifdef " << cacs::ListFileMacroPrefix << I << "\n#line 1 "
         << cacs::ListFileMacroPrefix << I << "\n#endif\n";
  OS << "#pragma clang diagnostic pop\n#endif\n";
}

/// The man page cacs(1): the front door and its flags.
static void writeManPage(raw_ostream &OS) {
  OS << R"(.TH CACS 1 "" "cacs )" CACS_VERSION R"(" "cacs"
.SH NAME
cacs \- the cacs front door: clang and clang++ with preserve_none flags
.SH SYNOPSIS
.B clang
[\fIclang options\fR] [\fIcacs flags\fR] \fIfile\fR...
.br
.B clang++
[\fIclang options\fR] [\fIcacs flags\fR] \fIfile\fR...
.SH DESCRIPTION
The cacs front door behaves as the stock clang it was built for, plus the
flags below. It loads the cacs plugins into every compile, and adds the
include and library directories of libcacs (its build tree's, or its
installation prefix's) for x86\-64 and AArch64 Linux targets, unless the
command line gives a directory that holds them; so
.B clang \-O2 \-fauto\-preserve\-none echo.c \-lcacs_io \-lcacs
builds a program that uses libcacs.
.SH CACS FLAGS
)";
  cacs::printFrontDoorFlags(OS, cacs::HelpFormat::Man);
  OS << R"(.SH SEE ALSO
.BR clang (1)
)";
}

/// Writes \p Path with \p Write; false (and a message) if that fails.
static bool writeFile(const char *Path, void (*Write)(raw_ostream &)) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (!EC) {
    Write(OS);
    OS.close();
    EC = OS.error();
  }
  if (EC)
    errs() << "cacs-settings-header: " << Path << ": " << EC.message() << "\n";
  return !EC;
}

int main(int Argc, char **Argv) {
  if (Argc != 3) {
    errs() << "usage: cacs-settings-header <header> <man page>\n";
    return 2;
  }
  return writeFile(Argv[1], writeHeader) && writeFile(Argv[2], writeManPage)
             ? 0
             : 1;
}
