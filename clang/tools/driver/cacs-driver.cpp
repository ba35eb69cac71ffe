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
#include "cacs/Options.h"
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
#include <iterator>
#include <string>
#include <unistd.h>
#include <vector>

using namespace llvm;

namespace {

/// What the cacs flags of one command line ask for.
struct CACSFlags {
  /// The flag settings of cacs/Options.h's table, by SettingID.
  bool Flag[std::size(cacs::Settings)];
  std::vector<std::string> ListFiles;
  bool Version = false;
  bool NoLink = false;     // -c, -S, -E, -fsyntax-only, -M, -MM
  bool FullLTO = false;    // -flto, -flto=full (last -f[no-]lto* wins)
  bool AnyLTO = false;     // also -flto=thin
  bool HasFuseLd = false;  // the user chose a linker
  bool HasIRInput = false; // .ll/.bc inputs skip the clang plugin
  bool DepFile = false;    // -M, -MM, -MD, -MMD, -MF, -Wp,-M...
  bool FoundCACSFlag = false;

  CACSFlags() {
    for (const cacs::Setting &S : cacs::Settings)
      Flag[static_cast<unsigned>(S.ID)] = S.Default;
  }
  bool &flag(cacs::SettingID ID) { return Flag[static_cast<unsigned>(ID)]; }
};

/// A cacs flag of the settings table (-f<name>, -fno-<name>, -f<name>=file):
/// record it in F and return true.
bool takeSettingFlag(StringRef A, CACSFlags &F) {
  if (!A.consume_front("-f"))
    return false;
  for (const cacs::Setting &S : cacs::Settings) {
    if (!S.FrontDoorFlag)
      continue;
    StringRef Rest = A;
    if (S.IsFileList) {
      if (Rest.consume_front(S.name()) && Rest.consume_front("=")) {
        F.ListFiles.push_back(Rest.str());
        return true;
      }
      continue;
    }
    bool On = !Rest.consume_front("no-");
    if (Rest == S.name()) {
      F.flag(S.ID) = On;
      return true;
    }
  }
  return false;
}

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
    } else if (takeSettingFlag(A, F)) {
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
           << " (preserve_none toolchain) on LLVM " << CACS_LLVM_VERSION << " ("
           << CACS_LLVM_BINDIR << ")\n";
    outs().flush();
  }

  for (const std::string &L : F.ListFiles)
    validateListFile(Prog, L);

  std::string PassPlugin = siblingPath(Self, "lib", "CACSPasses.so");
  std::string ClangPlugin = siblingPath(Self, "lib", "CACSClangPlugin.so");

  std::vector<std::string> Added;
  Added.push_back("-fplugin=" + ClangPlugin);
  Added.push_back("-fpass-plugin=" + PassPlugin);
  // The settings, spelled as the table of cacs/Options.h says: as plugin
  // arguments, and for IR inputs, which go to cc1 without an AST so that the
  // clang plugin never sees its arguments, with -mllvm too. (-mllvm is not
  // used otherwise because it also reaches the assembler, cc1as.) A list is
  // named by its normalized path in both, as the passes will record it.
  std::vector<std::string> Lists;
  for (const std::string &L : F.ListFiles)
    Lists.push_back(cacs::normalizeListPath(L));
  for (const cacs::Setting &S : cacs::Settings) {
    if (S.IsFileList) {
      for (const std::string &L : Lists) {
        Added.push_back("-fplugin-arg-cacs-" + S.name().str() + "=" + L);
        if (F.HasIRInput) {
          Added.push_back("-mllvm");
          Added.push_back("-" + S.OptionName.str() + "=" + L);
        }
      }
      continue;
    }
    bool On = F.flag(S.ID);
    if (On == S.Default)
      continue;
    Added.push_back("-fplugin-arg-cacs-" + std::string(On ? "" : "no-") +
                    S.name().str());
    if (F.HasIRInput) {
      Added.push_back("-mllvm");
      Added.push_back("-" + S.OptionName.str() + (On ? "" : "=false"));
    }
  }
  // The lists are inputs of the compilation: name them in -MD output, as
  // clang does for -fsanitize-ignorelist= files. (-Xclang reaches cc1 only,
  // never cc1as.)
  if (F.DepFile)
    for (const std::string &L : Lists) {
      Added.push_back("-Xclang");
      Added.push_back("-fdepfile-entry=" + L);
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
