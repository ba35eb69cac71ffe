//===- cacs-link-watch.cpp - The front door's link watcher ----------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// runLink runs the stock driver's link as a child and reads its standard
// error (and, with wrapped names, its standard output, where lld traces)
// line by line: it passes every line on but the linker's traces of wrapped
// names' bodies, and after the link explains the undefined bodies of listed
// functions (explainUndefined) and refuses wraps that miss calls
// (refuseWraps).
//
//===----------------------------------------------------------------------===//

#include "cacs-link-watch.h"
#include "cacs-errors.h"

#include "cacs-compiler/PreserveNoneListFile.h"
#include "cacs-compiler/PreserveNoneSymbols.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <optional>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace llvm;
using namespace cacs;

std::vector<std::string> cacs::wrappedNames(ArrayRef<std::string> LinkerArgs) {
  std::vector<std::string> Names;
  for (size_t I = 0; I < LinkerArgs.size(); ++I) {
    StringRef A = LinkerArgs[I];
    if (!A.consume_front("--wrap") && !A.consume_front("-wrap"))
      continue;
    std::string Name;
    if (A.consume_front("="))
      Name = A.str();
    else if (A.empty() && I + 1 < LinkerArgs.size())
      Name = LinkerArgs[++I];
    if (!Name.empty() && !is_contained(Names, Name))
      Names.push_back(Name);
  }
  return Names;
}

std::string cacs::tracedBody(StringRef Name) {
  return (Name + cacs::DecoratedSuffix).str();
}

namespace {

/// A listed function whose preserve_none body a linker message reports
/// undefined: its name X, and the body's symbol as the message shows it.
/// lld: "undefined symbol: X.preserve_none_list", or demangled
/// "f(long) (.preserve_none_list)"; GNU ld: "undefined reference to
/// `X.preserve_none_list'", or demangled "`f(long) [clone
/// .preserve_none_list]'".
struct UndefinedBody {
  std::string Name, Shown;
  bool operator==(const UndefinedBody &O) const { return Name == O.Name; }
};

std::optional<UndefinedBody> undefinedBody(StringRef Line) {
  StringRef Sym;
  size_t At;
  if ((At = Line.find("undefined reference to `")) != StringRef::npos)
    Sym = Line.substr(At).split('`').second.rsplit('\'').first;
  else if (Line.contains("undefined") &&
           (At = Line.find("symbol: ")) != StringRef::npos)
    Sym = Line.substr(At + strlen("symbol: ")).rtrim();
  StringRef Name = Sym;
  std::string Suffix = cacs::DecoratedSuffix;
  if (Name.consume_back(Suffix) || Name.consume_back(" (" + Suffix + ")") ||
      Name.consume_back(" [clone " + Suffix + "]"))
    if (!Name.empty())
      return UndefinedBody{Name.str(), Sym.str()};
  return std::nullopt;
}

/// After a failed link: a note for each listed function whose preserve_none
/// body no input defined, naming the lists and what to do.
void explainUndefined(StringRef Prog, ArrayRef<UndefinedBody> Bodies,
                      ArrayRef<std::string> Lists) {
  std::string Files;
  for (const std::string &L : Lists)
    Files += (Files.empty() ? "'" : ", '") + L + "'";
  for (const UndefinedBody &B : Bodies)
    errs() << Prog << ": note: '" << B.Name << "' matches "
           << (Lists.size() == 1 ? "the list " : "one of the lists ") << Files
           << " of '-fpreserve-none-list=', so its callers call its "
              "preserve_none body '"
           << B.Shown
           << "', which only code built with the list defines; build the "
              "code that defines '"
           << B.Name << "' with the same list, or leave it out of the list\n";
}

/// An input whose calls to a wrapped name the wrap misses: the name, the
/// input as the linker names it, and whether it defines the name's
/// preserve_none body rather than references it.
struct WrapMiss {
  std::string Name, File;
  bool Defines = false;
};

/// Is \p Line the linker's trace of the body of one of \p Wrapped? lld
/// prints "FILE: reference to SYM" on its standard output, GNU ld "LD: FILE:
/// reference to SYM" (FILE with " (symbol from plugin)" for a bitcode
/// input) on its standard error; neither demangles SYM there. A reference
/// is a miss. So is a definition (lld: "definition of", "lazy definition
/// of"...) where lld links (\p FromLLD, the line came on standard output):
/// lld also wraps the calls inside the defining input, which that input's
/// code built with the list makes to the body instead; GNU ld wraps none of
/// them, with or without the list.
bool isTraceLine(StringRef Line, bool FromLLD, ArrayRef<std::string> Wrapped,
                 std::optional<WrapMiss> &Miss) {
  Line = Line.rtrim("\r\n");
  for (const std::string &Name : Wrapped) {
    StringRef Rest = Line;
    if (!Rest.consume_back(tracedBody(Name)))
      continue;
    bool Reference = Rest.consume_back(": reference to ");
    if (!Reference && !Rest.consume_back(" definition of "))
      continue;
    if (!Reference) {
      if (FromLLD && Rest.consume_back(":"))
        Miss = WrapMiss{Name, Rest.str(), /*Defines=*/true};
      return true;
    }
    Rest.consume_back(" (symbol from plugin)");
    // GNU ld's own name first: "/usr/bin/ld.bfd: FILE".
    auto [Head, Tail] = Rest.split(": ");
    if (!Tail.empty() && sys::path::filename(Head).contains("ld"))
      Rest = Tail;
    Miss = WrapMiss{Name, Rest.str()};
    return true;
  }
  return false;
}

/// After a link whose wrap misses calls (isTraceLine): an error for each
/// wrapped name, naming the first input that calls its body.
void refuseWraps(StringRef Prog, ArrayRef<WrapMiss> Misses) {
  for (const WrapMiss &M : Misses)
    errs() << Prog << ": error: '--wrap=" << M.Name
           << "' does not reach the calls to '" << M.Name
           << "' from code built with '-fpreserve-none-list=': '" << M.File
           << (M.Defines ? "' defines" : "' calls")
           << " its preserve_none body '" << tracedBody(M.Name)
           << (M.Defines ? "', which its own calls reach without the wrap"
                         : "', which the wrap does not name")
           << "; leave '" << M.Name
           << "' out of the list, or build that code without it\n";
}

/// Writes all of \p Data to \p FD; a closed \p FD is not an error (the
/// link goes on to its end).
void writeAll(int FD, StringRef Data) {
  while (!Data.empty()) {
    ssize_t W = write(FD, Data.data(), Data.size());
    if (W < 0 && errno == EINTR)
      continue;
    if (W <= 0)
      return;
    Data = Data.drop_front(W);
  }
}

} // namespace

