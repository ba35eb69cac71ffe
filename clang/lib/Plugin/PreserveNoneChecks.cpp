//===- PreserveNoneChecks.cpp - Reject what preserve_none cannot do -------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// A clang plugin action ("cacs-checks", run before the main action in every
// compile the front door makes) that diagnoses uses of the preserve_none
// calling convention that the configured LLVM cannot compile correctly.
//
// Variadic functions on x86-64. On LLVM 19 and 22 alike, a variadic
// preserve_none function on x86-64 is a silent miscompile: callers pass the
// named and the variadic arguments in the preserve_none registers (r12, r13,
// r14, r15, rdi, ...) and leave %al unset, while the callee's va_start spills
// the SysV registers (rdi, rsi, ..., xmm0-7) into its register save area, so
// va_arg reads garbage: a preserve_none sum of 12 variadic longs weighted
// 1..12 returns 238 instead of 650 at -O0 and junk at -O2; the callee also
// tests an %al the caller never set. On AArch64 both versions lower variadic preserve_none calls with the
// AAPCS argument registers on both sides and the programs run correctly, so
// AArch64 is left alone.
//
// What is diagnosed, on x86-64 targets only, as an error at the declaration:
//  - a variadic function declared or defined preserve_none:
//      'preserve_none' calling convention is not supported on variadic
//      function 'f' on x86-64
//  - any other declaration (variable, field, parameter, typedef) whose type
//    is, or points to, a variadic preserve_none function type, because calls
//    through it miscompile the same way:
//      'preserve_none' calling convention is not supported on variadic
//      function type 'int (int, ...) __attribute__((preserve_none))' on x86-64
//
// K&R-style unprototyped declarations are not variadic in this sense (clang
// rejects preserve_none on them already).
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/PreserveNoneRules.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Type.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/TargetParser/Triple.h"

using namespace clang;

namespace {

/// The variadic preserve_none function type that T is, or that T points to
/// (through pointers, references, block pointers, arrays), or null.
const FunctionProtoType *badFunctionType(QualType T) {
  for (unsigned Depth = 0; !T.isNull() && Depth < 16; ++Depth) {
    T = T.getCanonicalType();
    if (const auto *FPT = T->getAs<FunctionProtoType>()) {
      if (FPT->isVariadic() && FPT->getCallConv() == CC_PreserveNone)
        return FPT;
      return nullptr;
    }
    if (const auto *PT = T->getAs<PointerType>())
      T = PT->getPointeeType();
    else if (const auto *RT = T->getAs<ReferenceType>())
      T = RT->getPointeeType();
    else if (const auto *BT = T->getAs<BlockPointerType>())
      T = BT->getPointeeType();
    else if (const auto *MPT = T->getAs<MemberPointerType>())
      T = MPT->getPointeeType();
    else if (const ArrayType *AT = T->getAsArrayTypeUnsafe())
      T = AT->getElementType();
    else
      return nullptr;
  }
  return nullptr;
}

class Checker : public RecursiveASTVisitor<Checker> {
public:
  explicit Checker(DiagnosticsEngine &D) : D(D) {
    FunctionDiag = D.getCustomDiagID(
        DiagnosticsEngine::Error,
        "'preserve_none' calling convention is not supported on variadic "
        "function %0 on x86-64");
    TypeDiag = D.getCustomDiagID(
        DiagnosticsEngine::Error,
        "'preserve_none' calling convention is not supported on variadic "
        "function type %0 on x86-64");
  }

  // Templates are checked once, as written: the convention and the
  // ellipsis of a variadic function are never dependent.
  bool shouldVisitTemplateInstantiations() const { return false; }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    // Once per function: redeclarations inherit the calling convention.
    if (FD->isInvalidDecl() || !FD->isFirstDecl())
      return true;
    const auto *FPT = FD->getType()->getAs<FunctionProtoType>();
    if (FPT && FPT->isVariadic() && FPT->getCallConv() == CC_PreserveNone) {
      D.Report(FD->getLocation(), FunctionDiag) << FD;
      return true;
    }
    // The return type may itself be a pointer to a bad function type.
    if (FPT)
      reportType(FD->getLocation(), FPT->getReturnType());
    return true;
  }

  bool VisitVarDecl(VarDecl *VD) { // Also parameters.
    if (!VD->isInvalidDecl())
      reportType(VD->getLocation(), VD->getType());
    return true;
  }

  bool VisitFieldDecl(FieldDecl *FD) {
    if (!FD->isInvalidDecl())
      reportType(FD->getLocation(), FD->getType());
    return true;
  }

  bool VisitTypedefNameDecl(TypedefNameDecl *TD) {
    if (!TD->isInvalidDecl())
      reportType(TD->getLocation(), TD->getUnderlyingType());
    return true;
  }

private:
  void reportType(SourceLocation Loc, QualType T) {
    if (const FunctionProtoType *FPT = badFunctionType(T))
      D.Report(Loc, TypeDiag) << QualType(FPT, 0);
  }

  DiagnosticsEngine &D;
  unsigned FunctionDiag, TypeDiag;
};

class CheckConsumer : public ASTConsumer {
public:
  void HandleTranslationUnit(ASTContext &Ctx) override {
    // The one rule, shared with the safety pass (PreserveNoneSafety).
    if (!cacs::variadicPreserveNoneMiscompiles(Ctx.getTargetInfo().getTriple()))
      return;
    Checker C(Ctx.getDiagnostics());
    C.TraverseDecl(Ctx.getTranslationUnitDecl());
  }
};

class PreserveNoneChecksAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    return std::make_unique<CheckConsumer>();
  }

  bool ParseArgs(const CompilerInstance &,
                 const std::vector<std::string> &) override {
    return true;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }
};

} // namespace

static FrontendPluginRegistry::Add<PreserveNoneChecksAction>
    X("cacs-checks", "cacs: diagnose preserve_none uses LLVM miscompiles");
