//===- PreserveNoneListMatch.h - Parsed lists and matching ------*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The list files of -fpreserve-none-list=, parsed: sections, entries, the
// SpecialCaseLists that match them, and the diagnostics of the list pass.
// Private to the list pass (PreserveNoneList.cpp, PreserveNoneListRecord.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_TRANSFORMS_PRESERVENONELISTMATCH_H
#define CACS_LIB_TRANSFORMS_PRESERVENONELISTMATCH_H

#include "cacs-compiler/PreserveNoneListFile.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "cacs-compiler/Diagnostics.h"
#include "llvm/Support/SpecialCaseList.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cacs {
namespace list {

using namespace llvm;

/// SpecialCaseList::inSectionBlame returns the line in LLVM 19 and a
/// (file, line) pair in LLVM 22.
inline unsigned lineOf(unsigned L) { return L; }
inline unsigned lineOf(std::pair<unsigned, unsigned> P) { return P.second; }

inline constexpr StringRef SectionName = PreserveNoneSectionName;

//===----------------------------------------------------------------------===//
// Lists
//===----------------------------------------------------------------------===//

struct Entry : ListEntry {
  bool Used = false;
  bool Exact = false; // A fun: entry that names one function (no pattern).
};

struct ListFile;

/// The entries of one section of one list file, with a SpecialCaseList of
/// their own: it is built from the file's text with every line outside the
/// section blanked, so line numbers are the file's.
struct Group {
  const ListFile *File = nullptr;
  std::optional<unsigned> Header; // The line (0-based) of the section header.
  std::vector<Entry> Entries;     // In line order, each text once.
  StringMap<unsigned> ExactFun;   // Name -> line of the exact fun: entries.
  std::unique_ptr<SpecialCaseList> SCL; // Of the other entries.
  bool HasFun = false, HasSrc = false;

  unsigned funLine(StringRef Name) const {
    auto It = ExactFun.find(Name);
    if (It != ExactFun.end())
      return It->second;
    return lineOf(SCL->inSectionBlame(SectionName, "fun", Name));
  }
  unsigned srcLine(StringRef File) const {
    return lineOf(SCL->inSectionBlame(SectionName, "src", File));
  }
  void markUsed(unsigned Line) {
    auto It =
        partition_point(Entries, [&](const Entry &E) { return E.Line < Line; });
    if (It != Entries.end() && It->Line == Line)
      It->Used = true;
  }
};

struct ListFile {
  std::string Path;
  std::string Text;
  std::vector<StringRef> Lines; // Into Text, untrimmed.
  std::vector<Group> Groups;    // Only the sections that apply.

  /// The file's text with only the comment lines (which keep a "#!..."
  /// version line) and the given lines kept; every other line blank.
  std::string textWith(ArrayRef<unsigned> Keep) const {
    std::vector<bool> K(Lines.size(), false);
    for (unsigned I : Keep)
      K[I] = true;
    std::string S;
    for (size_t I = 0; I < Lines.size(); ++I) {
      StringRef T = Lines[I].trim();
      if (K[I] || T.starts_with("#"))
        S += T;
      S += '\n';
    }
    return S;
  }

  /// A list of the given lines alone (after the file's "#!..." version line,
  /// if any), for questions that need no line numbers.
  std::string textOf(std::optional<unsigned> Header, StringRef Line) const {
    std::string S;
    if (!Lines.empty() && Lines[0].starts_with("#!"))
      S += Lines[0].trim().str() + "\n";
    if (Header)
      S += Lines[*Header].trim().str() + "\n";
    return S + Line.str() + "\n";
  }
};

/// A SpecialCaseList of the given text.
std::unique_ptr<SpecialCaseList> makeSCL(StringRef Text, StringRef Name,
                                         std::string &Error);

/// Reports a problem of a list file whose text (as read) is \p Text, in
/// the form formatListProblem gives it: `<path>:<line>:<col>: error: ...`
/// (clang prints it so; elsewhere the location leads the message).
void emitListProblem(LLVMContext &Ctx, DiagnosticSeverity S,
                     const ListProblem &P, StringRef Text);

/// Checks and parses a list (read from a file, or recorded in the module).
/// Reports an error and returns false if it is malformed.
bool parseList(LLVMContext &Ctx, ListFile &L);

/// Reads a list file named on the command line; parseList checks it.
std::optional<std::string> readListFile(LLVMContext &Ctx, StringRef Path);

} // namespace list
} // namespace cacs

#endif // CACS_LIB_TRANSFORMS_PRESERVENONELISTMATCH_H
