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
#include "llvm/Support/raw_ostream.h"

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

/// Text with the man page's escapes: a minus sign is "\-" in roff.
static std::string roff(StringRef Text) {
  std::string Out;
  for (char C : Text) {
    if (C == '-' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out;
}

/// Writes \p Text wrapped at 80 columns, each line indented by \p Indent.
static void wrap(raw_ostream &OS, StringRef Text, unsigned Indent) {
  unsigned Col = 0;
  SmallVector<StringRef, 32> Words;
  Text.split(Words, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef W : Words) {
    if (Col > Indent && Col + 1 + W.size() > 80) {
      OS << "\n";
      Col = 0;
    }
    if (Col == 0) {
      OS.indent(Indent);
      Col = Indent;
    } else {
      OS << ' ';
      ++Col;
    }
    OS << W;
    Col += W.size();
  }
  OS << "\n";
}

void cacs::printFrontDoorFlags(raw_ostream &OS, HelpFormat Format) {
  for (const Setting &S : Settings) {
    if (!S.FrontDoorFlag)
      continue;
    std::string Spelling = ("-f" + S.name()).str();
    std::string Default;
    switch (S.Kind) {
    case Setting::Flag:
      Spelling = (Twine(Spelling) + ", -fno-" + S.name()).str();
      Default = S.Default ? "on" : "off";
      break;
    case Setting::List:
      Spelling += "=<file>";
      break;
    case Setting::Choice: {
      Spelling += "=<";
      for (size_t I = 0; I < S.Choices.size(); ++I)
        Spelling += ((I ? "|" : "") + S.Choices[I]).str();
      Spelling += ">";
      Default = S.Choices[0].str();
      break;
    }
    }
    std::string Text = S.Description.str() + ".";
    if (!Default.empty())
      Text += " Default: " + Default + ".";
    if (Format == HelpFormat::Man) {
      OS << ".TP\n.B " << roff(Spelling) << "\n" << roff(Text) << "\n";
      continue;
    }
    OS << "  " << Spelling << "\n";
    wrap(OS, Text, 6);
  }
}
