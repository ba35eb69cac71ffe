//===- fuzz/list-lines.cpp - Fuzz target: the records of matched lines ----===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The contents of a linked program's .cacs.preserve_none_list_lines
// section (ListLinesSection), which the front door reads after a link to
// warn about the entries of a list no object matched: bytes of any object
// the link took, as readListLinesRecords, unusedListEntries and
// unusedEntryWarnings read them. The input is `<list text>\n====\n<section
// bytes>`, or the section bytes alone (then the list is fixed). Besides
// what the sanitizers catch, it stops on a broken promise: a record a
// compile writes (listLinesRecord), put first and then NUL padding, as a
// linker may, is read back whatever follows it, with its lines; an entry
// named used is not unused.
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/PreserveNoneListFile.h"

#include "check.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cstdint>
#include <string>

using namespace llvm;
using namespace cacs;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef In(reinterpret_cast<const char *>(Data), Size);
  StringRef Path = "fuzz.list";
  std::string Text = "fun:a\nfun:b*\n[preserve_none]\nsrc:c.c\n";
  StringRef Section = In;
  if (size_t Sep = In.find("\n====\n"); Sep != StringRef::npos) {
    Text = listTextOf(In.take_front(Sep));
    Section = In.drop_front(Sep + 6);
  }
  // A copy of its own, so that a read past its end is caught.
  std::string Bytes = Section.str();
  std::vector<unsigned> Used;
  bool Found = readListLinesRecords(Bytes, Text, Used);
  FUZZ_CHECK(Found || Used.empty());

  // The lines of a record as a compile writes them: some of what was read.
  std::string Lines;
  std::vector<unsigned> Written;
  for (unsigned L : ArrayRef(Used).take_front(8)) {
    Lines += (Lines.empty() ? "" : ",") + std::to_string(L);
    Written.push_back(L);
  }
  std::string Linked =
      listLinesRecord(Path, Text, Lines) + std::string(3, '\0') + Bytes;
  std::vector<unsigned> Again;
  FUZZ_CHECK(readListLinesRecords(Linked, Text, Again));
  for (unsigned L : Written)
    FUZZ_CHECK(is_contained(Again, L));

  std::vector<ListEntry> Unused = unusedListEntries(Path, Text, Used);
  for (const ListEntry &E : Unused)
    FUZZ_CHECK(!is_contained(Used, E.Line));
  std::vector<ListProblem> W =
      unusedEntryWarnings(Path, Text, Unused, "in the program");
  FUZZ_CHECK(W.size() ==
             std::min<size_t>(Unused.size(), MaxUnusedWarnings + 1));
  for (const ListProblem &P : W)
    formatListProblem(P, "warning");
  return 0;
}
