//===- PreserveNoneList.cpp - -fpreserve-none-list= -----------------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// Gives preserve_nonecc to the functions that list files name.
//
// Format: LLVM's SpecialCaseList (the format of -fsanitize-ignorelist= and
// -fprofile-list=), read with llvm::SpecialCaseList itself, so its pattern
// syntax is the one of the LLVM in use (globs; regexes after a first line
// "#!special-case-list-v1").
//   - `#` starts a comment; blank lines are ignored.
//   - `fun:<pattern>` matches a function by its symbol name (mangled for C++)
//     or by its demangled name (llvm::demangle, e.g. `ns::f(int)`).
//   - `src:<pattern>` restricts the `fun:` entries of the same section to
//     functions with internal linkage whose source file matches (the
//     translation unit's source_filename, or the DISubprogram's file). A
//     section with `src:` entries and no `fun:` entry lists every internal
//     function of the matching files. `src:` cannot restrict an externally
//     visible function (a translation unit that only declares it cannot see
//     where it is defined), so such a function is left as is, with a warning.
//   - Sections are optional. Entries before any section header apply; a
//     section applies when its name (a pattern) matches `preserve_none`, so
//     `[preserve_none]` and `[*]` apply and `[address]` is ignored. In
//     sections that apply, only `fun:` and `src:` are accepted, without
//     `=category`.
//   - Several lists combine: a function is listed if any list lists it. A
//     list given twice counts once; an entry repeated in a section counts
//     once, at its first line (the line the diagnostics name).
//   - `fun:` entries without pattern characters (of a glob: * ? [ ] { } \;
//     of a v1 regex: those and ( ) . + | ^ $) are looked up by name in a
//     hash map, so a list of 100,000 names, demangled ones too, costs little
//     on LLVM 19, whose SpecialCaseList tries patterns one by one.
//
// What a listed function gets: preserve_nonecc, and so does every direct
// call of it in the module. An externally visible function takes it under a
// decorated name of its own, `<name>.preserve_none_list` (DecoratedSuffix),
// which the direct calls call; its plain name stays a C-convention function:
//   - a definition's plain name becomes a C entry that calls the body, with
//     the function's linkage, visibility and comdat (the body gets a comdat
//     of its own), and takes every other use: its address, aliases, llvm.used;
//   - a declaration keeps its plain name, C, for every use but direct calls.
// So whatever reaches the plain name (code built without the list or by
// another compiler, dlsym, function pointers, an unprototyped declaration, a
// weak reference) reaches C code, `&f` is one address in every unit, and a
// caller built with the list whose callee was built without it fails to link,
// the linker naming the missing `<name>.preserve_none_list`. Functions that
// a system header declares (the clang plugin marks them, SystemHeaderAttr)
// are never listed: the libraries that define them are built without the
// list. An internal function takes the convention under its own name; where
// its address is taken, the use goes to an internal C-entry thunk,
// `<name>.cacs_c_entry`.
//
// Diagnostics (LLVMContext::diagnose; clang prints them in its format). A
// problem at a place in a list file, and one of a function an entry lists
// (at that entry), is reported there (emitListProblem: `list:2:5: error:
// ...` under clang, the location leading the message elsewhere); one about
// the file as a whole names it in the message:
//   error   a list file is missing, unreadable, a directory, empty, not text
//           (a control character such as NUL, or a CR not ending a line) or
//           malformed (at SpecialCaseList's line), or has an entry
//           kind other than fun:/src:, or a category; text of the file that a
//           message quotes is cut to a bounded length (cacs::quoteListText);
//   error   a listed externally visible function cannot take the convention
//           for a reason that other translation units cannot see (musttail);
//   error   at a full-LTO link, a module from a cacs before the decorated
//           names (a listed external function preserve_none under its plain
//           name);
//   warning a listed function cannot be preserve_none (variadic; byval,
//           inalloca or preallocated parameter; `main`; naked; an interrupt
//           handler or another explicit calling convention; musttail; a weak
//           definition, which another may replace): it is left as is (a weak
//           declaration is left as is without a word);
//   warning a listed definition is exported: code compiled without the list
//           will call it through its C entry (per TU only, and only with
//           -fpreserve-none-list-export-warning);
//   warning an entry matched nothing (at the full-LTO link, where the whole
//           program is visible; per TU with
//           -mllvm -cacs-preserve-none-list-warn-unused); ten per list, then
//           one at the next such entry that counts the rest. At any other
//           link the front door says it, from the lines each object records
//           as matched (ListLinesSection, PreserveNoneListRecord.cpp).
//
// Per TU the lists are recorded in the module (named metadata
// !cacs.preserve_none_lists, !{!"<path>", !"<text>"} per list) so that the
// full-LTO link, which sees no command-line option, applies them again to the
// merged module: that also fixes the calls of modules compiled without them.
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/PreserveNoneList.h"
#include "cacs-compiler/PreserveNoneListChannel.h"
#include "cacs-compiler/PreserveNoneRulesEligibility.h"
#include "cacs-compiler/PreserveNoneRulesWrapper.h"
#include "cacs-compiler/PreserveNoneSymbols.h"
#include "cacs-compiler/Settings.h"