/// The contents of the sections named \p Name of the object file \p Path;
/// "" if it is none, or has none.
static std::string sectionContents(StringRef Path, StringRef Name) {
  std::string Out;
  Expected<object::OwningBinary<object::ObjectFile>> O =
      object::ObjectFile::createObjectFile(Path);
  if (!O) {
    consumeError(O.takeError());
    return Out;
  }
  for (const object::SectionRef &S : O->getBinary()->sections()) {
    Expected<StringRef> SName = S.getName();
    if (!SName) {
      consumeError(SName.takeError());
      continue;
    }
    if (*SName != Name)
      continue;
    Expected<StringRef> Data = S.getContents();
    if (Data)
      Out += *Data;
    else
      consumeError(Data.takeError());
  }
  return Out;
}

bool cacs::checkUnusedEntries(StringRef Output, const LinkWatch &W) {
  if (W.NoWarnings || W.Lists.empty() || Output == "-")
    return false;
  std::string Section = sectionContents(Output, ListLinesSection);
  if (Section.empty())
    return false;
  bool Reported = false;
  for (size_t I = 0; I < W.Lists.size() && I < W.ListTexts.size(); ++I) {
    StringRef Text = W.ListTexts[I];
    std::vector<unsigned> Used;
    // No object of the link applied the list: nothing to say about it.
    if (!readListLinesRecords(Section, Text, Used))
      continue;
    std::vector<ListEntry> Unused = unusedListEntries(W.Lists[I], Text, Used);
    for (const ListProblem &P :
         unusedEntryWarnings(W.Lists[I], Text, Unused, "in the program")) {
      errs() << formatListProblem(P, W.WarningsAreErrors ? "error" : "warning")
             << "\n";
      Reported = true;
    }
  }
  return Reported && W.WarningsAreErrors;
}

