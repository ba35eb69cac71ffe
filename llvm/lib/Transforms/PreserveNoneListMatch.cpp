//===- PreserveNoneListMatch.cpp - Parsed lists and matching --------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// See PreserveNoneListMatch.h.
//
//===----------------------------------------------------------------------===//

#include "PreserveNoneListMatch.h"

#include "cacs-compiler/PreserveNoneListChannel.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <algorithm>

using namespace llvm;
using namespace cacs;
using namespace cacs::list;

/// Whether a pattern matches only the name it spells, read as a glob or as a
/// (version 1) regex. Such `fun:` entries are looked up in a hash map:
/// SpecialCaseList of LLVM 19 tries its patterns one by one. In a glob,
/// ( ) . + | ^ $ are plain characters, as in demangled names (`ns::f(int)`)
/// and clones (`f.cold`).
bool cacs::isExactListName(StringRef Pattern, bool Regex) {
  return Pattern.find_first_of(Regex ? "*?[]{}\\().|+^$" : "*?[]{}\\") ==
         StringRef::npos;
}

std::unique_ptr<SpecialCaseList> list::makeSCL(StringRef Text, StringRef Name,
                                               std::string &Error) {
  std::unique_ptr<MemoryBuffer> MB =
      MemoryBuffer::getMemBuffer(Text, Name, /*RequiresNullTerminator=*/false);
  return SpecialCaseList::create(MB.get(), Error);
}

void list::emitListProblem(LLVMContext &Ctx, DiagnosticSeverity S,
                           const ListProblem &P, StringRef Text) {
  if (!P.Line) {
    emit(Ctx, S, P.Message);
    return;
  }
  if (!isClangSourceCompile()) {
    emit(Ctx, S, listLocation(P) + ": " + P.Message);
    return;
  }
  // clang prints a SourceMgr diagnostic at its place in the buffer, named
  // by the buffer: `list:2:5: error: ...` and the line under it.
  SourceMgr SM;
  SM.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(Text, P.Path), SMLoc());
  const char *Begin = SM.getMemoryBuffer(1)->getBufferStart();
  size_t Offset = 0;
  StringRef Rest = Text;
  for (unsigned N = 1; N < P.Line && !Rest.empty(); ++N) {
    size_t NL = Rest.find('\n');
    if (NL == StringRef::npos)
      break;
    Offset += NL + 1;
    Rest = Rest.drop_front(NL + 1);
  }
  Offset = std::min(Offset + P.Column - 1, Text.size());
  SourceMgr::DiagKind K = S == DS_Error     ? SourceMgr::DK_Error
                          : S == DS_Warning ? SourceMgr::DK_Warning
                                            : SourceMgr::DK_Note;
  SMDiagnostic D =
      SM.GetMessage(SMLoc::getFromPointer(Begin + Offset), K, P.Message);
  Ctx.diagnose(DiagnosticInfoSrcMgr(D, "cacs", /*InlineAsmDiag=*/false));
}

/// Checks and parses a list (read from a file, or recorded in the module).
/// Reports an error and returns false if it is malformed.
bool list::parseList(LLVMContext &Ctx, ListFile &L) {
  std::vector<ListSection> Sections;
  if (!checkPreserveNoneListText(L.Path, L.Text, &Sections).empty()) {
    // Every bad line, not only the first.
    for (const ListProblem &P : checkPreserveNoneListProblems(L.Path, L.Text))
      emitListProblem(Ctx, DS_Error, P, L.Text);
    return false;
  }
  std::string Error;
  for (StringRef Rest = L.Text; !Rest.empty();) {
    auto [Line, Tail] = Rest.split('\n');
    L.Lines.push_back(Line);
    Rest = Tail;
  }

  bool Regex = isRegexList(L.Text);
  for (const ListSection &S : Sections) {
    Group G;
    G.Header = S.Header;
    std::vector<unsigned> Keep;
    if (G.Header)
      Keep.push_back(*G.Header);
    for (const ListEntry &LE : S.Entries) {
      Entry E{LE};
      E.Exact = E.Prefix == "fun" && isExactListName(E.Pattern, Regex);
      G.HasFun |= E.Prefix == "fun";
      G.HasSrc |= E.Prefix == "src";
      if (E.Exact)
        G.ExactFun.try_emplace(E.Pattern, E.Line);
      else
        Keep.push_back(E.Line - 1);
      G.Entries.push_back(E);
    }
    G.SCL = makeSCL(L.textWith(Keep), L.Path, Error);
    if (!G.SCL) { // Cannot happen: the whole file parsed.
      emit(Ctx, DS_Error,
           "malformed preserve-none list file '" + L.Path + "': " + Error);
      return false;
    }
    G.File = &L;
    L.Groups.push_back(std::move(G));
  }
  return true;
}

/// Reads a list file named on the command line; parseList checks it.
std::optional<std::string> list::readListFile(LLVMContext &Ctx,
                                              StringRef Path) {
  if (Path.empty()) {
    emit(Ctx, DS_Error, "empty preserve-none list file name");
    return std::nullopt;
  }
  std::string Text;
  std::string Error = readPreserveNoneList(Path, Text);
  if (!Error.empty()) {
    emit(Ctx, DS_Error, Error);
    return std::nullopt;
  }
  return Text;
}
