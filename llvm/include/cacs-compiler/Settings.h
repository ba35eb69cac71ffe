//===- Settings.h - The settings of a cacs compilation ----------*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The settings of one compilation, generated from the table in Settings.def.
// Each setting has four spellings, all derived from its name there:
//
//   front door (build/bin/clang)  -f<name>, -fno-<name>    -f<name>=<file>
//                                 -f<name>=<choice>
//   cacs clang plugin             -fplugin-arg-cacs-<name>, ...-cacs-no-<name>,
//                                 -fplugin-arg-cacs-<name>=<file|choice>
//   -mllvm (stock clang, opt)     -cacs-<name>, -cacs-<name>=false,
//                                 -cacs-<name>=<file|choice>
//   cl::opt (SettingsOptions.cpp) cacs-<name>
//
// The front door and the clang plugin read their spellings with the one
// parser below (parseSetting); the cl::opts are made from the same table.
//
// The passes read the settings when the pipeline is built. Settings never
// reach a full-LTO link this way (lld loads pass plugins after parsing its
// options), so the per-TU passes also record what they need in the IR: see
// AutoPreserveNone.h and PreserveNoneList.h.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_SETTINGS_H
#define CACS_SETTINGS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace cacs {

/// The settings, in the order of Settings.def.
enum class SettingID {
#define CACS_FLAG(ID, ...) ID,
#define CACS_LIST(ID, ...) ID,
#define CACS_CHOICE(ID, ...) ID,
#include "cacs-compiler/Settings.def"
};

/// The choices of each choice setting, e.g. PreserveNoneCalleeSavedChoices.
#define CACS_CHOICE(ID, NAME, FRONT_DOOR, DESCRIPTION, ...)                    \
  inline constexpr llvm::StringLiteral ID##Choices[] = {__VA_ARGS__};
#include "cacs-compiler/Settings.def"

struct Setting {
  enum KindType { Flag, List, Choice };

  SettingID ID;
  KindType Kind;
  /// The cl::opt name, "cacs-<name>"; the other spellings use <name>.
  llvm::StringLiteral OptionName;
  /// Only for flags: the value when no spelling is given.
  bool Default;
  /// Whether the front door accepts -f<name> (otherwise only -mllvm).
  bool FrontDoorFlag;
  llvm::StringLiteral Description;
  /// Only for lists: the most files one compilation takes.
  unsigned MaxFiles = 0;
  /// Only for choices: the values; the first is the default.
  llvm::ArrayRef<llvm::StringLiteral> Choices = {};

  llvm::StringRef name() const { return OptionName.drop_front(5); }
  bool isChoice() const { return Kind == Choice; }
  bool isList() const { return Kind == List; }
  bool isFlag() const { return Kind == Flag; }
  /// The index of Value among Choices, or -1.
  int findChoice(llvm::StringRef Value) const {
    for (size_t I = 0; I < Choices.size(); ++I)
      if (Choices[I] == Value)
        return static_cast<int>(I);
    return -1;
  }
};