int cacs::runLink(StringRef Prog, StringRef Driver, ArrayRef<StringRef> Args,
                  const LinkWatch &W) {
  std::vector<std::string> Storage(Args.begin(), Args.end());
  std::vector<char *> V;
  for (std::string &A : Storage)
    V.push_back(A.data());
  V.push_back(nullptr);
  outs().flush();
  errs().flush();
  // Stream 0 is the driver's standard error; 1, its standard output, only
  // where trace lines may come there (lld).
  unsigned NumStreams = W.Wrapped.empty() ? 1 : 2;
  const int Target[2] = {STDERR_FILENO, STDOUT_FILENO};
  int Pipes[2][2];
  for (unsigned S = 0; S < NumStreams; ++S)
    if (pipe(Pipes[S]) != 0)
      fatal(Prog, "cannot run '" + Driver + "': " + std::strerror(errno));
  pid_t Pid = fork();
  if (Pid < 0)
    fatal(Prog, "cannot run '" + Driver + "': " + std::strerror(errno));
  if (Pid == 0) {
    for (unsigned S = 0; S < NumStreams; ++S) {
      close(Pipes[S][0]);
      dup2(Pipes[S][1], Target[S]);
      close(Pipes[S][1]);
    }
    execv(Storage[0].c_str(), V.data());
    std::string Msg = (Prog + ": error: cannot run '" + Driver +
                       "': " + std::strerror(errno) + "\n")
                          .str();
    writeAll(STDERR_FILENO, Msg);
    _exit(1);
  }
  std::vector<pollfd> Fds;
  for (unsigned S = 0; S < NumStreams; ++S) {
    close(Pipes[S][1]);
    Fds.push_back({Pipes[S][0], POLLIN, 0});
  }
  std::vector<UndefinedBody> Bodies;
  std::vector<WrapMiss> Misses;
  std::string Line[2];
  // One line of stream S: passed on, unless it is a trace line.
  auto Take = [&](unsigned S) {
    std::optional<WrapMiss> Miss;
    if (!W.Wrapped.empty() &&
        isTraceLine(Line[S], /*FromLLD=*/S == 1, W.Wrapped, Miss)) {
      // One miss a name; a caller rather than the definition.
      auto Same = Misses.end();
      if (Miss)
        Same = find_if(Misses,
                       [&](const WrapMiss &M) { return M.Name == Miss->Name; });
      if (Miss && Same == Misses.end())
        Misses.push_back(std::move(*Miss));
      else if (Miss && Same->Defines && !Miss->Defines)
        *Same = std::move(*Miss);
    } else {
      writeAll(Target[S], Line[S]);
      if (S == 0 && !W.Lists.empty())
        if (std::optional<UndefinedBody> B = undefinedBody(Line[S]))
          if (!is_contained(Bodies, *B))
            Bodies.push_back(std::move(*B));
    }
    Line[S].clear();
  };
  char Buf[4096];
  unsigned Open = NumStreams;
  while (Open) {
    if (poll(Fds.data(), Fds.size(), -1) < 0) {
      if (errno == EINTR)
        continue;
      fatal(Prog, "cannot watch '" + Driver + "': " + std::strerror(errno));
    }
    for (unsigned S = 0; S < NumStreams; ++S) {
      if (Fds[S].fd < 0 || !Fds[S].revents)
        continue;
      ssize_t N = read(Fds[S].fd, Buf, sizeof Buf);
      if (N < 0 && errno == EINTR)
        continue;
      if (N <= 0) {
        if (!Line[S].empty())
          Take(S);
        close(Fds[S].fd);
        Fds[S].fd = -1;
        --Open;
        continue;
      }
      for (ssize_t K = 0; K < N; ++K) {
        Line[S] += Buf[K];
        if (Buf[K] == '\n')
          Take(S);
      }
    }
  }
  int Status;
  while (waitpid(Pid, &Status, 0) < 0)
    if (errno != EINTR)
      fatal(Prog, "cannot wait for '" + Driver + "': " + std::strerror(errno));
  if (WIFSIGNALED(Status)) {
    std::signal(WTERMSIG(Status), SIG_DFL);
    std::raise(WTERMSIG(Status));
    return 1;
  }
  int RC = WEXITSTATUS(Status);
  if (RC != 0)
    explainUndefined(Prog, Bodies, W.Lists);
  StringRef Output = W.Output.empty() ? StringRef("a.out") : W.Output;
  if (RC == 0 && W.CheckUnused && checkUnusedEntries(Output, W)) {
    sys::fs::remove(Output);
    RC = 1;
  }
  if (!Misses.empty()) {
    refuseWraps(Prog, Misses);
    if (RC == 0)
      sys::fs::remove(Output);
    RC = 1;
  }
  return RC;
}