#include "PreserveNoneListMatch.h"
#include "PreserveNoneListRecord.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SpecialCaseList.h"
#include "llvm/TargetParser/Triple.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>

using namespace llvm;
using namespace cacs;
using namespace cacs::list;

namespace {

//===----------------------------------------------------------------------===//
// The transformation
//===----------------------------------------------------------------------===//

/// Marks the functions this pass gave the convention (a full-LTO link must
/// redirect the address-taken uses of modules compiled without the list).
constexpr StringRef ConvertedAttr = "cacs-preserve-none-list";
/// The source file through which a `src:` entry listed an internal function,
/// for the full-LTO link, where the module's source file is another one.
constexpr StringRef SrcAttr = "cacs-preserve-none-list-src";

/// Calls through which the caller's and the callee's conventions must agree.
bool isMustTail(const CallBase &CB) {
  const auto *CI = dyn_cast<CallInst>(&CB);
  return CI && CI->isMustTailCall();
}

bool isUsedListUse(const Use &U) {
  const auto *CA = dyn_cast<ConstantArray>(U.getUser());
  if (!CA)
    return false;
  for (const User *UU : CA->users())
    if (const auto *GV = dyn_cast<GlobalVariable>(UU))
      if (GV->getName() == "llvm.used" || GV->getName() == "llvm.compiler.used")
        return true;
  return false;
}

bool isDirectCall(const Use &U) {
  const auto *CB = dyn_cast<CallBase>(U.getUser());
  return CB && CB->isCallee(&U);
}

class ListApplier {
public:
  ListApplier(Module &M, PreserveNoneListPass::Phase P,
              std::vector<std::unique_ptr<ListFile>> &Lists)
      : M(M), Ctx(M.getContext()), P(P), Lists(Lists), RC(M), Wrappers(M) {}

  bool run();

private:
  Module &M;
  LLVMContext &Ctx;
  PreserveNoneListPass::Phase P;
  std::vector<std::unique_ptr<ListFile>> &Lists;
  bool WarnUnused = false;
  StringSet<> SeenNames, SeenFiles;
  RuleContext RC;
  WrapperBuilder Wrappers;

  struct Hit {
    Group *G = nullptr;
    unsigned Line = 0;
    std::string SrcFile; // Set when a src: entry restricted the hit.
  };

  /// What the lists name, and the lines that name it.
  MapVector<Function *, Hit> Listed;
  /// The listed functions that keep their convention.
  SetVector<Function *> Blocked;

  void collect();
  void decide();
  void blockMustTailMismatches();
  bool willBePreserveNone(const Function *F) const;
  bool apply();
  bool convert(Function &F, const Hit &H, bool &AddressTaken);
  bool redirectAddressUses(Function &F, const Hit &H);
  void applyToDeclaration(Function &F);
  void applyToDefinition(Function &F, const Hit &H);
  bool isExactEntry(const Hit &H) const;

