//===- PreserveNoneListFile.cpp - Reading -fpreserve-none-list= files -----===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// Reading and checking a list file. Compiled into the pass plugin and into
// the front door (cacs-driver), which checks list files before any job runs,
// with the pass's messages. Uses only LLVMSupport.
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/PreserveNoneListFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SpecialCaseList.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <tuple>

using namespace llvm;

namespace {

std::unique_ptr<SpecialCaseList> makeSCL(StringRef Text, StringRef Name,
                                         std::string &Error) {
  std::unique_ptr<MemoryBuffer> MB =
      MemoryBuffer::getMemBuffer(Text, Name, /*RequiresNullTerminator=*/false);
  return SpecialCaseList::create(MB.get(), Error);
}

/// Characters that show as nothing (Unicode's format characters, the C1
/// controls, the line and paragraph separators): a diagnostic that printed
/// them would hide what is in the file.
bool isInvisible(UTF32 U) {
  return (U >= 0x80 && U <= 0x9F) || U == 0xAD || (U >= 0x600 && U <= 0x605) ||
         U == 0x61C || U == 0x6DD || U == 0x70F || U == 0x180E ||
         (U >= 0x200B && U <= 0x200F) || (U >= 0x2028 && U <= 0x202E) ||
         (U >= 0x2060 && U <= 0x206F) || U == 0xFEFF ||
         (U >= 0xFFF9 && U <= 0xFFFB) || (U >= 0x1D173 && U <= 0x1D17A) ||
         (U >= 0xE0000 && U <= 0xE0FFF);
}

} // namespace

