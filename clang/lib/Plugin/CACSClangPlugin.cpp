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
//     -fplugin-arg-cacs-auto-preserve-none
//     -fplugin-arg-cacs-no-auto-preserve-none
//     -fplugin-arg-cacs-preserve-none-list=<file>
//     -fplugin-arg-cacs-no-preserve-none-list-export-warning
//
// The front door passes settings this way, not with -mllvm, because -mllvm
// also reaches the integrated assembler (cc1as), which knows no cacs option.
//
//===----------------------------------------------------------------------===//

#include "cacs/Options.h"
#include "cacs/PreserveNoneList.h"

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
    for (StringRef Arg : Args) {
      if (Arg == "auto-preserve-none") {
        cacs::setAutoPreserveNone(true);
      } else if (Arg == "no-auto-preserve-none") {
        cacs::setAutoPreserveNone(false);
      } else if (Arg.consume_front("preserve-none-list=")) {
        cacs::addPreserveNoneListFile(Arg);
      } else if (Arg == "no-preserve-none-list-export-warning") {
        cacs::setPreserveNoneListExportWarning(false);
      } else {
        DiagnosticsEngine &D = CI.getDiagnostics();
        D.Report(D.getCustomDiagID(DiagnosticsEngine::Error,
                                   "unknown argument '%0' to the cacs plugin"))
            << Arg;
        return false;
      }
    }
    return true;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }
};

} // namespace

static FrontendPluginRegistry::Add<CACSSettingsAction>
    X("cacs", "cacs settings: -fauto-preserve-none, -fpreserve-none-list=");