  /// A function name (mangled) the unused-entry warnings count as seen.
  void noteSeen(StringRef Mangled);
  std::optional<Hit> match(Function &F);
  bool listsAlias(const GlobalAlias &A);
  /// Reports a problem of a listed function at the entry that lists it
  /// (emitListProblem: `list:3:1: warning: ...` under clang).
  void diagnoseEntry(const Hit &H, DiagnosticSeverity S,
                     const Twine &Message) const {
    const ListFile &L = *H.G->File;
    emitListProblem(
        Ctx, S,
        {L.Path, H.Line, listColumn(L.Lines[H.Line - 1]), Message.str()},
        L.Text);
  }
  Function *getOrCreateThunk(Function &F);
  Function *getOrCreateAliasEntry(Function &F);
  AttributeList thunkCallAttrs(const Function &F);
  void warnUnused();
};

/// The source files a `src:` entry may match for F.
void srcFilesOf(const Function &F, PreserveNoneListPass::Phase P,
                SmallVectorImpl<std::string> &Out) {
  if (P == PreserveNoneListPass::Phase::LTOLink) {
    if (F.hasFnAttribute(SrcAttr))
      Out.push_back(F.getFnAttribute(SrcAttr).getValueAsString().str());
    return;
  }
  Out.push_back(F.getParent()->getSourceFileName());
  if (const DISubprogram *SP = F.getSubprogram()) {
    StringRef File = SP->getFilename();
    if (!File.empty()) {
      Out.push_back(File.str());
      if (sys::path::is_relative(File) && !SP->getDirectory().empty()) {
        SmallString<256> Full(SP->getDirectory());
        sys::path::append(Full, File);
        Out.push_back(std::string(Full));
      }
    }
  }
}

void ListApplier::noteSeen(StringRef Mangled) {
  SeenNames.insert(Mangled);
  std::string Demangled = demangle(Mangled);
  if (Demangled != Mangled)
    SeenNames.insert(Demangled);
}

std::optional<ListApplier::Hit> ListApplier::match(Function &F) {
  StringRef Mangled = F.getName();
  std::string Demangled = demangle(Mangled);
  bool HasDemangled = Demangled != Mangled;
  if (WarnUnused)
    noteSeen(Mangled);
  std::optional<Hit> Result;
  for (auto &L : Lists) {
    for (Group &G : L->Groups) {
      unsigned FunLine = 0;
      if (G.HasFun) {
        FunLine = G.funLine(Mangled);
        if (!FunLine && HasDemangled)
          FunLine = G.funLine(Demangled);
        if (!FunLine)
          continue;
        G.markUsed(FunLine);
      }
      if (!G.HasSrc) {
        if (!Result)
          Result = Hit{&G, FunLine, ""};
        continue;
      }
      // A src: section: only definitions have a source file.
      if (F.isDeclaration())
        continue;
      SmallVector<std::string, 3> Files;
      srcFilesOf(F, P, Files);
      unsigned SrcLine = 0;
      std::string SrcFile;
      for (const std::string &File : Files) {
        if (WarnUnused)
          SeenFiles.insert(File);
        if ((SrcLine = G.srcLine(File))) {
          SrcFile = File;
          break;
        }
      }
      if (!SrcLine)
        continue;
      G.markUsed(SrcLine);
      Hit H{&G, FunLine ? FunLine : SrcLine, SrcFile};
      if (!F.hasLocalLinkage()) {
        if (P == PreserveNoneListPass::Phase::PerTU)
          diagnoseEntry(
              H, DS_Warning,
              "function '" + F.getName() +
                  "' matched here is left as is: 'src:' entries "
                  "restrict only functions with internal linkage, and it is "
                  "externally visible; list it in a section without 'src:'");
        continue;
      }
      if (!Result)
        Result = H;
    }
  }
  return Result;
}

/// Whether a `fun:` entry (in a section without `src:`) names alias \p A,
/// so that translation units that declare it call it as preserve_none.
bool ListApplier::listsAlias(const GlobalAlias &A) {
  std::string Demangled = demangle(A.getName());
  for (auto &L : Lists)
    for (Group &G : L->Groups) {
      if (!G.HasFun || G.HasSrc)
        continue;
      unsigned Line = G.funLine(A.getName());
      if (!Line && Demangled != A.getName())
        Line = G.funLine(Demangled);
      if (Line) {
        G.markUsed(Line);
        return true;
      }
    }
  return false;
}

/// The ABI attributes (zeroext, signext, sret, inreg, ...) of the
/// parameters and the return value, on a thunk and on its call.
AttributeList ListApplier::thunkCallAttrs(const Function &F) {
  AttributeList FA = F.getAttributes();
  SmallVector<AttributeSet, 8> PA;
  for (unsigned I = 0; I < F.arg_size(); ++I)
    PA.push_back(FA.getParamAttrs(I));
  return AttributeList::get(Ctx, AttributeSet(), FA.getRetAttrs(), PA);
}

Function *ListApplier::getOrCreateThunk(Function &F) {
  return Wrappers.get(WrapperKind::CEntry, &F, F.getFunctionType(),
                      thunkCallAttrs(F), F, F.doesNotThrow());
}

Function *ListApplier::getOrCreateAliasEntry(Function &F) {
  return Wrappers.get(WrapperKind::AliasEntry, &F, F.getFunctionType(),
                      thunkCallAttrs(F), F, F.doesNotThrow());
}

void ListApplier::warnUnused() {
  StringRef Where = P == PreserveNoneListPass::Phase::LTOLink
                        ? "in the program"
                        : "in this translation unit";
  std::string Error;
  for (auto &L : Lists) {
    std::vector<ListEntry> Unused;
    for (Group &G : L->Groups)
      for (Entry &E : G.Entries) {
        if (E.Used)
          continue;
        // The blame of a query names one entry; another entry may match the
        // same name. Ask a list of this entry alone.
        bool Hit = false;
        if (E.Exact) {
          Hit = SeenNames.contains(E.Pattern);
        } else {
          std::unique_ptr<SpecialCaseList> One =
              makeSCL(L->textOf(G.Header, E.Text), L->Path, Error);
          const StringSet<> &Seen = E.Prefix == "fun" ? SeenNames : SeenFiles;
          for (const auto &S : Seen)
            if (One && One->inSection(SectionName, E.Prefix, S.getKey())) {
              Hit = true;
              break;
            }
        }
        if (!Hit)
          Unused.push_back(E);
      }
    // A list of many names, most for other programs, says so in one line.
    for (const ListProblem &Problem :
         unusedEntryWarnings(L->Path, L->Text, Unused, Where))
      emitListProblem(Ctx, DS_Warning, Problem, L->Text);
  }
}

bool ListApplier::run() {
  collect();
  decide();
  return apply();
}

//===----------------------------------------------------------------------===//
// 1. Collect: what the lists name.
//===----------------------------------------------------------------------===//

void ListApplier::collect() {
  WarnUnused = P == PreserveNoneListPass::Phase::LTOLink ||
               preserveNoneListWarnUnusedPerTU();
  for (Function &F : M) {
    // cacs's own wrappers are not the program's functions, whatever a glob
    // of the list matches: at a full-LTO link, a unit's shield of a listed
    // `f` is `f.cacs.shield`, which `fun:f*` names too.
    if (F.isIntrinsic() || F.getName().starts_with("llvm.") || isCACSWrapper(F))
      continue;
    // A body that carries its decorated name took the convention already
    // (per TU, or in another module of a full-LTO link); `fun:f*` names it
    // too.
    if (isDecoratedName(F.getName())) {
      if (WarnUnused)
        noteSeen(F.getName().split(DecoratedSuffix).first);
      continue;
    }
    if (P == PreserveNoneListPass::Phase::PerTU &&
        (isSystemHeaderFunction(F.getName()) ||
         isCompilerRuntimeDeclaration(F)))
      F.addFnAttr(SystemHeaderAttr);
    if (P == PreserveNoneListPass::Phase::LTOLink && !F.hasLocalLinkage() &&
        F.hasFnAttribute(ConvertedAttr) &&
        F.getCallingConv() == CallingConv::PreserveNone) {
      // Only cacs before the decorated names gave an externally visible
      // function the convention under its plain name.
      emit(Ctx, DS_Error,
           "function '" + F.getName() +
               "' took preserve_none from a preserve-none list under its "
               "plain name, as cacs did before the list's decorated names: "
               "rebuild its module with this cacs");
      continue;
    }
    // At a full-LTO link a declaration is defined outside the LTO unit, by
    // code the link cannot tell was built with the list: its calls stay C
    // calls of the plain name, which is a C entry either way.
    if (P == PreserveNoneListPass::Phase::LTOLink && F.isDeclaration())
      continue;
    std::optional<Hit> H = match(F);
    // The C and C++ libraries, whatever else a system header declares, and
    // the runtime functions the compiler declares itself are built without
    // the list: no entry gives them the convention (the clang plugin reports
    // an entry that names a system header's function alone).
    if (!H || F.hasFnAttribute(SystemHeaderAttr))
      continue;
    Listed.insert({&F, std::move(*H)});
  }
  if (WarnUnused)
    warnUnused();
}

//===----------------------------------------------------------------------===//
// 2. Decide: what cannot take the convention (the legality, asked of
// canTakePreserveNone, and the musttail calls that tie two functions).
//===----------------------------------------------------------------------===//

void ListApplier::decide() {
  // Signature reasons are seen alike in every translation unit, so leaving
  // the function as is keeps them in agreement.
  for (auto &[F, H] : Listed) {
    // What only the defining module sees (a probed frame) is made safe by
    // the final check, which splits the definition.
    Eligibility E = canTakePreserveNone(*F, RC, AskSignature);
    if (E)
      continue;
    // Said per TU; the full-LTO link would repeat it for every module.
    if (P == PreserveNoneListPass::Phase::PerTU)
      diagnoseEntry(H, DS_Warning,
                    "function '" + F->getName() +
                        "' listed here cannot be preserve_none: " + E.Detail +
                        "; left as is");
    Blocked.insert(F);
  }
  for (auto &[F, H] : Listed) {
    if (Blocked.count(F) || F->hasLocalLinkage() ||
        F->getCallingConv() == CallingConv::PreserveNone)
      continue;
    Function *Body = M.getFunction(decoratedName(F->getName()));
    // A full-LTO link kept the C copy of an ODR function from a module
    // built without the list, and the body of another module's copy: both
    // are right; the C one stays C.
    if (Body && !Body->isDeclaration()) {
      Blocked.insert(F);
      continue;
    }
    // A weak declaration is optional: the calls of one that may be missing
    // stay C calls of the plain name, which reach whatever defines it.
    if (F->hasExternalWeakLinkage()) {
      Blocked.insert(F);
      continue;
    }
    // Another definition may replace a weak one at link time, and the
    // callers built with the list, which call the decorated name, would
    // still reach this one.
    if (!F->isDeclaration() && F->isInterposable()) {
      if (P == PreserveNoneListPass::Phase::PerTU)
        diagnoseEntry(H, DS_Warning,
                      "function '" + F->getName() +
                          "' listed here cannot be preserve_none: it is a "
                          "weak definition, which "
                          "another may replace at link time; left as is");
      Blocked.insert(F);
    }
  }
  blockMustTailMismatches();
}

bool ListApplier::willBePreserveNone(const Function *F) const {
  if (!F)
    return false;
  auto It = Listed.find(const_cast<Function *>(F));
  if (It != Listed.end() && !Blocked.count(It->first))
    return true;
  return F->getCallingConv() == CallingConv::PreserveNone;
}

void ListApplier::blockMustTailMismatches() {
  // musttail: caller and callee must keep one convention. Iterate: leaving
  // one function as is may strand another.
  SmallVector<CallBase *, 8> MustTails;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I); CB && isMustTail(*CB))
        MustTails.push_back(CB);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (CallBase *CB : MustTails) {
      Function *Caller = CB->getFunction();
      Function *Callee = CB->getCalledFunction();
      bool CallerPN = willBePreserveNone(Caller);
      bool CalleePN = Callee
                          ? willBePreserveNone(Callee)
                          : CB->getCallingConv() == CallingConv::PreserveNone;
      if (CallerPN == CalleePN)
        continue;
      Function *Victim = CallerPN ? Caller : Callee;
      if (!Listed.count(Victim) || Blocked.count(Victim))
        continue; // Preserve_none from the source: not ours to change.
      std::string Why =
          Victim == Caller
              ? (Callee ? "it makes a musttail call to '" +
                              Callee->getName().str() +
                              "', which is not preserve_none"
                        : std::string("it makes an indirect musttail call"))
              : "'" + Caller->getName().str() +
                    "' makes a musttail call to it and is not preserve_none";
      const Hit &H = Listed.find(Victim)->second;
      // A declaration left as is is called by its plain name, a C entry
      // wherever it is defined.
      if (Victim->hasLocalLinkage() || Victim->isDeclaration())
        diagnoseEntry(H, DS_Warning,
                      "function '" + Victim->getName() +
                          "' listed here cannot be preserve_none: " + Why +
                          "; left as is");
      else
        diagnoseEntry(
            H, DS_Error,
            "function '" + Victim->getName() +
                "' listed here cannot be preserve_none: " + Why +
                "; it is externally visible, and other translation units "
                "compiled with the list would call it as preserve_none");
      Blocked.insert(Victim);
      Changed = true;
    }
  }
}

