//===- fuzz/settings.cpp - Fuzz target: the settings' spellings -----------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// One setting as the front door (after "-f") and the clang plugin (after
// "-fplugin-arg-cacs-") spell it, read by the one parser, parseSetting, and
// given to the pass plugin's values as the clang plugin gives it
// (applySetting); a list's path made absolute as the pass names it
// (normalizeListPath). Besides what the sanitizers catch, it stops on a
// broken promise:
//  - what parses is spelled back exactly: <name>, no-<name>, <name>=<file>,
//    <name>=<choice>; a bad choice is <name>= of a choice setting;
//  - the front door's settings are some of the plugin's;
//  - a setting applied is the value the passes read;
//  - a normalized path is absolute, has no "." or ".." left, and is its own
//    normalization.
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/Settings.h"

#include "check.h"

#include "llvm/Support/Path.h"

#include <cstdint>
#include <string>

using namespace llvm;
using namespace cacs;

/// How a command line spells \p A.
static std::string spelling(const SettingArg &A) {
  const Setting &S = setting(A.ID);
  switch (S.Kind) {
  case Setting::Flag:
    return (A.On ? "" : "no-") + S.name().str();
  case Setting::List:
    return (S.name() + "=" + A.File).str();
  case Setting::Choice:
    return (S.name() + "=" + S.Choices[A.Choice]).str();
  }
  return "";
}

static void checkPath(StringRef File) {
  if (File.empty())
    return;
  std::string P = normalizeListPath(File);
  FUZZ_CHECK(sys::path::is_absolute(P));
  for (auto It = sys::path::begin(P), E = sys::path::end(P); It != E; ++It)
    FUZZ_CHECK(*It != "." && *It != "..");
  FUZZ_CHECK(normalizeListPath(P) == P);
}

/// The plugin's way: the value the passes read is the one given; then the
/// default again, for the next input.
static void checkApplied(const SettingArg &A) {
  const Setting &S = setting(A.ID);
  if (S.isFlag()) {
    applySetting(A);
    FUZZ_CHECK(flagSetting(A.ID) == A.On);
    SettingArg Default{A.ID};
    Default.On = S.Default;
    applySetting(Default);
  } else if (S.isChoice()) {
    applySetting(A);
    FUZZ_CHECK(choiceSetting(A.ID) == A.Choice);
    applySetting(SettingArg{A.ID});
  } else {
    checkPath(A.File); // A list only grows: its files are not added here.
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Arg(reinterpret_cast<const char *>(Data), Size);
  SettingArg Plugin, FrontDoor;
  SettingParse P = parseSetting(Arg, Plugin, /*FrontDoorOnly=*/false);
  SettingParse F = parseSetting(Arg, FrontDoor, /*FrontDoorOnly=*/true);
  if (F != SettingParse::NotASetting) {
    FUZZ_CHECK(F == P && FrontDoor.ID == Plugin.ID);
    FUZZ_CHECK(setting(FrontDoor.ID).FrontDoorFlag);
  }
  switch (P) {
  case SettingParse::NotASetting:
    break;
  case SettingParse::Parsed:
    FUZZ_CHECK(spelling(Plugin) == Arg);
    checkApplied(Plugin);
    break;
  case SettingParse::BadChoice: {
    const Setting &S = setting(Plugin.ID);
    FUZZ_CHECK(S.isChoice());
    StringRef Value = StringRef(Arg).drop_front(S.name().size() + 1);
    FUZZ_CHECK(StringRef(Arg).starts_with((S.name() + "=").str()));
    FUZZ_CHECK(S.findChoice(Value) < 0);
    break;
  }
  }
  return 0;
}
