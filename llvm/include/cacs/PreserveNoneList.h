//===- cacs/PreserveNoneList.h - -fpreserve-none-list= pass -----*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// Gives preserve_nonecc to the functions a list file names (SpecialCaseList
// format: `fun:` and `src:` entries), and to every direct call of them, so a
// code base gets the convention without touching its source.
//
// The list format and the diagnostics are described at the top of
// PreserveNoneList.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_PRESERVENONELIST_H
#define CACS_PRESERVENONELIST_H

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SpecialCaseList.h"

#include <string>
#include <vector>

namespace cacs {

/// The named metadata in which the per-TU run records the lists it applied,
/// one operand per list: !{!"<path>", !"<text>"}. The full-LTO link re-reads
/// them from the merged module.
inline constexpr const char *PreserveNoneListsMD = "cacs.preserve_none_lists";

/// The suffix of the C-convention entry thunk that stands in for a listed
/// function wherever its address is taken: `<name>.cacs_c_entry`.
inline constexpr const char *CEntrySuffix = ".cacs_c_entry";

/// Warn about listed functions that are exported (default: on). The front
/// door's -fno-preserve-none-list-export-warning turns it off, through the
/// clang plugin; `-mllvm -cacs-preserve-none-list-export-warning=false` too.
bool preserveNoneListExportWarning();
void setPreserveNoneListExportWarning(bool Enabled);

//===----------------------------------------------------------------------===//
// Reading a list file. Inline, because the front door (which links no cacs
// library) checks list files before any job runs, with the pass's messages.
//===----------------------------------------------------------------------===//

/// A byte as a diagnostic shows it: \xNN.
inline std::string escapeByte(unsigned char C) {
  return {'\\', 'x', llvm::hexdigit(C >> 4), llvm::hexdigit(C & 15)};
}

/// Text of a list file as a diagnostic quotes it: at most Max characters (the
/// middle of a longer text is cut out and shown as "..."), with control
/// characters, and every non-ASCII byte if the text is not valid UTF-8,
/// written as \xNN.
inline std::string quoteListText(llvm::StringRef S, size_t Max = 80) {
  std::string Cut;
  if (S.size() > Max) {
    // Cut between UTF-8 characters, never inside one.
    auto IsCont = [&](size_t I) { return (S[I] & 0xC0) == 0x80; };
    size_t HeadEnd = Max * 2 / 3, TailBegin = S.size() - (Max - HeadEnd - 3);
    while (HeadEnd > 0 && IsCont(HeadEnd))
      --HeadEnd;
    while (TailBegin < S.size() && IsCont(TailBegin))
      ++TailBegin;
    Cut = (S.take_front(HeadEnd) + "..." + S.drop_front(TailBegin)).str();
    S = Cut;
  }
  const auto *Begin = reinterpret_cast<const llvm::UTF8 *>(S.begin());
  bool UTF8 = llvm::isLegalUTF8String(
      &Begin, reinterpret_cast<const llvm::UTF8 *>(S.end()));
  std::string Out;
  for (unsigned char C : S) {
    if (C < 0x20 || C == 0x7F || (C >= 0x80 && !UTF8))
      Out += escapeByte(C);
    else
      Out += C;
  }
  return Out;
}

/// Checks the text of a list file as a whole: it has entries, is text, and
/// SpecialCaseList accepts it. Returns the error, naming Path (and the line),
/// or "" if the text is good.
inline std::string checkPreserveNoneListText(llvm::StringRef Path,
                                             llvm::StringRef Text) {
  std::string P = ("'" + Path + "'").str();
  if (Text.find_first_not_of(" \t\r\n") == llvm::StringRef::npos)
    return "preserve-none list file " + P + " is empty";
  // SpecialCaseList stops reading at a NUL byte, silently; a carriage return
  // inside a line (old Mac line ends) would make one entry of several.
  unsigned LineNo = 0;
  bool HasEntry = false;
  for (llvm::StringRef Rest = Text; !Rest.empty();) {
    auto [Line, Tail] = Rest.split('\n');
    Rest = Tail;
    ++LineNo;
    if (Line.ends_with("\r"))
      Line = Line.drop_back();
    for (unsigned char C : Line)
      if ((C < 0x20 && C != '\t') || C == 0x7F)
        return ("preserve-none list file " + P + " line " +
                llvm::Twine(LineNo) + ": control character " + escapeByte(C) +
                (C == '\r' ? "; lines end with LF or CR LF, not CR alone"
                           : "; not a text file"))
            .str();
    Line = Line.trim();
    HasEntry |=
        !Line.empty() && !Line.starts_with("#") && !Line.starts_with("[");
  }
  std::string Error;
  std::unique_ptr<llvm::MemoryBuffer> MB = llvm::MemoryBuffer::getMemBuffer(
      Text, Path, /*RequiresNullTerminator=*/false);
  if (!llvm::SpecialCaseList::create(MB.get(), Error))
    return "malformed preserve-none list file " + P + ": " +
           quoteListText(Error, /*Max=*/200);
  if (!HasEntry)
    return "preserve-none list file " + P + " has no entries";
  return "";
}

/// Reads a list file named on the command line and checks its text. Returns
/// the error, naming Path, or "" with the file's text in Text.
inline std::string readPreserveNoneList(llvm::StringRef Path,
                                        std::string &Text) {
  std::string P = ("'" + Path + "'").str();
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Path, Status))
    return "preserve-none list file " + P + " not found";
  if (llvm::sys::fs::is_directory(Status))
    return "preserve-none list file " + P + " is a directory";
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buf =
      llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return "cannot read preserve-none list file " + P + ": " +
           Buf.getError().message();
  Text = (*Buf)->getBuffer().str();
  return checkPreserveNoneListText(Path, Text);
}

class PreserveNoneListPass : public llvm::PassInfoMixin<PreserveNoneListPass> {
public:
  enum class Phase {
    /// Per translation unit: read the list files; record them in the module
    /// for a later full-LTO link.
    PerTU,
    /// Full-LTO link: use the lists recorded in the merged module.
    LTOLink,
  };

  PreserveNoneListPass(Phase P, std::vector<std::string> ListFiles)
      : P(P), ListFiles(std::move(ListFiles)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  Phase P;
  std::vector<std::string> ListFiles;
};

} // namespace cacs

#endif // CACS_PRESERVENONELIST_H