//===----------------------------------------------------------------------===//
// 3. Apply: the convention on each function left listed, its direct calls,
// and C entries where its address is taken.
//===----------------------------------------------------------------------===//

bool ListApplier::apply() {
  bool Changed = false;
  for (auto &[F, H] : Listed) {
    if (Blocked.count(F))
      continue;
    // A function that has the convention from its source keeps it under
    // its name: every declaration says so.
    if (!F->hasLocalLinkage() &&
        F->getCallingConv() != CallingConv::PreserveNone) {
      if (F->isDeclaration())
        applyToDeclaration(*F);
      else
        applyToDefinition(*F, H);
      Changed = true;
      continue;
    }
    bool AddressTaken = false;
    Changed |= convert(*F, H, AddressTaken);
    if (AddressTaken)
      Changed |= redirectAddressUses(*F, H);
  }
  return Changed;
}

/// The declaration of the decorated body of \p F (a declaration), made
/// like F.
static Function *getOrInsertBodyDeclaration(Function &F) {
  Module &M = *F.getParent();
  std::string Name = decoratedName(F.getName());
  if (Function *Body = M.getFunction(Name))
    return Body;
  Function *Body = Function::Create(F.getFunctionType(), F.getLinkage(),
                                    F.getAddressSpace(), Name, &M);
  Body->copyAttributesFrom(&F);
  Body->setCallingConv(CallingConv::PreserveNone);
  Body->addFnAttr(ConvertedAttr);
  return Body;
}

