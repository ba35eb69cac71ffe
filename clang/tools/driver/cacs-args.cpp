//===- cacs-args.cpp - The front door's scan of its command line ----------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// See cacs-args.h.
//
//===----------------------------------------------------------------------===//

#include "cacs-args.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <initializer_list>

using namespace llvm;
using cacs::CACSFlags;

bool cacs::linksBindNow(ArrayRef<std::string> LinkerArgs) {
  bool Now = false;
  for (size_t I = 0; I < LinkerArgs.size(); ++I) {
    StringRef A = LinkerArgs[I];
    if (A == "-z" && I + 1 < LinkerArgs.size())
      A = LinkerArgs[++I];
    else if (!A.consume_front("-z"))
      continue;
    if (A == "now" || A == "lazy")
      Now = A == "now";
  }
  return Now;
}

std::string cacs::expandResponseFiles(SmallVectorImpl<const char *> &Args,
                                      BumpPtrAllocator &Alloc,
                                      vfs::FileSystem &FS) {
  SmallVector<const char *, 64> Expanded(Args.begin(), Args.end());
  cl::ExpansionContext ECtx(Alloc, cl::TokenizeGNUCommandLine);
  ECtx.setVFS(&FS);
  if (Error E = ECtx.expandResponseFiles(Expanded))
    return toString(std::move(E));
  Args.assign(Expanded.begin(), Expanded.end());
  return "";
}

namespace {

/// A cacs flag of the settings table (-f<name>, -fno-<name>, -f<name>=file,
/// -f<name>=choice): record it in F and return true.
bool takeSettingFlag(StringRef A, CACSFlags &F, std::string &Error) {
  StringRef Arg = A;
  if (!A.consume_front("-f"))
    return false;
  cacs::SettingArg S;
  switch (cacs::parseSetting(A, S, /*FrontDoorOnly=*/true)) {
  case cacs::SettingParse::NotASetting:
    return false;
  case cacs::SettingParse::BadChoice: // As clang says it of its own
                                      // -f<name>=<value> flags.
    if (Error.empty())
      Error = ("invalid value '" + A.split('=').second + "' in '" + Arg + "'")
                  .str();
    return true;
  case cacs::SettingParse::Parsed:
    break;
  }
  switch (cacs::setting(S.ID).Kind) {
  case cacs::Setting::Flag:
    F.flag(S.ID) = S.On;
    break;
  case cacs::Setting::List:
    F.ListFiles.push_back(S.File.str());
    break;
  case cacs::Setting::Choice:
    F.choice(S.ID) = S.Choice;
    break;
  }
  return true;
}

/// A search directory option of one of \p Spellings, joined (-Idir) or
/// separate (-I dir): record the directory in \p Dirs and return true. A
/// separate directory argument is passed on to \p Out here, and \p I moved
/// past it, so that the caller passes on the option itself.
bool takeSearchDir(StringRef A, ArrayRef<const char *> Args, size_t &I,
                   std::initializer_list<StringRef> Spellings,
                   std::vector<std::string> &Dirs,
                   std::vector<const char *> &Out) {
  for (StringRef Spelling : Spellings) {
    if (!A.starts_with(Spelling))
      continue;
    if (A.size() > Spelling.size()) {
      Dirs.push_back(A.drop_front(Spelling.size()).str());
      return true;
    }
    if (I + 1 >= Args.size())
      return false;
    Out.push_back(Args[I++]);
    Dirs.push_back(Args[I]);
    return true;
  }
  return false;
}

} // namespace

std::vector<const char *> cacs::scanArguments(ArrayRef<const char *> Args,
                                              CACSFlags &F,
                                              std::string &Error) {
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
    } else if (takeSettingFlag(A, F, Error)) {
      F.FoundCACSFlag = true;
      continue;
    } else if (A == "-save-temps" || A.starts_with("-save-temps=") ||
               A == "--save-temps" || A.starts_with("--save-temps=")) {
      F.SaveTemps = true;
    } else if (A == "--version") {
      F.Version = true;
    } else if (A == "--help" || A == "-help") {
      F.Help = true;
    } else if (A.consume_front("--target=")) {
      F.Target = A.str();
    } else if ((A == "-target" || A == "--target") && I + 1 < Args.size()) {
      F.Target = Args[I + 1];
      Out.push_back(Args[I++]);
    } else if (A == "-m32" || A == "-mx32" || A == "-m16" ||
               A == "-mabi=ilp32" || A == "-mbig-endian") {
      F.OtherABI = true;
    } else if (A == "-m64" || A == "-mlittle-endian") {
      F.OtherABI = false;
    } else if (A == "-nostdinc") {
      F.NoStdInc = true;
    } else if (takeSearchDir(A, Args, I, {"-I", "-isystem", "-idirafter"},
                             F.IncludeDirs, Out) ||
               takeSearchDir(A, Args, I, {"-L"}, F.LibraryDirs, Out)) {
      // The directory was recorded (and a separate argument passed on).
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
    } else if (A == "-o" && I + 1 < Args.size()) {
      F.Output = Args[I + 1];
      Out.push_back(Args[I++]);
    } else if (A.starts_with("-o") && !A.starts_with("-obj")) {
      F.Output = A.drop_front(2).str();
    } else if (A.starts_with("-Wl,")) {
      SmallVector<StringRef, 4> Parts;
      A.drop_front(4).split(Parts, ',');
      F.LinkerArgs.insert(F.LinkerArgs.end(), Parts.begin(), Parts.end());
    } else if ((A == "-Xlinker" || A == "-z") && I + 1 < Args.size()) {
      if (A == "-z")
        F.LinkerArgs.push_back("-z");
      F.LinkerArgs.push_back(Args[I + 1]);
      Out.push_back(Args[I++]);
    } else if (!A.starts_with("-") &&
               (A.ends_with(".ll") || A.ends_with(".bc"))) {
      F.HasIRInput = true;
    }
    Out.push_back(Args[I]);
  }
  return Out;
}
