//===- Options.cpp - Settings shared by the cacs passes -------------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The cl::opt spelling of the settings table in Options.h.
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/Options.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <vector>

using namespace llvm;
using namespace cacs;

namespace {

/// The cl::opt of a flag setting, named and described by the table.
struct FlagOption : cl::opt<bool> {
  explicit FlagOption(SettingID ID)
      : cl::opt<bool>(StringRef(setting(ID).OptionName),
                      cl::init(setting(ID).Default),
                      cl::desc(setting(ID).Description)) {}
};

/// The index of a choice setting's value; a type of its own, so that the
/// cl::opt parser takes the choices' names (see ChoiceOption).
enum ChoiceIndex : unsigned {};

/// The cl::opt of a choice setting: its values are the table's choices.
struct ChoiceOption : cl::opt<ChoiceIndex> {
  explicit ChoiceOption(SettingID ID)
      : cl::opt<ChoiceIndex>(StringRef(setting(ID).OptionName),
                             cl::init(ChoiceIndex(0)),
                             cl::desc(setting(ID).Description)) {
    ArrayRef<StringLiteral> Choices = setting(ID).Choices;
    for (unsigned I = 0; I < Choices.size(); ++I)
      getParser().addLiteralOption(Choices[I], ChoiceIndex(I), "");
  }
};

} // namespace

static ChoiceOption CalleeSaved(SettingID::PreserveNoneCalleeSaved);

unsigned cacs::choiceSetting(SettingID ID) {
  assert(ID == SettingID::PreserveNoneCalleeSaved && "not a choice setting");
  return CalleeSaved;
}

void cacs::setChoiceSetting(SettingID ID, unsigned Index) {
  assert(ID == SettingID::PreserveNoneCalleeSaved && "not a choice setting");
  CalleeSaved.setValue(ChoiceIndex(Index));
}

static FlagOption AutoPreserveNone(SettingID::AutoPreserveNone);
static FlagOption ExportWarning(SettingID::PreserveNoneListExportWarning);
static FlagOption WarnUnusedPerTU(SettingID::PreserveNoneListWarnUnused);
static FlagOption LinkBindsNow(SettingID::LinkBindsNow);

/// The list files, normalized and each once, whichever spelling named them.
static std::vector<std::string> &listFiles() {
  static std::vector<std::string> Files;
  return Files;
}

static cl::list<std::string> PreserveNoneLists(
    StringRef(setting(SettingID::PreserveNoneList).OptionName),
    cl::value_desc("file"),
    cl::desc(setting(SettingID::PreserveNoneList).Description),
    cl::callback([](const std::string &Path) {
      addPreserveNoneListFile(Path);
    }));

static cl::opt<bool> &flagOption(SettingID ID) {
  switch (ID) {
  case SettingID::AutoPreserveNone:
    return AutoPreserveNone;
  case SettingID::PreserveNoneListExportWarning:
    return ExportWarning;
  case SettingID::PreserveNoneListWarnUnused:
    return WarnUnusedPerTU;
  case SettingID::LinkBindsNow:
    return LinkBindsNow;
  case SettingID::PreserveNoneList:
  case SettingID::PreserveNoneCalleeSaved:
    break;
  }
  llvm_unreachable("not a flag setting");
}

bool cacs::flagSetting(SettingID ID) { return flagOption(ID); }

void cacs::setFlagSetting(SettingID ID, bool Enabled) {
  flagOption(ID) = Enabled;
}

bool cacs::autoPreserveNoneEnabled() {
  return flagSetting(SettingID::AutoPreserveNone);
}

void cacs::setAutoPreserveNone(bool Enabled) {
  setFlagSetting(SettingID::AutoPreserveNone, Enabled);
}

bool cacs::preserveNoneListExportWarning() {
  return flagSetting(SettingID::PreserveNoneListExportWarning);
}

void cacs::setPreserveNoneListExportWarning(bool Enabled) {
  setFlagSetting(SettingID::PreserveNoneListExportWarning, Enabled);
}

bool cacs::preserveNoneListWarnUnusedPerTU() {
  return flagSetting(SettingID::PreserveNoneListWarnUnused);
}

std::string cacs::normalizeListPath(StringRef Path) {
  SmallString<256> P(Path);
  sys::fs::make_absolute(P);
  sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

ArrayRef<std::string> cacs::preserveNoneListFiles() { return listFiles(); }

void cacs::addPreserveNoneListFile(StringRef Path) {
  // An empty path stays empty: the pass reports it.
  std::string P = Path.empty() ? std::string() : normalizeListPath(Path);
  if (!is_contained(listFiles(), P))
    listFiles().push_back(std::move(P));
}

StringRef cacs::version() { return CACS_VERSION; }
