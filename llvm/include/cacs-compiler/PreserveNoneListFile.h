//===- PreserveNoneListFile.h - The list file format ------------*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// Reading and checking a list file of -fpreserve-none-list=: shared by the
// pass, the clang plugin and the front door (which links no cacs library but
// CACSSupport, only LLVM), which checks list files before any job runs, with
// the pass's messages. PreserveNoneListFile.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_PRESERVENONELISTFILE_H
#define CACS_PRESERVENONELISTFILE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace cacs {

/// A byte as a diagnostic shows it: \xNN.
std::string escapeByte(unsigned char C);

/// Text of a list file as a diagnostic quotes it: at most Max characters
/// (Max is at least 3; the middle of a longer text is cut out and shown as
/// "..."), with control characters, and every non-ASCII byte if the text is
/// not valid UTF-8, written as \xNN, and invisible characters (U+FEFF, the
/// byte order mark, U+200B, ...) as \uNNNN.
std::string quoteListText(llvm::StringRef S, size_t Max = 80);

/// A problem of a list file, and where in it: the 1-based line and column of
/// the text it is about, or line 0 for the file as a whole (then Message
/// names the file).
struct ListProblem {
  std::string Path;
  unsigned Line = 0;
  unsigned Column = 0;
  std::string Message;

  bool empty() const { return Message.empty(); }
};

/// The one format of a list problem where no compiler formats it (the front
/// door prints it; the pass under opt or a linker leads its message with the
/// location): `<path>:<line>:<col>: <severity>: <message>`, as clang prints
/// its diagnostics and editors jump to them, or `<severity>: <message>` for
/// the file as a whole.
std::string formatListProblem(const ListProblem &P, llvm::StringRef Severity);

/// `<path>:<line>:<col>`, the location of a located problem.
std::string listLocation(const ListProblem &P);

/// The 1-based column of a list file's line \p Line where \p Part begins
/// (searched from \p From, 0-based), or where the line's text begins when
/// \p Part is empty or not in it.
unsigned listColumn(llvm::StringRef Line, llvm::StringRef Part = "",
                    size_t From = 0);

/// Line \p N (1-based) of \p Text, without its line end; "" past the end.
llvm::StringRef listLine(llvm::StringRef Text, unsigned N);

/// Whether SpecialCaseList reads the patterns of a list (its text as read)
/// as regexes: after a first line "#!special-case-list-v1"; else as globs.
bool isRegexList(llvm::StringRef Text);

/// Whether a pattern matches only the name it spells, read as a glob or as a
/// (version 1) regex: such `fun:` entries are looked up in a hash map, and
/// one that names a function of a system header is an error.
bool isExactListName(llvm::StringRef Pattern, bool Regex);

/// The name a list's section headers are matched against: `[preserve_none]`
/// and `[*]` apply, `[address]` does not.
inline constexpr const char *PreserveNoneSectionName = "preserve_none";

/// An entry of a list file.
struct ListEntry {
  llvm::StringRef Prefix;  // "fun" or "src".
  llvm::StringRef Pattern; // What follows "<prefix>:".
  llvm::StringRef Text;    // The whole trimmed line, for diagnostics.
  unsigned Line;           // 1-based.
};

/// A section of a list file that applies (the entries before the first
/// section header are one too).
struct ListSection {
  std::optional<unsigned> Header; // The line (0-based) of the section header.
  std::vector<ListEntry> Entries; // In line order, each text once.
};

/// Checks the text of a list file: it has entries, is text, SpecialCaseList
/// accepts it, and the sections that apply have only `fun:` and `src:`
/// entries, without categories. Returns the error, at its line and column
/// of Path, or an empty problem if the text is good; then, if Sections is
/// given, fills it with the sections that apply (pointing into Text).
ListProblem
checkPreserveNoneListText(llvm::StringRef Path, llvm::StringRef Text,
                          std::vector<ListSection> *Sections = nullptr);

/// Every problem of the text of a list file, in line order: as
/// checkPreserveNoneListText finds them one after another, each line it
/// blames read as blank for the next check (SpecialCaseList stops at the
/// first error). At most MaxListProblems; a problem of the file as a whole
/// (empty, no entries) comes alone.
std::vector<ListProblem> checkPreserveNoneListProblems(llvm::StringRef Path,
                                                       llvm::StringRef Text);

/// The most problems checkPreserveNoneListProblems reports of one list.
inline constexpr unsigned MaxListProblems = 50;

//===----------------------------------------------------------------------===//
// Which entries of a list matched: recorded by each compile in its object,
// read at the link by the front door, which warns about the entries no
// object of the link matched.
//===----------------------------------------------------------------------===//

/// The ELF section (not loaded: no SHF_ALLOC) in which a compile records,
/// for each list it applied, which lines of the list matched a function; the
/// linker concatenates the sections of the objects it links, so the output
/// holds the records of the whole link.
inline constexpr const char *ListLinesSection = ".cacs.preserve_none_list_lines";

/// The record of a list for ListLinesSection: its path as given, a digest
/// of its text (a list edited between the compile and the link is another
/// list), and the lines ("2,5,9") of its entries that matched.
std::string listLinesRecord(llvm::StringRef Path, llvm::StringRef Text,
                            llvm::StringRef UsedLines);

/// Reads the records of the list whose text is \p Text in the contents of a
/// ListLinesSection, adding the lines they name to \p Used. A record is of
/// the list if its digest is the text's, whatever path the compile named it
/// by (a build may spell it otherwise in each folder). Returns whether any
/// record is of the list (none: no object of the link applied it).
bool readListLinesRecords(llvm::StringRef Section, llvm::StringRef Text,
                          std::vector<unsigned> &Used);

/// The warnings for the entries of a list that matched no function \p Where
/// ("in the program"): one at each of the first MaxUnusedWarnings entries,
/// then one at the next that counts the rest. \p Unused is in line order.
std::vector<ListProblem>
unusedEntryWarnings(llvm::StringRef Path, llvm::StringRef Text,
                    llvm::ArrayRef<ListEntry> Unused, llvm::StringRef Where);

/// The most unused entries of one list that get a warning each.
inline constexpr unsigned MaxUnusedWarnings = 10;

/// The entries of the sections of a list that apply (\p Text is good: it
/// passed checkPreserveNoneListText) whose lines \p Used does not name, in
/// line order.
std::vector<ListEntry> unusedListEntries(llvm::StringRef Path,
                                         llvm::StringRef Text,
                                         llvm::ArrayRef<unsigned> Used);

/// Reads a list file named on the command line, without checking its text
/// (checkPreserveNoneListText does, once). Returns the error, naming Path, or
/// "" with the file's text in Text, its CR LF line ends made LF, without a
/// leading UTF-8 byte order mark.
std::string readPreserveNoneList(llvm::StringRef Path, std::string &Text);

/// The text of a list file whose bytes are \p Raw, as readPreserveNoneList
/// gives it.
std::string listTextOf(llvm::StringRef Raw);

} // namespace cacs

#endif // CACS_PRESERVENONELISTFILE_H
