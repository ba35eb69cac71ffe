//===- fuzz/args.cpp - Fuzz target: the front door's argument scan --------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// A command line of the front door, with response files, read as the
// front door reads it (cacs-args.cpp): response files expanded, then the
// scan that takes the cacs flags out and notes what else the front door
// must know. The input is text: one argument a line, then files, each
// after a line `=== NAME` (in the working directory, /w, of an in-memory
// file system):
//
//   -O2
//   @args.rsp
//   === args.rsp
//   -fauto-preserve-none "-I dir with spaces"
//
// Besides what the sanitizers catch, it stops on a broken promise:
//  - the arguments passed on are the expanded ones, in order, less the
//    cacs flags taken out; each taken out is a front-door setting, and a
//    bad one is the error;
//  - the list files are those of the flags taken out, in order;
//  - scanning what is passed on again takes nothing out and reads the
//    same command.
//
//===----------------------------------------------------------------------===//

#include "cacs-args.h"

#include "check.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <cstdint>
#include <string>

using namespace llvm;
using namespace cacs;

/// What a scan read of the command, besides the flags it took out.
static bool sameCommand(const CACSFlags &A, const CACSFlags &B) {
  return A.Version == B.Version && A.Help == B.Help && A.NoLink == B.NoLink &&
         A.SaveTemps == B.SaveTemps && A.FullLTO == B.FullLTO &&
         A.AnyLTO == B.AnyLTO && A.HasFuseLd == B.HasFuseLd &&
         A.HasIRInput == B.HasIRInput && A.DepFile == B.DepFile &&
         A.Target == B.Target && A.OtherABI == B.OtherABI &&
         A.NoStdInc == B.NoStdInc && A.IncludeDirs == B.IncludeDirs &&
         A.LibraryDirs == B.LibraryDirs && A.LinkerArgs == B.LinkerArgs &&
         A.Output == B.Output;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef In(reinterpret_cast<const char *>(Data), Size);
  std::vector<std::string> Args;
  std::vector<std::pair<std::string, std::string>> Files; // Name, text.
  while (!In.empty()) {
    auto [Line, Rest] = In.split('\n');
    In = Rest;
    if (Line.consume_front("=== "))
      Files.push_back({Line.str(), ""});
    else if (!Files.empty())
      Files.back().second += (Line + "\n").str();
    else
      Args.push_back(Line.str());
  }
  auto FS = makeIntrusiveRefCnt<vfs::InMemoryFileSystem>();
  FS->setCurrentWorkingDirectory("/w");
  for (const auto &[Name, Text] : Files)
    FS->addFile(Name, 0, MemoryBuffer::getMemBufferCopy(Text, Name));

  SmallVector<const char *, 16> Expanded;
  for (const std::string &A : Args)
    Expanded.push_back(A.c_str());
  BumpPtrAllocator Alloc;
  std::string ExpandError = expandResponseFiles(Expanded, Alloc, *FS);
  if (!ExpandError.empty()) {
    FUZZ_CHECK(Expanded.size() == Args.size());
    for (size_t I = 0; I < Args.size(); ++I)
      FUZZ_CHECK(Expanded[I] == Args[I].c_str());
  }

  CACSFlags F;
  std::string Error;
  std::vector<const char *> Rest = scanArguments(Expanded, F, Error);
  linksBindNow(F.LinkerArgs);

  // Rest is Expanded less what was taken out, each a front-door setting.
  std::vector<std::string> Lists;
  bool Bad = false;
  size_t R = 0;
  for (const char *A : Expanded) {
    if (R < Rest.size() && Rest[R] == A) {
      ++R;
      continue;
    }
    StringRef Flag(A);
    FUZZ_CHECK(Flag.consume_front("-f"));
    SettingArg S;
    SettingParse P = parseSetting(Flag, S, /*FrontDoorOnly=*/true);
    FUZZ_CHECK(P != SettingParse::NotASetting);
    Bad |= P == SettingParse::BadChoice;
    if (P == SettingParse::Parsed && setting(S.ID).isList())
      Lists.push_back(S.File.str());
  }
  FUZZ_CHECK(R == Rest.size());
  FUZZ_CHECK(F.FoundCACSFlag == (Rest.size() != Expanded.size()));
  FUZZ_CHECK(Bad == !Error.empty());
  FUZZ_CHECK(Lists == F.ListFiles);

  CACSFlags Again;
  std::string ErrorAgain;
  std::vector<const char *> RestAgain = scanArguments(Rest, Again, ErrorAgain);
  FUZZ_CHECK(RestAgain == Rest && !Again.FoundCACSFlag && ErrorAgain.empty());
  FUZZ_CHECK(sameCommand(F, Again));
  return 0;
}