namespace cacs {

std::string escapeByte(unsigned char C) {
  return {'\\', 'x', hexdigit(C >> 4), hexdigit(C & 15)};
}

std::string quoteListText(StringRef S, size_t Max) {
  std::string Cut;
  if (S.size() > Max) {
    size_t Keep = Max > 3 ? Max - 3 : 0; // Besides the "...".
    size_t HeadEnd = std::min(Max * 2 / 3, Keep);
    size_t TailBegin = S.size() - (Keep - HeadEnd);
    // Cut between UTF-8 characters, never inside one. A character has at
    // most three continuation bytes: a longer run is not UTF-8, and is cut
    // where it is.
    auto IsCont = [&](size_t I) {
      return I < S.size() && (S[I] & 0xC0) == 0x80;
    };
    size_t H = HeadEnd, T = TailBegin;
    for (unsigned N = 0; N < 3 && H > 0 && IsCont(H); ++N)
      --H;
    for (unsigned N = 0; N < 3 && IsCont(T); ++N)
      ++T;
    if (!IsCont(H))
      HeadEnd = H;
    if (!IsCont(T))
      TailBegin = T;
    Cut = (S.take_front(HeadEnd) + "..." + S.drop_front(TailBegin)).str();
    S = Cut;
  }
  const auto *Begin = reinterpret_cast<const UTF8 *>(S.begin());
  const auto *End = reinterpret_cast<const UTF8 *>(S.end());
  if (!isLegalUTF8String(&Begin, End)) {
    std::string Out;
    for (unsigned char C : S)
      if (C < 0x20 || C >= 0x7F)
        Out += escapeByte(C);
      else
        Out += C;
    return Out;
  }
  std::string Out;
  for (const auto *P = reinterpret_cast<const UTF8 *>(S.begin()); P != End;) {
    if (*P < 0x20 || *P == 0x7F) {
      Out += escapeByte(*P++);
      continue;
    }
    const UTF8 *Char = P;
    UTF32 U;
    if (convertUTF8Sequence(&P, End, &U, strictConversion) != conversionOK) {
      Out += escapeByte(*Char); // Cannot happen: the text is UTF-8.
      P = Char + 1;
      continue;
    }
    if (isInvisible(U)) {
      std::string Hex = utohexstr(U, /*LowerCase=*/false);
      Out += U > 0xFFFF ? "\\U" + std::string(8 - Hex.size(), '0')
                        : "\\u" + std::string(4 - Hex.size(), '0');
      Out += Hex;
    } else {
      Out.append(Char, P);
    }
  }
  return Out;
}

bool isRegexList(StringRef Text) {
  return Text.starts_with("#!special-case-list-v1\n");
}

std::string listLocation(const ListProblem &P) {
  return (P.Path + ":" + Twine(P.Line) + ":" + Twine(P.Column)).str();
}

std::string formatListProblem(const ListProblem &P, StringRef Severity) {
  if (!P.Line)
    return (Severity + ": " + P.Message).str();
  return listLocation(P) + ": " + Severity.str() + ": " + P.Message;
}

unsigned listColumn(StringRef Line, StringRef Part, size_t From) {
  size_t Col = Part.empty() ? StringRef::npos : Line.find(Part, From);
  if (Col == StringRef::npos)
    Col = Line.find_first_not_of(" \t");
  return Col == StringRef::npos ? 1 : Col + 1;
}

StringRef listLine(StringRef Text, unsigned N) {
  StringRef L;
  for (unsigned I = 0; I < N && !Text.empty(); ++I)
    std::tie(L, Text) = Text.split('\n');
  return L;
}

namespace {

/// SpecialCaseList's error ("malformed glob in line 2: '[a-': invalid glob
/// pattern, unmatched '['") as a problem at that line, and at the column of
/// the text it quotes; at the file as a whole if it names no line.
ListProblem sclProblem(StringRef Path, StringRef Text, StringRef Error) {
  ListProblem P{Path.str(), 0, 0, ""};
  size_t At = Error.find("line ");
  unsigned Line = 0;
  StringRef After = At == StringRef::npos ? "" : Error.substr(At + 5);
  if (At == StringRef::npos || After.consumeInteger(10, Line) || !Line ||
      !After.consume_front(": ")) {
    P.Message = "malformed preserve-none list file '" + Path.str() +
                "': " + quoteListText(Error, /*Max=*/200);
    return P;
  }
  // "malformed glob in line 2", "malformed section header on line 1":
  // without the line; "malformed line 3": the line stays a word.
  StringRef Before = Error.take_front(At).rtrim();
  if (!Before.consume_back(" in") && !Before.consume_back(" on") &&
      !Before.consume_back(" at"))
    Before = Error.take_front(At + 4);
  // The quoted text: a pattern after its entry's kind, or the whole line.
  StringRef Quoted;
  if (After.starts_with("'")) {
    size_t Close = After.find("': ", 1);
    if (Close == StringRef::npos && After.ends_with("'"))
      Close = After.size() - 1;
    if (Close != StringRef::npos)
      Quoted = After.slice(1, Close);
  }
  StringRef L = listLine(Text, Line);
  size_t From = 0;
  if (Before.ends_with("glob") || Before.ends_with("regex"))
    From = L.find(':') == StringRef::npos ? 0 : L.find(':') + 1;
  P.Line = Line;
  P.Column = listColumn(L, Quoted, From);
  P.Message = quoteListText((Before + ": " + After).str(), /*Max=*/200);
  return P;
}

} // namespace

ListProblem checkPreserveNoneListText(StringRef Path, StringRef Text,
                                      std::vector<ListSection> *Sections) {
  auto At = [&](unsigned Line, unsigned Column, const Twine &Msg) {
    return ListProblem{Path.str(), Line, Column, Msg.str()};
  };
  if (Text.find_first_not_of(" \t\r\n") == StringRef::npos)
    return At(1, 1, "preserve-none list file is empty");
  // SpecialCaseList stops reading at a NUL byte, silently; a carriage return
  // inside a line (old Mac line ends) would make one entry of several.
  unsigned LineNo = 0;
  bool HasEntry = false;
  for (StringRef Rest = Text; !Rest.empty();) {
    auto [Line, Tail] = Rest.split('\n');
    Rest = Tail;
    ++LineNo;
    for (size_t I = 0; I < Line.size(); ++I) {
      unsigned char C = Line[I];
      if ((C < 0x20 && C != '\t') || C == 0x7F)
        return At(LineNo, I + 1,
                  "control character " + escapeByte(C) +
                      (C == '\r' ? "; lines end with LF or CR LF, not CR alone"
                                 : "; not a text file"));
    }
    Line = Line.trim();
    HasEntry |=
        !Line.empty() && !Line.starts_with("#") && !Line.starts_with("[");
  }
  std::string Error;
  if (!makeSCL(Text, Path, Error))
    return sclProblem(Path, Text, Error);
  if (!HasEntry)
    return At(1, 1, "preserve-none list file has no entries");

  // Cut the text into sections. An entry repeated in a section counts once,
  // at its first line, whichever LLVM (SpecialCaseList blames the first of
  // equal patterns in LLVM 19, the last in LLVM 22).
  SmallVector<StringRef, 0> Lines;
  Text.split(Lines, '\n');
  std::vector<ListSection> All(1);
  StringSet<> Seen;
  for (unsigned I = 0; I < Lines.size(); ++I) {
    StringRef T = Lines[I].trim();
    if (T.empty() || T.starts_with("#"))
      continue;
    if (T.starts_with("[")) {
      All.emplace_back();
      All.back().Header = I;
      Seen.clear();
      continue;
    }
    if (!Seen.insert(T).second)
      continue;
    auto [Prefix, Pattern] = T.split(':');
    All.back().Entries.push_back({Prefix, Pattern, T, I + 1});
  }

  if (Sections)
    Sections->clear();
  for (ListSection &S : All) {
    if (S.Entries.empty())
      continue;
    // Does the section apply? Ask SpecialCaseList with a probe entry, so the
    // section name is read as SpecialCaseList reads it.
    std::string Probe;
    if (Lines[0].starts_with("#!"))
      Probe += Lines[0].trim().str() + "\n";
    if (S.Header)
      Probe += Lines[*S.Header].trim().str() + "\n";
    Probe += "fun:cacs_probe\n";
    std::unique_ptr<SpecialCaseList> SCL = makeSCL(Probe, Path, Error);
    if (!SCL || !SCL->inSection(PreserveNoneSectionName, "fun", "cacs_probe"))
      continue;
    for (const ListEntry &E : S.Entries) {
      if (E.Prefix != "fun" && E.Prefix != "src")
        return At(E.Line, listColumn(Lines[E.Line - 1], E.Text),
                  "unknown entry kind '" + quoteListText(E.Prefix) +
                      ":'; expected 'fun:' or 'src:'");
      if (size_t Eq = E.Text.find('='); Eq != StringRef::npos)
        return At(E.Line, listColumn(Lines[E.Line - 1], E.Text) + Eq,
                  "categories ('=...') are not supported");
    }
    if (Sections)
      Sections->push_back(std::move(S));
  }
  return {};
}

std::vector<ListProblem> checkPreserveNoneListProblems(StringRef Path,
                                                       StringRef Text) {
  std::vector<ListProblem> Problems;
  ListProblem P = checkPreserveNoneListText(Path, Text);
  if (P.empty())
    return Problems;
  Problems.push_back(P);
  // The problems of the file as a whole come alone; so does one that a
  // blanked line would only move (an empty list has no line to blank).
  StringRef Alone[] = {"preserve-none list file is empty",
                       "preserve-none list file has no entries"};
  if (!P.Line || is_contained(Alone, P.Message))
    return Problems;
  SmallVector<StringRef, 0> Lines;
  Text.split(Lines, '\n');
  std::vector<bool> Blank(Lines.size());
  while (Problems.size() < MaxListProblems) {
    unsigned Line = Problems.back().Line;
    if (!Line || Line > Lines.size() || Blank[Line - 1])
      break;
    Blank[Line - 1] = true;
    std::string Rest;
    for (size_t I = 0; I < Lines.size(); ++I) {
      // A section header stays one, of a section that does not apply, so
      // that its entries do not join the section before it.
      if (Blank[I] && Lines[I].trim().starts_with("["))
        Rest += "[cacs-blanked]";
      else if (!Blank[I])
        Rest += Lines[I];
      if (I + 1 < Lines.size())
        Rest += '\n';
    }
    P = checkPreserveNoneListText(Path, Rest);
    if (P.empty() || !P.Line || is_contained(Alone, P.Message))
      break;
    Problems.push_back(P);
  }
  llvm::sort(Problems, [](const ListProblem &A, const ListProblem &B) {
    return A.Line < B.Line;
  });
  return Problems;
}

namespace {
/// Each record in ListLinesSection: the tag, then path, digest and lines,
/// each ended by a NUL byte.
constexpr StringRef RecordTag = "cacs-list-lines-v1";

std::string textDigest(StringRef Text) {
  return utohexstr(xxh3_64bits(Text), /*LowerCase=*/true);
}
} // namespace

std::string listLinesRecord(StringRef Path, StringRef Text,
                            StringRef UsedLines) {
  std::string R, Digest = textDigest(Text);
  for (StringRef Field : {RecordTag, Path, StringRef(Digest), UsedLines}) {
    R += Field;
    R += '\0';
  }
  return R;
}

bool readListLinesRecords(StringRef Section, StringRef Text,
                          std::vector<unsigned> &Used) {
  SmallVector<StringRef, 0> Fields;
  Section.split(Fields, '\0');
  std::string Digest = textDigest(Text);
  bool Found = false;
  // The linker may pad between the objects' sections with NUL bytes: look
  // for each record's tag.
  for (size_t I = 0; I + 3 < Fields.size(); ++I) {
    if (Fields[I] != RecordTag)
      continue;
    if (Fields[I + 2] == Digest) {
      Found = true;
      SmallVector<StringRef, 16> Lines;
      Fields[I + 3].split(Lines, ',', -1, /*KeepEmpty=*/false);
      for (StringRef L : Lines) {
        unsigned N;
        if (!L.getAsInteger(10, N))
          Used.push_back(N);
      }
    }
    I += 3;
  }
  return Found;
}

std::vector<ListEntry> unusedListEntries(StringRef Path, StringRef Text,
                                         ArrayRef<unsigned> Used) {
  std::vector<ListSection> Sections;
  std::vector<ListEntry> Unused;
  if (!checkPreserveNoneListText(Path, Text, &Sections).empty())
    return Unused;
  // A list may have many entries, and each object many matches.
  std::vector<unsigned> Sorted(Used.begin(), Used.end());
  llvm::sort(Sorted);
  for (const ListSection &S : Sections)
    for (const ListEntry &E : S.Entries)
      if (!std::binary_search(Sorted.begin(), Sorted.end(), E.Line))
        Unused.push_back(E);
  llvm::sort(Unused, [](const ListEntry &A, const ListEntry &B) {
    return A.Line < B.Line;
  });
  return Unused;
}

std::vector<ListProblem> unusedEntryWarnings(StringRef Path, StringRef Text,
                                             ArrayRef<ListEntry> Unused,
                                             StringRef Where) {
  std::vector<ListProblem> Out;
  std::string Matched = (" matched no function " + Where).str();
  auto At = [&](const ListEntry &E) {
    return ListProblem{Path.str(), E.Line,
                       listColumn(listLine(Text, E.Line), E.Text),
                       "'" + quoteListText(E.Text) + "'"};
  };
  for (size_t I = 0; I < Unused.size() && I < MaxUnusedWarnings; ++I) {
    Out.push_back(At(Unused[I]));
    Out.back().Message += Matched;
  }
  // The eleventh alone is shown as the ten are; more are counted at it.
  if (Unused.size() > MaxUnusedWarnings) {
    ListProblem More = At(Unused[MaxUnusedWarnings]);
    if (size_t Rest = Unused.size() - MaxUnusedWarnings; Rest > 1)
      More.Message += " and " + std::to_string(Rest - 1) +
                      (Rest == 2 ? " more entry" : " more entries");
    More.Message += Matched;
    Out.push_back(More);
  }
  return Out;
}

std::string readPreserveNoneList(StringRef Path, std::string &Text) {
  std::string P = ("'" + Path + "'").str();
  sys::fs::file_status Status;
  if (sys::fs::status(Path, Status))
    return "preserve-none list file " + P + " not found";
  if (sys::fs::is_directory(Status))
    return "preserve-none list file " + P + " is a directory";
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return "cannot read preserve-none list file " + P + ": " +
           Buf.getError().message();
  Text = listTextOf((*Buf)->getBuffer());
  return "";
}

std::string listTextOf(StringRef Raw) {
  // CR LF line ends become LF, here, once: the text that is checked is the
  // text that is matched and recorded for the link. SpecialCaseList reads a
  // first line "#!special-case-list-v1\r\n" as a glob list, but trims the
  // CR off each entry; the pass rebuilds lists from trimmed lines.
  // A UTF-8 byte order mark, as Windows editors save text, is no part of the
  // first line (which may be "#!special-case-list-v1").
  Raw.consume_front("\xEF\xBB\xBF");
  std::string Text;
  Text.reserve(Raw.size());
  for (size_t I = 0; I < Raw.size(); ++I)
    if (Raw[I] != '\r' || I + 1 == Raw.size() || Raw[I + 1] != '\n')
      Text += Raw[I];
  return Text;
}

} // namespace cacs