/// A function defined elsewhere: its direct calls call its decorated body,
/// whose definition only a unit built with the list has (else the link
/// fails, naming it); every other use keeps the plain name, a C entry.
void ListApplier::applyToDeclaration(Function &F) {
  Function *Body = nullptr;
  for (Use &U : make_early_inc_range(F.uses())) {
    if (!isDirectCall(U))
      continue;
    if (!Body)
      Body = getOrInsertBodyDeclaration(F);
    auto *CB = cast<CallBase>(U.getUser());
    CB->setCalledOperand(Body);
    CB->setCallingConv(CallingConv::PreserveNone);
  }
}

/// A function defined here: the body takes the convention under its
/// decorated name; the plain name becomes a C entry that calls it, with the
/// function's linkage, visibility and comdat, and stands for the function
/// wherever it is not called directly (its address, its aliases, dlsym).
void ListApplier::applyToDefinition(Function &F, const Hit &H) {
  if (P == PreserveNoneListPass::Phase::PerTU &&
      preserveNoneListExportWarning())
    diagnoseEntry(
        H, DS_Warning,
        "function '" + F.getName() +
            "' listed here is exported: code compiled without the list will "
            "call it "
            "through its C entry (-fpreserve-none-list-export-warning)");
  std::string Plain = F.getName().str();
  GlobalValue::LinkageTypes Linkage = F.getLinkage();
  GlobalValue::VisibilityTypes Visibility = F.getVisibility();
  GlobalValue::UnnamedAddr UnnamedAddr = F.getUnnamedAddr();
  bool DSOLocal = F.isDSOLocal();
  Comdat *C = F.getComdat();

  // A declaration of the body (a module of a full-LTO link calls it) is
  // this one.
  Function *Declared = M.getFunction(decoratedName(Plain));
  if (Declared)
    Declared->setName("");
  F.setName(decoratedName(Plain));
  if (Declared) {
    Declared->replaceAllUsesWith(&F);
    Declared->eraseFromParent();
  }
  F.setCallingConv(CallingConv::PreserveNone);
  F.addFnAttr(ConvertedAttr);
  // The body is merged on its own: the linker may keep another unit's copy
  // of the C entry's comdat, built without the list, and this body with it.
  if (C)
    F.setComdat(M.getOrInsertComdat(F.getName()));

  Function *Entry = getOrCreateThunk(F);
  Entry->setComdat(nullptr);
  Entry->setName(Plain);
  Entry->setLinkage(Linkage);
  Entry->setVisibility(Visibility);
  Entry->setDSOLocal(DSOLocal);
  Entry->setUnnamedAddr(UnnamedAddr);
  Entry->setComdat(C);
  Entry->setDLLStorageClass(F.getDLLStorageClass());
  if (F.hasSection())
    Entry->setSection(F.getSection());
  Entry->setAlignment(F.getAlign());

  F.replaceUsesWithIf(Entry, [&](Use &U) {
    return !isDirectCall(U) && !isa<BlockAddress>(U.getUser());
  });
  for (Use &U : F.uses())
    if (isDirectCall(U))
      cast<CallBase>(U.getUser())->setCallingConv(CallingConv::PreserveNone);
  // A listed alias is called by its decorated name too.
  SmallVector<GlobalAlias *, 2> Aliases;
  for (User *U : Entry->users())
    if (auto *GA = dyn_cast<GlobalAlias>(U))
      Aliases.push_back(GA);
  for (GlobalAlias *GA : Aliases) {
    if (!listsAlias(*GA) || M.getNamedValue(decoratedName(GA->getName())))
      continue;
    GlobalAlias *Body = GlobalAlias::create(
        GA->getValueType(), GA->getAddressSpace(), GA->getLinkage(),
        decoratedName(GA->getName()), &F, &M);
    Body->setVisibility(GA->getVisibility());
    Body->setDSOLocal(GA->isDSOLocal());
  }
}