// clang-format off
inline constexpr Setting Settings[] = {
#define CACS_FLAG(ID, NAME, DEFAULT, FRONT_DOOR, DESCRIPTION)                  \
  {SettingID::ID, Setting::Flag, "cacs-" NAME, DEFAULT, FRONT_DOOR,            \
   DESCRIPTION},
#define CACS_LIST(ID, NAME, MAX_FILES, FRONT_DOOR, DESCRIPTION)                \
  {SettingID::ID, Setting::List, "cacs-" NAME, false, FRONT_DOOR,              \
   DESCRIPTION, MAX_FILES},
#define CACS_CHOICE(ID, NAME, FRONT_DOOR, DESCRIPTION, ...)                    \
  {SettingID::ID, Setting::Choice, "cacs-" NAME, false, FRONT_DOOR,            \
   DESCRIPTION, 0, ID##Choices},
#include "cacs-compiler/Settings.def"
};
// clang-format on

inline constexpr size_t NumSettings = std::size(Settings);

inline constexpr const Setting &setting(SettingID ID) {
  return Settings[static_cast<unsigned>(ID)];
}

/// One setting as a command line spells it, after the spelling's prefix
/// ("-f" for the front door, "-fplugin-arg-cacs-" for the clang plugin):
/// "<name>" and "no-<name>" for a flag, "<name>=<file>" for a list,
/// "<name>=<choice>" for a choice.
struct SettingArg {
  SettingID ID;
  /// A flag's value.
  bool On = true;
  /// A choice's value, as an index into its Choices.
  unsigned Choice = 0;
  /// A list's file, as given.
  llvm::StringRef File;
};

enum class SettingParse {
  /// Not the spelling of any setting (of the front door's, if asked).
  NotASetting,
  /// A setting, read into the SettingArg.
  Parsed,
  /// A choice setting with a value that is not one of its choices.
  BadChoice,
};

/// Reads \p Arg as one setting. With \p FrontDoorOnly, only the settings the
/// front door takes count.
SettingParse parseSetting(llvm::StringRef Arg, SettingArg &Out,
                          bool FrontDoorOnly);

// The values of the settings in this process: the cl::opts of
// SettingsOptions.cpp, in the pass plugin.

/// The value of a flag setting.
bool flagSetting(SettingID ID);
/// Did the command line move flag \p ID from its default? A diagnostic that
/// a setting does nothing here is a warning only then: a default the user
/// did not ask for must be silent on every target (remarks may say why).
inline bool flagSettingChanged(SettingID ID) {
  return flagSetting(ID) != setting(ID).Default;
}
/// The value of a choice setting, as an index into its Choices.
unsigned choiceSetting(SettingID ID);
/// The files of a list setting, in command-line order, each once: a path is
/// made absolute and free of "." and ".." where it is added, whichever
/// spelling added it, so one file given two ways is one list.
llvm::ArrayRef<std::string> listSetting(SettingID ID);
/// Sets what \p A says (the clang plugin's arguments).
void applySetting(const SettingArg &A);

/// The macros the front door defines for the settings header
/// (share/cacs/cacs-settings.h, generated from this table by
/// cacs-settings-header): the settings pragma, and the path of list file N
/// (1-based), for each of a list's MaxFiles.
inline constexpr llvm::StringLiteral SettingsPragmaMacro = "__CACS_SETTINGS";
inline constexpr llvm::StringLiteral ListFileMacroPrefix = "__CACS_LIST_";

/// How printFrontDoorFlags writes: plain text (the end of the front door's
/// --help) or roff (the man page, cacs.1).
enum class HelpFormat { Text, Man };

/// The flags the front door takes, each with its spellings, its description
/// and its default, from the table.
void printFrontDoorFlags(llvm::raw_ostream &OS, HelpFormat Format);

/// The path under which a list file is read and recorded.
std::string normalizeListPath(llvm::StringRef Path);

/// Is automatic preserve_none propagation (-fauto-preserve-none) on for this
/// translation unit?
inline bool autoPreserveNoneEnabled() {
  return flagSetting(SettingID::AutoPreserveNone);
}
/// The -fpreserve-none-list= files.
inline llvm::ArrayRef<std::string> preserveNoneListFiles() {
  return listSetting(SettingID::PreserveNoneList);
}
/// -f[no-]preserve-none-list-export-warning.
inline bool preserveNoneListExportWarning() {
  return flagSetting(SettingID::PreserveNoneListExportWarning);
}
/// -mllvm -cacs-preserve-none-list-warn-unused.
inline bool preserveNoneListWarnUnusedPerTU() {
  return flagSetting(SettingID::PreserveNoneListWarnUnused);
}

/// -mllvm -cacs-calls-by-jump (on by default; only under
/// -fswitch-site-jumps).
inline bool callsByJumpEnabled() { return flagSetting(SettingID::CallsByJump); }

/// -mllvm -cacs-cold-call-shield (on by default).
inline bool coldCallShieldEnabled() {
  return flagSetting(SettingID::ColdCallShield);
}
/// -mllvm -cacs-cold-wait-loop (on by default): shieldsColdCall's wait-loop
/// heuristic.
inline bool coldWaitLoopEnabled() {
  return flagSetting(SettingID::ColdWaitLoop);
}

} // namespace cacs

#endif // CACS_SETTINGS_H
