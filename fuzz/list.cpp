//===- fuzz/list.cpp - Fuzz target: list files and their matching ---------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The bytes of a -fpreserve-none-list= file, read as the front door and the
// list pass read them: listTextOf (line ends, byte order mark), every
// problem of the text (checkPreserveNoneListProblems, as the front door
// prints them), and for a good list the list pass's parse (list::parseList:
// sections, exact names, SpecialCaseLists), its matching of names taken
// from the list (funLine, srcLine) and the unused-entry warnings. Besides
// what the sanitizers catch, it stops on a broken promise:
//  - a text is good for checkPreserveNoneListText exactly when
//    checkPreserveNoneListProblems finds nothing, and parseList takes it
//    without a diagnostic;
//  - problems are at most MaxListProblems, in line order, each at a line of
//    the text (or 0, the file as a whole, alone) and a column >= 1;
//  - a match is blamed on the line of an entry of its kind in its section;
//    an exact `fun:` entry matches its own name;
//  - every entry of a list that matched nothing is unused, and gets a
//    warning up to MaxUnusedWarnings, then one more that counts the rest;
//  - a quoted text has no control character left.
//
//===----------------------------------------------------------------------===//

#include "PreserveNoneListMatch.h"

#include "check.h"

#include "cacs-compiler/PreserveNoneListFile.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/LLVMContext.h"

#include <algorithm>
#include <cstdint>

using namespace llvm;
using namespace cacs;

static void checkQuoted(StringRef Text) {
  for (size_t Max : {3, 80, 200}) {
    std::string Q = quoteListText(Text, Max);
    for (unsigned char C : Q)
      FUZZ_CHECK(C >= 0x20 && C != 0x7F);
  }
}

/// The glob's characters taken out of a pattern: a name it may match.
static std::string plainName(StringRef Pattern) {
  std::string N;
  for (char C : Pattern)
    if (!StringRef("*?[]{}\\").contains(C))
      N += C;
  return N;
}

static void checkMatching(const list::ListFile &L) {
  for (const list::Group &G : L.Groups) {
    auto IsEntryOf = [&](unsigned Line, StringRef Prefix) {
      for (const list::Entry &E : G.Entries)
        if (E.Line == Line && E.Prefix == Prefix)
          return true;
      return false;
    };
    for (const list::Entry &E : G.Entries) {
      if (E.Exact)
        FUZZ_CHECK(G.funLine(E.Pattern) == E.Line);
      for (const std::string &Name : {E.Pattern.str(), plainName(E.Pattern)}) {
        unsigned F = G.funLine(Name);
        FUZZ_CHECK(!F || IsEntryOf(F, "fun"));
        unsigned S = G.srcLine(Name);
        FUZZ_CHECK(!S || IsEntryOf(S, "src"));
      }
    }
  }
}

static void checkUnused(StringRef Path, StringRef Text, size_t NumEntries) {
  std::vector<ListEntry> Unused = unusedListEntries(Path, Text, {});
  FUZZ_CHECK(Unused.size() == NumEntries);
  std::vector<ListProblem> W =
      unusedEntryWarnings(Path, Text, Unused, "in the program");
  FUZZ_CHECK(W.size() ==
             std::min<size_t>(Unused.size(), MaxUnusedWarnings + 1));
  for (const ListProblem &P : W)
    FUZZ_CHECK(P.Line >= 1 && P.Column >= 1);
  std::vector<unsigned> All;
  for (const ListEntry &E : Unused)
    All.push_back(E.Line);
  FUZZ_CHECK(unusedListEntries(Path, Text, All).empty());
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef Path = "fuzz.list";
  std::string Text =
      listTextOf(StringRef(reinterpret_cast<const char *>(Data), Size));
  checkQuoted(Text);

  std::vector<ListProblem> Problems = checkPreserveNoneListProblems(Path, Text);
  std::vector<ListSection> Sections;
  bool Good = checkPreserveNoneListText(Path, Text, &Sections).empty();
  FUZZ_CHECK(Good == Problems.empty());
  FUZZ_CHECK(Problems.size() <= MaxListProblems);
  unsigned NumLines = 1 + StringRef(Text).count('\n');
  for (size_t I = 0; I < Problems.size(); ++I) {
    const ListProblem &P = Problems[I];
    FUZZ_CHECK(!P.Message.empty());
    FUZZ_CHECK(P.Line <= NumLines);
    FUZZ_CHECK(P.Line ? P.Column >= 1 : Problems.size() == 1);
    FUZZ_CHECK(I == 0 || Problems[I - 1].Line <= P.Line);
    checkQuoted(P.Message);
    formatListProblem(P, "error");
  }
  if (!Good)
    return 0;

  LLVMContext Ctx;
  unsigned Diagnostics = 0;
  Ctx.setDiagnosticHandlerCallBack(
      [](const DiagnosticInfo *, void *N) { ++*static_cast<unsigned *>(N); },
      &Diagnostics);
  list::ListFile L;
  L.Path = Path.str();
  L.Text = Text;
  FUZZ_CHECK(list::parseList(Ctx, L));
  FUZZ_CHECK(Diagnostics == 0);
  FUZZ_CHECK(L.Groups.size() == Sections.size());
  size_t NumEntries = 0;
  for (const ListSection &S : Sections)
    NumEntries += S.Entries.size();
  checkMatching(L);
  checkUnused(Path, Text, NumEntries);
  return 0;
}