bool ListApplier::convert(Function &F, const Hit &H, bool &AddressTaken) {
  bool Changed = false;
  bool Converted = F.getCallingConv() != CallingConv::PreserveNone ||
                   F.hasFnAttribute(ConvertedAttr);
  if (F.getCallingConv() != CallingConv::PreserveNone) {
    F.setCallingConv(CallingConv::PreserveNone);
    F.addFnAttr(ConvertedAttr);
    Changed = true;
  }
  if (!H.SrcFile.empty() && !F.hasFnAttribute(SrcAttr))
    F.addFnAttr(SrcAttr, H.SrcFile);

  AddressTaken = false;
  for (Use &U : F.uses()) {
    if (isDirectCall(U)) {
      auto *CB = cast<CallBase>(U.getUser());
      if (CB->getCallingConv() != CallingConv::PreserveNone) {
        CB->setCallingConv(CallingConv::PreserveNone);
        Changed = true;
      }
    } else if (Converted && !isa<BlockAddress>(U.getUser()) &&
               !isUsedListUse(U)) {
      AddressTaken = true;
    }
  }
  return Changed;
}

bool ListApplier::redirectAddressUses(Function &F, const Hit &H) {
  if (F.hasExternalWeakLinkage()) {
    // `if (&f) f();` must still see a null address when f is missing; a
    // thunk never is null.
    diagnoseEntry(H, DS_Error,
                  "the address of weak function '" + F.getName() +
                      "' listed here is taken: its C-entry thunk could not be "
                      "null when the "
                      "function is missing; do not list it, or define it");
    return false;
  }
  Function *Thunk = getOrCreateThunk(F);
  // An alias must not point into the thunk's comdat, which the linker may
  // discard for another unit's copy. A listed alias is called as
  // preserve_none wherever it is declared: it stays the body, its calls
  // here become preserve_none, and its address is the thunk's. Any other
  // alias gets a C entry of its own, outside any comdat.
  SmallVector<GlobalAlias *, 2> Aliases;
  for (User *U : F.users())
    if (auto *GA = dyn_cast<GlobalAlias>(U))
      Aliases.push_back(GA);
  for (GlobalAlias *GA : Aliases) {
    if (!listsAlias(*GA)) {
      GA->setAliasee(getOrCreateAliasEntry(F));
      continue;
    }
    for (Use &U : make_early_inc_range(GA->uses())) {
      if (isDirectCall(U))
        cast<CallBase>(U.getUser())->setCallingConv(CallingConv::PreserveNone);
      else if (!isa<GlobalAlias>(U.getUser()) && !isUsedListUse(U))
        U.set(Thunk);
    }
  }
  F.replaceUsesWithIf(Thunk, [&](Use &U) {
    if (isDirectCall(U) || isa<BlockAddress>(U.getUser()) ||
        isa<GlobalAlias>(U.getUser()) || isUsedListUse(U))
      return false;
    // The thunk's own call of F is a direct call; nothing else in it.
    return true;
  });
  return true;
}

} // namespace

