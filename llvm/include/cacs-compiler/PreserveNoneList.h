//===- PreserveNoneList.h - -fpreserve-none-list= pass ----------*- C++ -*-===//
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

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"

#include <optional>
#include <string>
#include <vector>

namespace cacs {

/// The named metadata in which the per-TU run records the lists it applied,
/// one operand per list: !{!"<path>", !"<text>"}. The full-LTO link re-reads
/// them from the merged module.
inline constexpr const char *PreserveNoneListsMD = "cacs.preserve_none_lists";

/// The suffix of the symbol under which the preserve_none body of an
/// externally visible listed function is defined and called:
/// `<name>.preserve_none_list`. The plain name is a C-convention entry that
/// calls the body, so whatever reaches the plain name (code built without the
/// list or by another compiler, dlsym, a function pointer, an unprototyped
/// call) is right, and a caller built with the list that meets a definition
/// built without it fails to link, the linker naming the missing
/// `<name>.preserve_none_list`. A dot suffix of lowercase letters and `_`:
/// demanglers read `_Z1fv.preserve_none_list` as `f() [clone
/// .preserve_none_list]`. Another suffix marks another contract: change it
/// when the convention of the body changes.
inline constexpr const char *DecoratedSuffix = ".preserve_none_list";

/// `<Plain>.preserve_none_list`.
std::string decoratedName(llvm::StringRef Plain);

/// Is \p Name a decorated body's (or something made from one, such as its
/// shield)?
bool isDecoratedName(llvm::StringRef Name);

/// Marks the functions declared in a system header (the clang plugin tells
/// the pass, which has no source locations), and the functions the compiler
/// declares itself, which no source declaration names (the C++ ABI's
/// `__cxa_throw`, UBSan's handlers, libgcc's `__muldc3`): no list entry
/// gives them the convention, and the mark stays in the module for a
/// full-LTO link.
inline constexpr const char *SystemHeaderAttr = "cacs-system-header";

/// Called by the clang plugin for every function of the translation unit that
/// a system header declares, with its symbol name.
void markSystemHeaderFunction(llvm::StringRef SymbolName);

/// Did the clang plugin mark this symbol name?
bool isSystemHeaderFunction(llvm::StringRef SymbolName);

/// Called by the clang plugin for every other function the translation unit
/// declares (outside a system header), with its symbol name.
void markSourceFunction(llvm::StringRef SymbolName);

/// Is \p F a declaration that no source declaration of a clang source
/// compile names, so that the compiler made it for a library of its own
/// (the C++ ABI, a sanitizer's runtime, compiler-rt or libgcc), which is
/// built without any list?
bool isCompilerRuntimeDeclaration(const llvm::Function &F);

/// Called by the clang plugin when clang compiles a source file: clang's
/// code generator then prints the pass's located list problems itself,
/// `file:line:col: error: ...` with the line of the list under it
/// (emitListProblem); elsewhere (opt, a linker, clang on IR) the location
/// leads the message.
void markClangSourceCompile();

/// Did the clang plugin call markClangSourceCompile?
bool isClangSourceCompile();

/// The suffix of the C-convention entry thunk that stands in for a listed
/// function wherever its address is taken: `<name>.cacs_c_entry`.
inline constexpr const char *CEntrySuffix = ".cacs_c_entry";

//===----------------------------------------------------------------------===//
// Reading and checking a list file: shared by the pass and the front door
// (which links no cacs library, only LLVM), which checks list files before
// any job runs, with the pass's messages. PreserveNoneListFile.cpp.
//===----------------------------------------------------------------------===//

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

/// Reads a list file named on the command line, without checking its text
/// (checkPreserveNoneListText does, once). Returns the error, naming Path, or
/// "" with the file's text in Text, its CR LF line ends made LF, without a
/// leading UTF-8 byte order mark.
std::string readPreserveNoneList(llvm::StringRef Path, std::string &Text);

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
