//===- cacs-driver.cpp - The cacs clang/clang++ front door ----------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// build/bin/clang and build/bin/clang++ are this program. It behaves as the
// stock clang it was configured with, plus the cacs flags:
//
//   -fauto-preserve-none / -fno-auto-preserve-none   (the last one wins)
//   -fpreserve-none-list=<file>                      (may be repeated)
//   -f[no-]preserve-none-list-export-warning         (the last one wins)
//
// It takes those flags out of the command line, loads the cacs plugins into
// every compile job, hands them the settings as plugin arguments, and execs
// the stock driver, so that everything else (modes, diagnostics, exit status,
// -###) is clang's own. With -flto it also makes the link run the cacs passes
// inside lld.
//
//===----------------------------------------------------------------------===//

// The list file checks of the pass (PreserveNoneListFile.cpp, compiled in).
#include "cacs/PreserveNoneList.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

using namespace llvm;

namespace {

/// What the cacs flags of one command line ask for.
struct CACSFlags {
  bool AutoPreserveNone = false;
  std::vector<std::string> ListFiles;
  bool Version = false;
  bool NoLink = false;      // -c, -S, -E, -fsyntax-only, -M, -MM
  bool FullLTO = false;     // -flto, -flto=full (last -f[no-]lto* wins)
  bool AnyLTO = false;      // also -flto=thin
  bool HasFuseLd = false;   // the user chose a linker
  bool HasIRInput = false;  // .ll/.bc inputs skip the clang plugin
  bool DepFile = false;     // -M, -MM, -MD, -MMD, -MF, -Wp,-M...
  bool ListExportWarning = true; // -f[no-]preserve-none-list-export-warning
  bool FoundCACSFlag = false;
};

/// The flags every clang error carries: "clang: error: ...", as the stock
/// driver prints them, so tools that parse clang's output keep working.
[[noreturn]] void fatal(StringRef Prog, const Twine &Msg) {
  errs() << Prog << ": error: " << Msg << "\n";
  std::exit(1);
}

/// Check a list file the way clang checks -fsanitize-ignorelist= files, and
/// as the pass will read it: it must exist and parse; the errors name the
/// path (and the line).
void validateListFile(StringRef Prog, StringRef Path) {
  if (Path.empty())
    fatal(Prog, "no file given to '-fpreserve-none-list='");
  std::string Text;
  std::string Error = cacs::readPreserveNoneList(Path, Text);
  if (Error.empty())
    Error = cacs::checkPreserveNoneListText(Path, Text);
  if (!Error.empty())
    fatal(Prog, Error);
}

/// Scan (a response-file-expanded copy of) the arguments for what the front
/// door must know. Returns the arguments with the cacs flags removed.
std::vector<const char *> scanArguments(ArrayRef<const char *> Args,
                                        CACSFlags &F) {
  std::vector<const char *> Out;
  bool AfterDashDash = false;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (AfterDashDash) {
      if (A.ends_with(".ll") || A.ends_with(".bc"))
        F.HasIRInput = true;
      Out.push_back(Args[I]);
      continue;
    }
    if (A == "--") {
      AfterDashDash = true;
    } else if (A == "-fauto-preserve-none") {
      F.AutoPreserveNone = true;
      F.FoundCACSFlag = true;
      continue;
    } else if (A == "-fno-auto-preserve-none") {
      F.AutoPreserveNone = false;
      F.FoundCACSFlag = true;
      continue;
    } else if (A.consume_front("-fpreserve-none-list=")) {
      F.ListFiles.push_back(A.str());
      F.FoundCACSFlag = true;
      continue;
    } else if (A == "-fpreserve-none-list-export-warning" ||
               A == "-fno-preserve-none-list-export-warning") {
      F.ListExportWarning = A == "-fpreserve-none-list-export-warning";
      F.FoundCACSFlag = true;
      continue;
    } else if (A == "--version") {
      F.Version = true;
    } else if (A == "-c" || A == "-S" || A == "-E" || A == "-fsyntax-only" ||
               A == "-M" || A == "-MM") {
      F.NoLink = true;
      F.DepFile |= A == "-M" || A == "-MM";
    } else if (A == "-MD" || A == "-MMD" || A.starts_with("-MF") ||
               A.starts_with("-Wp,-M")) {
      F.DepFile = true;
    } else if (A == "-flto" || A == "-flto=full") {
      F.FullLTO = F.AnyLTO = true;
    } else if (A == "-flto=thin") {
      F.FullLTO = false;
      F.AnyLTO = true;
    } else if (A == "-fno-lto") {
      F.FullLTO = F.AnyLTO = false;
    } else if (A.starts_with("-fuse-ld=") || A == "-fuse-ld") {
      F.HasFuseLd = true;
    } else if (!A.starts_with("-") &&
               (A.ends_with(".ll") || A.ends_with(".bc"))) {
      F.HasIRInput = true;
    }
    Out.push_back(Args[I]);
  }
  return Out;
}

