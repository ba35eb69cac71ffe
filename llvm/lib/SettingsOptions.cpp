//===- SettingsOptions.cpp - The settings as cl::opts ---------------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The values of the settings in this process: one cl::opt per row of
// Settings.def, named and described by the table, so that -mllvm -cacs-<name>
// (stock clang, opt) sets them, and the clang plugin through applySetting.
// Only the pass plugin compiles this file: a second copy of the cl::opts in
// one process would be an error.
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/Settings.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"

#include <memory>
#include <vector>

using namespace llvm;
using namespace cacs;

namespace {

/// The cl::opt of a flag setting.
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

/// The cl::list of a list setting, and its files: normalized and each once,
/// whichever spelling named them.
struct ListOption : cl::list<std::string> {
  std::vector<std::string> Files;

  explicit ListOption(SettingID ID)
      : cl::list<std::string>(
            StringRef(setting(ID).OptionName), cl::value_desc("file"),
            cl::desc(setting(ID).Description),
            cl::callback([this](const std::string &Path) { add(Path); })) {}

  void add(StringRef Path) {
    // An empty path stays empty: the pass reports it.
    std::string P = Path.empty() ? std::string() : normalizeListPath(Path);
    if (!is_contained(Files, P))
      Files.push_back(std::move(P));
  }
};

} // namespace

#define CACS_FLAG(ID, ...) static FlagOption ID##Option(SettingID::ID);
#define CACS_LIST(ID, ...) static ListOption ID##Option(SettingID::ID);
#define CACS_CHOICE(ID, ...) static ChoiceOption ID##Option(SettingID::ID);
#include "cacs-compiler/Settings.def"

/// Each setting's cl::opt of its kind, by SettingID (null for the others).
static FlagOption *const FlagOptions[] = {
#define CACS_FLAG(ID, ...) &ID##Option,
#define CACS_LIST(ID, ...) nullptr,
#define CACS_CHOICE(ID, ...) nullptr,
#include "cacs-compiler/Settings.def"
};
static ListOption *const ListOptions[] = {
#define CACS_FLAG(ID, ...) nullptr,
#define CACS_LIST(ID, ...) std::addressof(ID##Option),
#define CACS_CHOICE(ID, ...) nullptr,
#include "cacs-compiler/Settings.def"
};
static ChoiceOption *const ChoiceOptions[] = {
#define CACS_FLAG(ID, ...) nullptr,
#define CACS_LIST(ID, ...) nullptr,
#define CACS_CHOICE(ID, ...) &ID##Option,
#include "cacs-compiler/Settings.def"
};

template <typename T>
static T &option(T *const (&Options)[NumSettings], SettingID ID) {
  T *O = Options[static_cast<unsigned>(ID)];
  assert(O && "the setting is of another kind");
  return *O;
}

bool cacs::flagSetting(SettingID ID) { return option(FlagOptions, ID); }

unsigned cacs::choiceSetting(SettingID ID) { return option(ChoiceOptions, ID); }

ArrayRef<std::string> cacs::listSetting(SettingID ID) {
  return option(ListOptions, ID).Files;
}

void cacs::applySetting(const SettingArg &A) {
  switch (setting(A.ID).Kind) {
  case Setting::Flag:
    option(FlagOptions, A.ID).setValue(A.On);
    return;
  case Setting::List:
    option(ListOptions, A.ID).add(A.File);
    return;
  case Setting::Choice:
    option(ChoiceOptions, A.ID).setValue(ChoiceIndex(A.Choice));
    return;
  }
  llvm_unreachable("a setting of no kind");
}
