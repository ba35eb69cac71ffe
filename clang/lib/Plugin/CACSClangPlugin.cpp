//===- CACSClangPlugin.cpp - Clang side of the cacs settings --------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// A clang plugin that takes the cacs settings as plugin arguments and hands
// them to the pass plugin (CACSPasses, which this library links against):
//
//   -fplugin=CACSClangPlugin.so
//     -fplugin-arg-cacs-<name>, -fplugin-arg-cacs-no-<name>  (flags)
//     -fplugin-arg-cacs-<name>=<file>                         (lists)
//
// for every setting of the table in Settings.def.
//
// The front door passes settings this way, not with -mllvm, because -mllvm
// also reaches the integrated assembler (cc1as), which knows no cacs option.
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/Settings.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"

using namespace clang;

namespace {

class CACSSettingsAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    return std::make_unique<ASTConsumer>();
  }

  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    for (StringRef Arg : Args)
      if (!parseSetting(Arg)) {
        DiagnosticsEngine &D = CI.getDiagnostics();
        D.Report(D.getCustomDiagID(DiagnosticsEngine::Error,
                                   "unknown argument '%0' to the cacs plugin"))
            << Arg;
        return false;
      }
    return true;
  }

  /// One argument, spelled as Settings.def's table says: <name>,
  /// no-<name> for a flag; <name>=<file> for a list; <name>=<choice>.
  static bool parseSetting(StringRef Arg) {
    cacs::SettingArg A;
    if (cacs::parseSetting(Arg, A, /*FrontDoorOnly=*/false) !=
        cacs::SettingParse::Parsed)
      return false;
    cacs::applySetting(A);
    return true;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }
};

} // namespace

static FrontendPluginRegistry::Add<CACSSettingsAction>
    X("cacs", "cacs settings: -fauto-preserve-none, -fpreserve-none-list=");