PreservedAnalyses PreserveNoneListPass::run(Module &M,
                                            ModuleAnalysisManager &) {
  LLVMContext &Ctx = M.getContext();
  std::vector<std::unique_ptr<ListFile>> Lists;
  std::map<std::pair<std::string, std::string>, ListFile *> ByContent;
  auto Add = [&](std::string Path, std::string Text, StringRef Used) {
    auto Key = std::make_pair(Path, Text);
    auto It = ByContent.find(Key);
    if (It != ByContent.end()) { // The same list twice: once is enough.
      if (It->second)
        markUsedLines(*It->second, Used);
      return true;
    }
    auto L = std::make_unique<ListFile>();
    L->Path = std::move(Path);
    L->Text = std::move(Text);
    if (!parseList(Ctx, *L)) {
      ByContent[Key] = nullptr;
      return false;
    }
    markUsedLines(*L, Used);
    ByContent[Key] = L.get();
    Lists.push_back(std::move(L));
    return true;
  };

  bool OK = true;
  if (P == Phase::PerTU) {
    for (const std::string &Path : ListFiles) {
      std::optional<std::string> Text = readListFile(Ctx, Path);
      if (!Text) {
        OK = false;
        continue;
      }
      OK &= Add(Path, std::move(*Text), "");
    }
  } else if (NamedMDNode *NMD = M.getNamedMetadata(PreserveNoneListsMD)) {
    for (MDNode *N : NMD->operands())
      if (std::optional<RecordedList> R = readRecord(N))
        OK &= Add(R->Path.str(), R->Text.str(), R->Used);
  }
  if (!OK || Lists.empty())
    return PreservedAnalyses::all();

  bool Changed = ListApplier(M, P, Lists).run();

  if (P == Phase::PerTU) {
    // Record the lists for a full-LTO link.
    recordLists(M, Lists);
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