std::string siblingPath(StringRef Exe, StringRef RelDir, StringRef Name) {
  SmallString<256> P(sys::path::parent_path(sys::path::parent_path(Exe)));
  sys::path::append(P, RelDir, Name);
  return std::string(P);
}

} // namespace

int main(int Argc, const char **Argv) {
  std::string Self = sys::fs::getMainExecutable(
      Argv[0], reinterpret_cast<void *>(&validateListFile));
  StringRef Base = sys::path::filename(Argv[0]);
  bool CXX = Base.contains("++");
  StringRef Prog = CXX ? "clang++" : "clang";

  SmallString<256> RealDriver(CACS_LLVM_BINDIR);
  sys::path::append(RealDriver, CXX ? "clang++" : "clang");

  // "clang -cc1 ..." and friends are the frontend's own command lines, not
  // the driver's: they must come first, and they take no driver flags.
  if (Argc > 1 && StringRef(Argv[1]).starts_with("-cc1")) {
    std::vector<const char *> Same(Argv, Argv + Argc);
    Same[0] = RealDriver.c_str();
    Same.push_back(nullptr);
    execv(RealDriver.c_str(), const_cast<char *const *>(Same.data()));
    fatal(Prog, "cannot run '" + RealDriver + "': " + std::strerror(errno));
  }

  // Look into response files too: a cacs flag may hide there. If one does,
  // the expanded command line is what we pass on; otherwise the original.
  BumpPtrAllocator Alloc;
  StringSaver Saver(Alloc);
  SmallVector<const char *, 64> Expanded(Argv + 1, Argv + Argc);
  if (!cl::ExpandResponseFiles(Saver, cl::TokenizeGNUCommandLine, Expanded))
    Expanded.assign(Argv + 1, Argv + Argc); // clang will report it.

  CACSFlags F;
  std::vector<const char *> Rest = scanArguments(Expanded, F);
  if (!F.FoundCACSFlag)
    Rest.assign(Argv + 1, Argv + Argc);

  if (F.Version) {
    outs() << "cacs version " << CACS_VERSION
           << " (preserve_none toolchain) on LLVM " << CACS_LLVM_VERSION
           << " (" << CACS_LLVM_BINDIR << ")\n";
    outs().flush();
  }

  for (const std::string &L : F.ListFiles)
    validateListFile(Prog, L);

  std::string PassPlugin = siblingPath(Self, "lib", "CACSPasses.so");
  std::string ClangPlugin = siblingPath(Self, "lib", "CACSClangPlugin.so");

  std::vector<std::string> Added;
  Added.push_back("-fplugin=" + ClangPlugin);
  Added.push_back("-fpass-plugin=" + PassPlugin);
  if (F.AutoPreserveNone)
    Added.push_back("-fplugin-arg-cacs-auto-preserve-none");
  for (const std::string &L : F.ListFiles) {
    SmallString<256> Abs(L);
    sys::fs::make_absolute(Abs);
    Added.push_back("-fplugin-arg-cacs-preserve-none-list=" +
                    std::string(Abs));
    // The list is an input of the compilation: name it in -MD output, as
    // clang does for -fsanitize-ignorelist= files. (-Xclang reaches cc1
    // only, never cc1as.)
    if (F.DepFile) {
      Added.push_back("-Xclang");
      Added.push_back("-fdepfile-entry=" + std::string(Abs));
    }
  }
  if (!F.ListExportWarning)
    Added.push_back("-fplugin-arg-cacs-no-preserve-none-list-export-warning");
  // IR inputs go to cc1 without an AST, so the clang plugin never sees its
  // arguments there; -mllvm reaches the pass plugin's options directly. (It
  // is not used otherwise because it also reaches the assembler, cc1as.)
  if (F.HasIRInput) {
    if (F.AutoPreserveNone) {
      Added.push_back("-mllvm");
      Added.push_back("-cacs-auto-preserve-none");
    }
    for (const std::string &L : F.ListFiles) {
      Added.push_back("-mllvm");
      Added.push_back("-cacs-preserve-none-list=" + L);
    }
    if (!F.ListExportWarning) {
      Added.push_back("-mllvm");
      Added.push_back("-cacs-preserve-none-list-export-warning=false");
    }
  }
  // A full-LTO link runs the cacs passes inside lld; the settings of each
  // compile step travel in the IR.
  if (F.AnyLTO && !F.NoLink) {
    if (!F.HasFuseLd)
      Added.push_back("-fuse-ld=lld");
    Added.push_back("-Wl,--load-pass-plugin=" + PassPlugin);
  }

  // Our arguments go first: after a user's "--" they would be inputs.
  std::vector<const char *> NewArgv;
  NewArgv.push_back(RealDriver.c_str());
  for (const std::string &A : Added)
    NewArgv.push_back(A.c_str());
  NewArgv.insert(NewArgv.end(), Rest.begin(), Rest.end());
  NewArgv.push_back(nullptr);

  execv(RealDriver.c_str(), const_cast<char *const *>(NewArgv.data()));
  fatal(Prog, "cannot run '" + RealDriver + "': " + std::strerror(errno));
}
