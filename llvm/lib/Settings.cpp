//===- Settings.cpp - Reading the settings' spellings ---------------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The one parser of the settings' command-line spellings, shared by the front
// door (-f<name>...) and the clang plugin (-fplugin-arg-cacs-<name>...); the
// cl::opt spellings are LLVM's (SettingsOptions.cpp).
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/Settings.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using namespace cacs;

SettingParse cacs::parseSetting(StringRef Arg, SettingArg &Out,
                                bool FrontDoorOnly) {
  for (const Setting &S : Settings) {
    if (FrontDoorOnly && !S.FrontDoorFlag)
      continue;
    Out = SettingArg{S.ID};
    StringRef Rest = Arg;
    if (S.isFlag()) {
      Out.On = !Rest.consume_front("no-");
      if (Rest == S.name())
        return SettingParse::Parsed;
      continue;
    }
    if (!Rest.consume_front(S.name()) || !Rest.consume_front("="))
      continue;
    if (S.isList()) {
      Out.File = Rest;
      return SettingParse::Parsed;
    }
    int I = S.findChoice(Rest);
    if (I < 0)
      return SettingParse::BadChoice;
    Out.Choice = I;
    return SettingParse::Parsed;
  }
  return SettingParse::NotASetting;
}

std::string cacs::normalizeListPath(StringRef Path) {
  SmallString<256> P(Path);
  sys::fs::make_absolute(P);
  sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}
