//===- ListSystemHeaders.cpp - System-header functions for the list -------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// A clang plugin action ("cacs-list-system-headers", run before the main
// action in every compile the front door makes) that tells the list pass
// which functions of the translation unit are declared in a system header:
// the C and C++ libraries, and every other library installed as one, are
// compiled without the list, so a glob of a list (`fun:str*`, `fun:sched_*`,
// `fun:_ZNSt7__cxx1112basic_string*`) must never give them the convention
// (PreserveNoneList.cpp), and an entry that names one alone is an error,
// reported here at the entry's line of the list file, with a note at the
// declaration:
//   list:2:1: error: 'strlen' is declared in a system header: ...
// It also names the other functions the source declares, so that the pass
// knows the rest of the module's declarations for what the compiler declared
// itself (`__cxa_throw`, `__ubsan_handle_add_overflow`, `__muldc3`, and
// `std::terminate`, which the code generator calls without the source naming
// it): runtime libraries, built without the list too.
//
// Only the front end knows where a declaration comes from: the IR of a
// declaration carries no source location. The action hands the symbol names
// (as the code generator spells them, so C++ constructors and destructors
// under each of their names, and asm labels as the label) to the pass plugin
// (cacs::markSystemHeaderFunction), which it links against and which runs in
// the same process, before the module is optimized.
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/PreserveNoneListChannel.h"
#include "cacs-compiler/PreserveNoneListFile.h"
#include "cacs-compiler/Settings.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Demangle/Demangle.h"

using namespace clang;

namespace {

class Collector : public RecursiveASTVisitor<Collector> {
public:
  Collector(ASTContext &Ctx) : SM(Ctx.getSourceManager()), Names(Ctx) {}

  // Implicit instantiations of a system header's templates are its
  // functions too; implicit members (constructors, operators) as well.
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
  // Bodies too: a block-scope `extern` declaration names a source
  // function, and the lambdas' call operators are declared there.

  bool VisitFunctionDecl(FunctionDecl *FD) {
    // A function the unit never names is not in its IR.
    if (FD->isInvalidDecl() || !FD->isFirstDecl() || FD->isDependentContext() ||
        !(FD->isUsed(false) || FD->isReferenced()))
      return true;
    bool System = llvm::any_of(FD->redecls(), [&](const FunctionDecl *R) {
      return SM.isInSystemHeader(R->getLocation());
    });
    if (isa<CXXConstructorDecl>(FD) || isa<CXXDestructorDecl>(FD)) {
      for (const std::string &Name : Names.getAllManglings(FD))
        add(Name, FD, System);
      return true;
    }
    add(Names.getName(FD), FD, System);
    return true;
  }

  /// Symbol name and demangled name -> declaration.
  llvm::StringMap<const FunctionDecl *> Found;

private:
  /// Tells the list pass about a function the source declares; the rest of
  /// the module's declarations are the compiler's runtime functions.
  void add(const std::string &Name, const FunctionDecl *FD, bool System) {
    if (!System) {
      cacs::markSourceFunction(Name);
      return;
    }
    cacs::markSystemHeaderFunction(Name);
    Found.try_emplace(Name, FD);
    std::string Demangled = llvm::demangle(Name);
    if (Demangled != Name)
      Found.try_emplace(Demangled, FD);
  }

  SourceManager &SM;
  ASTNameGenerator Names;
};

class Consumer : public ASTConsumer {
public:
  explicit Consumer(CompilerInstance &CI) : CI(CI) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    // Runs before the code generator's consumer (the action comes before
    // the main one), which runs the passes. The settings are known by now.
    if (cacs::preserveNoneListFiles().empty())
      return;
    // The pass reports list problems through clang's code generator, which
    // places them in the list file: it can in a source compile (not of IR).
    cacs::markClangSourceCompile();
    Collector C(Ctx);
    C.TraverseDecl(Ctx.getTranslationUnitDecl());
    if (C.Found.empty())
      return;
    for (const std::string &Path : cacs::preserveNoneListFiles())
      reportEntriesNaming(Path, C.Found);
  }

private:
  /// Reports each entry of the list at \p Path that names, alone, a function
  /// of a system header. A list the pass cannot read or parse is left to it
  /// to report.
  void reportEntriesNaming(StringRef Path,
                           const llvm::StringMap<const FunctionDecl *> &Found) {
    std::string Text;
    std::vector<cacs::ListSection> Sections;
    if (!cacs::readPreserveNoneList(Path, Text).empty() ||
        !cacs::checkPreserveNoneListText(Path, Text, &Sections).empty())
      return;
    bool Regex = cacs::isRegexList(Text);
    for (const cacs::ListSection &Section : Sections) {
      // A section with `src:` entries lists only internal functions.
      if (llvm::any_of(Section.Entries, [](const cacs::ListEntry &E) {
            return E.Prefix == "src";
          }))
        continue;
      for (const cacs::ListEntry &E : Section.Entries) {
        if (E.Prefix != "fun" || !cacs::isExactListName(E.Pattern, Regex))
          continue;
        auto It = Found.find(E.Pattern);
        if (It != Found.end())
          report(Path, Text, E, *It->second);
      }
    }
  }

  void report(StringRef Path, StringRef Text, const cacs::ListEntry &E,
              const FunctionDecl &FD) {
    DiagnosticsEngine &D = CI.getDiagnostics();
    SourceManager &SM = CI.getSourceManager();
    SourceLocation Loc;
    if (auto File = CI.getFileManager().getOptionalFileRef(Path)) {
      FileID FID = SM.getOrCreateFileID(*File, SrcMgr::C_User);
      Loc = SM.translateLineCol(
          FID, E.Line, cacs::listColumn(cacs::listLine(Text, E.Line), E.Text));
    }
    D.Report(Loc, D.getCustomDiagID(
                      DiagnosticsEngine::Error,
                      "'%0' is declared in a system header: the libraries "
                      "that define such functions are built without the "
                      "preserve-none list, so it cannot be preserve_none; "
                      "remove the entry"))
        << E.Pattern;
    D.Report(FD.getLocation(),
             D.getCustomDiagID(DiagnosticsEngine::Note, "'%0' declared here"))
        << E.Pattern;
  }

  CompilerInstance &CI;
};

class ListSystemHeadersAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    return std::make_unique<Consumer>(CI);
  }

  bool ParseArgs(const CompilerInstance &,
                 const std::vector<std::string> &) override {
    return true;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }
};

} // namespace

static FrontendPluginRegistry::Add<ListSystemHeadersAction>
    X("cacs-list-system-headers",
      "cacs: tell the list pass which functions system headers declare");
