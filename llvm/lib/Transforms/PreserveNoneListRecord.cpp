//===- PreserveNoneListRecord.cpp - Lists recorded for LTO ----------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// See PreserveNoneListRecord.h.
//
//===----------------------------------------------------------------------===//

#include "PreserveNoneListRecord.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace cacs;
using namespace cacs::list;

/// The entries a list matched in the modules that recorded it, as the third
/// operand of its metadata node: "2,5,9". The full-LTO link counts them as
/// used, since the functions they matched may be inlined away by then.
static std::string usedLines(const ListFile &L) {
  std::string S;
  for (const Group &G : L.Groups)
    for (const Entry &E : G.Entries)
      if (E.Used)
        S += (S.empty() ? "" : ",") + std::to_string(E.Line);
  return S;
}

void list::markUsedLines(ListFile &L, StringRef Lines) {
  SmallVector<StringRef, 16> Parts;
  Lines.split(Parts, ',', -1, /*KeepEmpty=*/false);
  for (StringRef P : Parts) {
    unsigned N;
    if (!P.getAsInteger(10, N))
      for (Group &G : L.Groups)
        G.markUsed(N);
  }
}

std::optional<RecordedList> list::readRecord(const MDNode *N) {
  if (N->getNumOperands() < 2)
    return std::nullopt;
  auto *Path = dyn_cast<MDString>(N->getOperand(0));
  auto *Text = dyn_cast<MDString>(N->getOperand(1));
  if (!Path || !Text)
    return std::nullopt;
  RecordedList R{Path->getString(), Text->getString(), ""};
  if (N->getNumOperands() > 2)
    if (auto *Used = dyn_cast<MDString>(N->getOperand(2)))
      R.Used = Used->getString();
  return R;
}

void list::recordLists(Module &M, ArrayRef<std::unique_ptr<ListFile>> Lists) {
  LLVMContext &Ctx = M.getContext();
  NamedMDNode *NMD = M.getOrInsertNamedMetadata(PreserveNoneListsMD);
  for (const auto &L : Lists) {
    std::string Used = usedLines(*L);
    std::optional<unsigned> Existing;
    for (unsigned I = 0; I < NMD->getNumOperands(); ++I)
      if (std::optional<RecordedList> R = readRecord(NMD->getOperand(I)))
        if (R->Path == L->Path && R->Text == L->Text) {
          Existing = I;
          if (!R->Used.empty())
            Used += (Used.empty() ? "" : ",") + R->Used.str();
          break;
        }
    MDNode *N = MDNode::get(Ctx, {MDString::get(Ctx, L->Path),
                                  MDString::get(Ctx, L->Text),
                                  MDString::get(Ctx, Used)});
    if (Existing)
      NMD->setOperand(*Existing, N);
    else
      NMD->addOperand(N);
  }
}
