//===- Diagnostics.cpp - How the cacs passes report -----------------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/Diagnostics.h"

#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"

using namespace llvm;

namespace {

/// A diagnostic about the compilation as a whole: one plugin kind for all of
/// cacs, printed as its message alone.
class CACSDiagnostic : public DiagnosticInfo {
  const Twine &Msg;

public:
  static int kind() {
    static const int K = getNextAvailablePluginDiagnosticKind();
    return K;
  }
  CACSDiagnostic(const Twine &Msg, DiagnosticSeverity S)
      : DiagnosticInfo(kind(), S), Msg(Msg) {}
  void print(DiagnosticPrinter &DP) const override { DP << Msg; }
};

} // namespace

void cacs::emit(LLVMContext &Ctx, DiagnosticSeverity S, const Twine &Msg) {
  CACSDiagnostic D(Msg, S);
  Ctx.diagnose(D);
}

void cacs::emitError(const Function &F, const Twine &Msg, const DebugLoc &DL) {
  // DiagnosticInfoUnsupported keeps a reference to its message.
  std::string Text = Msg.str();
  F.getContext().diagnose(
      DiagnosticInfoUnsupported(F, Text, DiagnosticLocation(DL)));
}

void cacs::emitWarning(const Function &F, const Twine &Msg,
                       const DebugLoc &DL) {
  std::string Text = Msg.str();
  F.getContext().diagnose(
      DiagnosticInfoUnsupported(F, Text, DiagnosticLocation(DL), DS_Warning));
}
