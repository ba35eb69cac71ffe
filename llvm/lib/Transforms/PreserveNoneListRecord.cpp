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
#include "llvm/TargetParser/Triple.h"

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

/// \p Bytes as the operand of an assembler's .ascii directive.
static std::string asciiOperand(StringRef Bytes) {
  std::string S = "\"";
  for (unsigned char C : Bytes) {
    if (C == '"' || C == '\\') {
      S += '\\';
      S += C;
    } else if (C >= 0x20 && C < 0x7F) {
      S += C;
    } else {
      char Oct[5] = {'\\', char('0' + (C >> 6)), char('0' + ((C >> 3) & 7)),
                     char('0' + (C & 7)), 0};
      S += Oct;
    }
  }
  return S + "\"";
}

/// Records in the object, in ListLinesSection, which lines of each list
/// matched, for the front door's check at the link. Module-level assembly,
/// because a global variable would be loaded with the program (SHF_ALLOC);
/// ELF only, and only for a module that names its target (an IR test of the
/// pass does not).
static void recordListLinesSection(Module &M, StringRef Path, StringRef Text,
                                   StringRef Used) {
  Triple T(M.getTargetTriple());
  if (T.getArch() == Triple::UnknownArch || !T.isOSBinFormatELF())
    return;
  M.appendModuleInlineAsm((Twine("\t.pushsection ") + ListLinesSection +
                           ",\"\"\n\t.ascii " +
                           asciiOperand(listLinesRecord(Path, Text, Used)) +
                           "\n\t.popsection")
                              .str());
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
    recordListLinesSection(M, L->Path, L->Text, Used);
  }
}
