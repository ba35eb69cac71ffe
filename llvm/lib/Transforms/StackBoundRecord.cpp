//===- StackBoundRecord.cpp - Record entries and IR-seen breakers ---------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The compile's half of -fcacs-stack-bounds (StackBound.h). It runs last in
// the per-TU pipeline, so the functions it names are the ones code
// generation emits (inlining is done). It records facts, and no size of its
// own: the frame sizes come from the backend (-fstack-size-section) and the
// calls from the linked machine code, both read at the link, where calls
// the IR does not show (libcalls, __stack_chk_fail, sanitizer callbacks)
// exist. The one size it passes on is a declaration's stack budget
// (StackBudgetAnnotation), which libcacs's headers state for code the link
// cannot measure: its switches, whose frames are assembly.
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/StackBound.h"
#include "cacs-compiler/Annotations.h"
#include "cacs-compiler/StackFrame.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Mangler.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

#include <optional>
#include <string>
#include <vector>

using namespace llvm;
using namespace cacs;

/// Why \p F has no bound that the IR alone shows, if it has one.
static std::optional<StackBoundBreak> irBreak(const Function &F) {
  if (mayHaveDynamicStack(F))
    return StackBoundBreak::DynamicStack;
  for (const Instruction &I : instructions(F))
    if (const auto *CB = dyn_cast<CallBase>(&I))
      if (const auto *IA = dyn_cast<InlineAsm>(CB->getCalledOperand()))
        // An empty asm (a compiler barrier) emits nothing.
        if (!StringRef(IA->getAsmString()).trim().empty())
          return StackBoundBreak::InlineAsm;
  return std::nullopt;
}

/// The symbol of \p F, quoted for the assembler.
static std::string symbolOf(const Function &F) {
  std::string Name;
  raw_string_ostream OS(Name);
  Mangler().getNameWithPrefix(OS, &F, /*CannotUsePrivateLabel=*/false);
  OS.flush();
  std::string Q = "\"";
  for (char C : Name) {
    if (C == '"' || C == '\\')
      Q += '\\';
    Q += C;
  }
  return Q + "\"";
}

PreservedAnalyses StackBoundRecordPass::run(Module &M,
                                            ModuleAnalysisManager &) {
  Triple T(M.getTargetTriple());
  if (!T.isOSBinFormatELF() ||
      (T.getArch() != Triple::x86_64 && T.getArch() != Triple::aarch64))
    return PreservedAnalyses::all();
  std::string Entries, Breaks;
  for (const Function &F : M) {
    // Definitions only: the link resolves a declaration's address to a
    // shared library's function or its PLT entry, which has no bound anyway.
    // An entry whose address only another translation unit takes is left
    // out, and keeps a guarded stack.
    if (F.isDeclaration())
      continue;
    // A function whose address escapes: every caller of cacs_create passes
    // one. Direct calls and llvm.used do not count.
    if (F.hasAddressTaken(nullptr, /*IgnoreCallbackUses=*/false,
                          /*IgnoreAssumeLikeCalls=*/true,
                          /*IgnoreLLVMUsed=*/true))
      Entries += "\t.quad " + symbolOf(F) + "\n";
    if (std::optional<StackBoundBreak> B = irBreak(F))
      Breaks += "\t.quad " + symbolOf(F) + "\n\t.byte " +
                std::to_string(static_cast<unsigned>(*B)) + "\n";
  }
  if (!Entries.empty())
    M.appendModuleInlineAsm((Twine("\t.pushsection ") +
                             StackBoundEntriesSection + ",\"\"\n" + Entries +
                             "\t.popsection")
                                .str());
  if (!Breaks.empty())
    M.appendModuleInlineAsm((Twine("\t.pushsection ") +
                             StackBoundBreaksSection + ",\"\"\n" + Breaks +
                             "\t.popsection")
                                .str());
  // The declarations that give their bound (libcacs's switches and
  // cacs_on_system_stack): only those the unit refers to, since a record
  // is a reference the linker must resolve.
  std::string Budgets;
  std::vector<const Function *> Budgeted;
  for (const auto &[F, S] : functionAnnotations(M)) {
    StringRef Bytes = S;
    uint64_t N;
    if (!Bytes.consume_front(StackBudgetAnnotation) ||
        Bytes.getAsInteger(10, N) || is_contained(Budgeted, F) ||
        none_of(F->users(), [](const User *U) { return isa<Instruction>(U); }))
      continue;
    Budgeted.push_back(F);
    Budgets += "\t.quad " + symbolOf(*F) + "\n\t.quad " + std::to_string(N) +
               "\n";
  }
  if (!Budgets.empty())
    M.appendModuleInlineAsm((Twine("\t.pushsection ") +
                             StackBoundBudgetsSection + ",\"\"\n" + Budgets +
                             "\t.popsection")
                                .str());
  return PreservedAnalyses::all();
}
