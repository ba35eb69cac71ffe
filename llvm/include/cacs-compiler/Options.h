//===- Options.h - Settings shared by the cacs passes -----------*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The settings of one compilation, and the one table that spells them. Each
// setting has four spellings, all derived from its name here:
//
//   front door (build/bin/clang)  -f<name>, -fno-<name>    -f<name>=<file>
//                                 -f<name>=<choice>
//   cacs clang plugin             -fplugin-arg-cacs-<name>, ...-cacs-no-<name>,
//                                 -fplugin-arg-cacs-<name>=<file|choice>
//   -mllvm (stock clang, opt)     -cacs-<name>, -cacs-<name>=false,
//                                 -cacs-<name>=<file|choice>
//   cl::opt (Options.cpp)         cacs-<name>
//
// The passes read the settings when the pipeline is built. Settings never
// reach a full-LTO link this way (lld loads pass plugins after parsing its
// options), so the per-TU passes also record what they need in the IR: see
// AutoPreserveNone.h and PreserveNoneList.h.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_OPTIONS_H
#define CACS_OPTIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace cacs {

/// The settings, in the order of the table below.
enum class SettingID {
  AutoPreserveNone,
  PreserveNoneList,
  PreserveNoneListExportWarning,
  PreserveNoneListWarnUnused,
  PreserveNoneCalleeSaved,
  LinkBindsNow,
};

/// The values of -fpreserve-none-callee-saved= (see
/// PreserveNoneCalleeSaved.h); the first is the default.
inline constexpr llvm::StringLiteral CalleeSavedChoices[] = {"upstream",
                                                             "none"};

struct Setting {
  SettingID ID;
  /// The cl::opt name, "cacs-<name>"; the other spellings use <name>.
  llvm::StringLiteral OptionName;
  /// A list of files (repeatable, "=<file>"); else an on/off flag, or one of
  /// Choices ("=<choice>") if there are any.
  bool IsFileList;
  /// Only for on/off flags: the value when no spelling is given.
  bool Default;
  /// Whether the front door accepts -f<name> (otherwise only -mllvm).
  bool FrontDoorFlag;
  llvm::StringLiteral Description;
  /// The values of a choice setting; the first is the default.
  llvm::ArrayRef<llvm::StringLiteral> Choices = {};

  llvm::StringRef name() const { return OptionName.drop_front(5); }
  bool isChoice() const { return !Choices.empty(); }
  bool isFlag() const { return !IsFileList && !isChoice(); }
  /// The index of Value among Choices, or -1.
  int findChoice(llvm::StringRef Value) const {
    for (size_t I = 0; I < Choices.size(); ++I)
      if (Choices[I] == Value)
        return static_cast<int>(I);
    return -1;
  }
};

inline constexpr Setting Settings[] = {
    {SettingID::AutoPreserveNone, "cacs-auto-preserve-none", false, false, true,
     "Propagate preserve_none to the callers of preserve_none functions "
     "where that is safe (-fauto-preserve-none)"},
    {SettingID::PreserveNoneList, "cacs-preserve-none-list", true, false, true,
     "Give preserve_none to the functions named in this list "
     "(-fpreserve-none-list=); may be repeated"},
    {SettingID::PreserveNoneListExportWarning,
     "cacs-preserve-none-list-export-warning", false, false, true,
     "Warn when a function given preserve_none by a list is exported, in "
     "case code compiled without the list calls it "
     "(-fpreserve-none-list-export-warning)"},
    {SettingID::PreserveNoneListWarnUnused,
     "cacs-preserve-none-list-warn-unused", false, false, false,
     "Warn about preserve-none list entries that match nothing in the "
     "translation unit too (always on at the full-LTO link)"},
    {SettingID::PreserveNoneCalleeSaved, "cacs-preserve-none-callee-saved",
     false, false, true,
     "Callee-saved registers of preserve_none functions: upstream's list, or "
     "none where that is sound (x86-64, LLVM 22)",
     CalleeSavedChoices},
    {SettingID::LinkBindsNow, "cacs-link-binds-now", false, false, false,
     "The code is linked with -z now, which binds every PLT entry at load "
     "time (the front door sets it when it compiles and links in one "
     "command)"},
};

inline constexpr const Setting &setting(SettingID ID) {
  return Settings[static_cast<unsigned>(ID)];
}

/// The value of a flag setting (not a list).
bool flagSetting(SettingID ID);
void setFlagSetting(SettingID ID, bool Enabled);

/// The value of a choice setting, as an index into its Choices.
unsigned choiceSetting(SettingID ID);
void setChoiceSetting(SettingID ID, unsigned Index);

/// Is automatic preserve_none propagation (-fauto-preserve-none) on for this
/// translation unit?
bool autoPreserveNoneEnabled();
void setAutoPreserveNone(bool Enabled);

/// The -fpreserve-none-list= files, in command-line order, each once: a path
/// is made absolute and free of "." and ".." where it is added, whichever
/// spelling added it, so one file given two ways is one list.
llvm::ArrayRef<std::string> preserveNoneListFiles();
void addPreserveNoneListFile(llvm::StringRef Path);
/// The path under which a list file is read and recorded.
std::string normalizeListPath(llvm::StringRef Path);

/// -f[no-]preserve-none-list-export-warning.
bool preserveNoneListExportWarning();
void setPreserveNoneListExportWarning(bool Enabled);
/// -mllvm -cacs-preserve-none-list-warn-unused.
bool preserveNoneListWarnUnusedPerTU();

/// The version string of cacs, e.g. "0.1.0".
llvm::StringRef version();

} // namespace cacs

#endif // CACS_OPTIONS_H
