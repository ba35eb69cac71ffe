//===- cacs-driver.cpp - The cacs clang/clang++ front door ----------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// build/bin/clang and build/bin/clang++ are this program. It behaves as the
// stock clang it was configured with, plus the cacs flags:
//
//   -fauto-preserve-none / -fno-auto-preserve-none   (the last one wins)
//   -fpreserve-none-list=<file>                      (may be repeated)
//   -f[no-]preserve-none-list-export-warning         (the last one wins)
//
// (spelled as the settings table of Settings.def says). It takes those
// flags out of the command line, loads the cacs plugins into every compile
// job, hands them the settings as plugin arguments, and execs the stock
// driver, so that everything else (modes, diagnostics, exit status, -###) is
// clang's own. With -flto it also makes the link run the cacs passes inside
// lld. A link with lists, or with --wrap, runs as a child whose messages it
// watches: to explain a listed function's undefined body, and to refuse a
// --wrap that would miss the calls of code built with a list (runLink,
// cacs-link-watch.cpp).
//
// For the build tools around it (README, "Using cacs with your build"):
//  - with any cacs flag, a forced include (cacs-settings.h) puts the settings
//    into the translation unit: a pragma with this build's plugin digest and
//    a digest of the flags and lists, and a line marker per list file, so
//    compiler caches hash the lists and a compile of a preprocessed file
//    (distcc's server) can check that it has the same settings;
//  - --version prints clang's banner first, then the cacs line; --help
//    clang's help, then the cacs flags;
//  - a command line that came in a response file goes on in one.
//
// Like clang with its own runtimes, it adds libcacs's include and library
// directories (build tree or installed prefix) for the targets libcacs is
// built for, unless the command line gives directories that hold them.
//
//===----------------------------------------------------------------------===//

// The settings table (Settings.def) and its parser, and the list file checks
// of the pass (PreserveNoneListFile.cpp).
#include "cacs-compiler/PreserveNoneListFile.h"
#include "cacs-compiler/Settings.h"
#include "cacs/detail/contract.h"

#include "cacs-args.h"
#include "cacs-errors.h"
#include "cacs-link-watch.h"
#include "cacs-stack-bounds.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <array>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

// CACS_BUILD_ID: a digest of the plugins this front door was built with.
#include "cacs-build-id.inc"

using namespace llvm;
using cacs::CACSFlags;
using cacs::fatal;
using cacs::LinkWatch;
using cacs::runLink;
using cacs::tracedBody;
using cacs::wrappedNames;

namespace {

/// Check a list file the way clang checks -fsanitize-ignorelist= files, and
/// as the pass will read it: it must exist and parse; the errors name the
/// path (and the line and column).
std::string validateListFile(StringRef Prog, StringRef Path) {
  if (Path.empty())
    fatal(Prog, "no file given to '-fpreserve-none-list='");
  std::string Text;
  std::string Error = cacs::readPreserveNoneList(Path, Text);
  if (!Error.empty())
    fatal(Prog, Error);
  std::vector<cacs::ListProblem> Problems =
      cacs::checkPreserveNoneListProblems(Path, Text);
  if (Problems.empty())
    return Text;
  // At a line of the list: `list:2:5: error: ...`, as clang prints what it
  // finds in a source file, so editors jump to it; every bad line.
  if (!Problems.front().Line)
    fatal(Prog, Problems.front().Message);
  for (const cacs::ListProblem &P : Problems)
    errs() << cacs::formatListProblem(P, "error") << "\n";
  std::exit(1);
}

/// The most list files a compile takes (the settings header names each).
constexpr unsigned MaxListFiles =
    cacs::setting(cacs::SettingID::PreserveNoneList).MaxFiles;

/// What the settings of a compile are, as one line that the front door puts
/// into the translation unit (see cacs-settings.h): this cacs build and a
/// digest of the flags and of the lists' text. Paths are not in it: caches
/// see them on the command line and in the line markers.
std::string settingsPragma(const CACSFlags &F,
                           ArrayRef<std::string> ListTexts) {
  SHA256 H;
  for (const cacs::Setting &S : cacs::Settings) {
    unsigned I = static_cast<unsigned>(S.ID);
    // A fact of this command's link, which a preprocessed file compiled
    // elsewhere need not share.
    if (S.ID == cacs::SettingID::LinkBindsNow)
      continue;
    if (S.isChoice()) {
      H.update(S.name());
      H.update(("=" + S.Choices[F.Choice[I]] + ";").str());
    } else if (!S.isList()) {
      H.update(S.name());
      H.update(F.Flag[I] ? "=1;" : "=0;");
    }
  }
  for (const std::string &T : ListTexts) {
    H.update("list " + std::to_string(T.size()) + ";");
    H.update(T);
  }
  std::array<uint8_t, 32> D = H.final();
  return "\"cacs-" CACS_VERSION "-" CACS_BUILD_ID "\" \"" +
         toHex(ArrayRef<uint8_t>(D).take_front(16), /*LowerCase=*/true) + "\"";
}

/// A C string literal of Text (a #line file name, a _Pragma operand).
std::string quoteCString(StringRef Text) {
  std::string Q = "\"";
  for (char C : Text) {
    if (C == '"' || C == '\\')
      Q += '\\';
    Q += C;
  }
  return Q + "\"";
}

/// Preprocessed inputs (.i, .ii) carry the settings they were preprocessed
/// with. A compile of one (distcc's server, ccache without run_second_cpp)
/// must have the same settings, or its object would silently differ from a
/// local compile: an error names what differs.
void checkPreprocessedInputs(StringRef Prog, ArrayRef<const char *> Args,
                             const std::string &Expected) {
  StringRef Prev;
  for (StringRef A : Args) {
    StringRef Before = Prev;
    Prev = A;
    if (A.starts_with("-") || Before == "-o" || Before == "-MF" ||
        Before == "-MT" || Before == "-MQ" || Before == "-Xclang")
      continue;
    StringRef Ext = sys::path::extension(A);
    if (Ext != ".i" && Ext != ".ii")
      continue;
    // The pragma comes from the first include: look at the head only (the
    // file is mapped, not read).
    auto Buf = MemoryBuffer::getFile(A, /*IsText=*/false,
                                     /*RequiresNullTerminator=*/false);
    if (!Buf)
      continue; // clang will report it.
    StringRef Text = (*Buf)->getBuffer().take_front(1 << 20);
    constexpr StringRef Key = "#pragma cacs settings ";
    size_t At = Text.find(Key);
    if (At == StringRef::npos)
      continue; // Preprocessed by something else than cacs: trust it.
    StringRef Got = Text.substr(At + Key.size()).split('\n').first.rtrim();
    if (Expected.empty())
      fatal(Prog, "'" + A + "' was preprocessed by cacs with cacs flags (" +
                      Got +
                      "), and is compiled without them: give the "
                      "compile the same cacs flags");
    if (Got != Expected)
      fatal(Prog,
            "'" + A + "' was preprocessed with other cacs settings (" + Got +
                ") than this compile has (" + Expected +
                "): a different cacs build, flag or preserve-none list "
                "file; compile where it was preprocessed, or give this "
                "machine the same cacs and the same list files at the same "
                "paths");
  }
}

std::string siblingPath(StringRef Exe, StringRef RelDir, StringRef Name) {
  SmallString<256> P(sys::path::parent_path(sys::path::parent_path(Exe)));
  sys::path::append(P, RelDir, Name);
  return std::string(P);
}

[[noreturn]] void execArgs(StringRef Prog, StringRef Driver,
                           ArrayRef<StringRef> Args) {
  std::vector<std::string> Storage(Args.begin(), Args.end());
  std::vector<char *> V;
  for (std::string &A : Storage)
    V.push_back(A.data());
  V.push_back(nullptr);
  execv(Storage[0].c_str(), V.data());
  fatal(Prog, "cannot run '" + Driver + "': " + std::strerror(errno));
}

int runAndWait(StringRef Prog, StringRef Driver, ArrayRef<StringRef> Args) {
  outs().flush();
  std::string Err;
  int RC = sys::ExecuteAndWait(Driver, Args, std::nullopt, {}, 0, 0, &Err);
  if (RC == -1)
    fatal(Prog, "cannot run '" + Driver + "': " + Err);
  if (RC < 0) // It crashed, and said so.
    return 1;
  return RC;
}

/// Runs the driver with Args[1..] in a response file of our own, so that a
/// command line that came in a response file is not too long for execv.
/// Through runLink where there is a link to watch.
int runWithResponseFile(StringRef Prog, StringRef Driver,
                        ArrayRef<StringRef> Args, const LinkWatch &W) {
  SmallString<128> Path;
  int FD;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("cacs-args", "rsp", FD, Path))
    fatal(Prog, "cannot create a response file: " + EC.message());
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    for (StringRef A : Args.drop_front()) {
      OS << '"';
      for (char C : A) {
        if (C == '"' || C == '\\')
          OS << '\\';
        OS << C;
      }
      OS << "\"\n";
    }
  }
  std::string At = ("@" + Path).str();
  int RC = W.empty() ? runAndWait(Prog, Driver, {Args[0], At})
                     : runLink(Prog, Driver, {Args[0], At}, W);
  sys::fs::remove(Path);
  return RC;
}

/// One run of the front door, filled in phase by phase: who it is (start),
/// what the command line asks (parseCommandLine), what follows from that
/// (decide), the stock driver's command line (buildCommand), and running it
/// (run).
struct Invocation {
  // start
  std::string Self;            ///< This program's path.
  StringRef Prog;              ///< "clang" or "clang++", for messages.
  SmallString<256> RealDriver; ///< The stock driver to run.
  ArrayRef<const char *> Args; ///< The command line, without argv[0].

  // parseCommandLine
  BumpPtrAllocator Alloc;
  CACSFlags F;
  /// The arguments that go on to the stock driver, cacs flags removed.
  std::vector<const char *> Rest;
  /// Whether a response file held part of the command line.
  bool FromResponseFile = false;

  // decide
  std::vector<std::string> ListTexts; ///< Each list file's text.
  std::vector<std::string> Lists;     ///< Each list file's normalized path.
  std::string Pragma; ///< The settings pragma; empty without cacs flags.

  // findRuntime: libcacs's directories for this command's target; empty
  // where there is none or the command gives its own.
  std::string RuntimeInclude, RuntimeLib;

  // buildCommand
  std::string PassPlugin;
  std::vector<std::string> Added;   ///< What goes before Rest.
  std::vector<std::string> Wrapped; ///< What the link wraps (--wrap).

  /// Adds an -mllvm option for cc1 only (see addSettingArguments).
  void addMLLVM(const std::string &Opt) {
    for (const char *A : {"-Xclang", "-mllvm", "-Xclang"})
      Added.push_back(A);
    Added.push_back(Opt);
  }
};

/// Who this program is and which stock driver it stands for. "clang -cc1
/// ..." and friends are the frontend's own command lines, not the driver's:
/// they go to the stock clang unchanged, and take no driver flags.
void start(Invocation &I, int Argc, const char **Argv) {
  I.Self = sys::fs::getMainExecutable(
      Argv[0], reinterpret_cast<void *>(&validateListFile));
  bool CXX = sys::path::filename(Argv[0]).contains("++");
  I.Prog = CXX ? "clang++" : "clang";
  I.RealDriver = CACS_LLVM_BINDIR;
  sys::path::append(I.RealDriver, CXX ? "clang++" : "clang");
  I.Args = ArrayRef(Argv + 1, Argc - 1);

  if (Argc > 1 && StringRef(Argv[1]).starts_with("-cc1")) {
    std::vector<const char *> Same(Argv, Argv + Argc);
    Same[0] = I.RealDriver.c_str();
    Same.push_back(nullptr);
    execv(I.RealDriver.c_str(), const_cast<char *const *>(Same.data()));
    fatal(I.Prog, "cannot run '" + I.RealDriver + "': " + std::strerror(errno));
  }
}

/// Reads the cacs flags and what else the front door must know. It looks
/// into response files too: a cacs flag may hide there. If one does, the
/// command line passed on goes into a response file of our own (it may be
/// too long for execv); otherwise the original command line goes on
/// unchanged.
void parseCommandLine(Invocation &I) {
  SmallVector<const char *, 64> Expanded(I.Args.begin(), I.Args.end());
  std::string ExpandError =
      cacs::expandResponseFiles(Expanded, I.Alloc, *vfs::getRealFileSystem());
  if (!ExpandError.empty()) // clang will report it too.
    errs() << ExpandError << "\n";
  I.FromResponseFile =
      Expanded.size() != I.Args.size() ||
      !std::equal(
          Expanded.begin(), Expanded.end(), I.Args.begin(),
          [](const char *A, const char *B) { return StringRef(A) == B; });

  std::string Error;
  I.Rest = cacs::scanArguments(Expanded, I.F, Error);
  if (!Error.empty())
    fatal(I.Prog, Error);
  if (!I.F.FoundCACSFlag) {
    I.Rest.assign(I.Args.begin(), I.Args.end());
    I.FromResponseFile = false;
  }
}

/// The architecture libcacs calls the command's target (the name of its
/// library directory), or empty if libcacs is not built for it: x86-64 and
/// AArch64 Linux, little-endian, LP64.
std::string runtimeArch(const CACSFlags &F) {
  Triple T(F.Target.empty() ? sys::getDefaultTargetTriple()
                            : Triple::normalize(F.Target));
  if (F.OtherABI || !T.isOSLinux() || T.isArch32Bit())
    return "";
  if (T.getArch() == Triple::x86_64 && T.getEnvironment() != Triple::GNUX32)
    return "x86_64";
  if (T.getArch() == Triple::aarch64 && T.getEnvironment() != Triple::GNUILP32)
    return "aarch64";
  return "";
}

/// Does one of \p Dirs hold \p File?
bool anyHolds(ArrayRef<std::string> Dirs, StringRef File) {
  return any_of(Dirs, [&](const std::string &D) {
    SmallString<256> P(D);
    sys::path::append(P, File);
    return sys::fs::exists(P);
  });
}

/// Where libcacs is for this command's target, as clang finds its own
/// runtimes: in the build tree this front door was built in (the headers in
/// the source tree, each architecture's libraries in runtime/<arch>), or in
/// the prefix it was installed to (P/include; P/lib for the architecture it
/// runs on, P/lib/<arch>-linux-gnu for another). Only what exists, and only
/// what the command does not give already.
void findRuntime(Invocation &I) {
  std::string Arch = runtimeArch(I.F);
  if (Arch.empty())
    return;
  SmallString<256> Root(sys::path::parent_path(sys::path::parent_path(I.Self)));
  SmallString<256> Include, Lib(Root);
  if (sys::fs::equivalent(Root, CACS_BUILD_DIR)) {
    Include = CACS_RUNTIME_INCLUDE_DIR;
    sys::path::append(Lib, "runtime", Arch);
  } else {
    Include = Root;
    sys::path::append(Include, "include");
    sys::path::append(Lib, "lib");
    if (Arch != CACS_HOST_ARCH)
      sys::path::append(Lib, Arch + "-linux-gnu");
  }
  std::string Header =
      (Twine("cacs") + sys::path::get_separator() + "coro.h").str();
  if (!I.F.NoStdInc && anyHolds({std::string(Include)}, Header) &&
      !anyHolds(I.F.IncludeDirs, Header))
    I.RuntimeInclude = std::string(Include);
  if (anyHolds({std::string(Lib)}, "libcacs.a") &&
      !anyHolds(I.F.LibraryDirs, "libcacs.a"))
    I.RuntimeLib = std::string(Lib);
}

/// What follows from the flags: the settings the command line does not
/// spell, the lists' texts (each checked), and the settings pragma, which
/// preprocessed inputs must match.
void decide(Invocation &I) {
  CACSFlags &F = I.F;
  // Only a command that compiles and links knows the link's -z now. A
  // full-LTO link runs the passes again in lld, which cannot be told.
  F.flag(cacs::SettingID::LinkBindsNow) =
      !F.NoLink && !F.AnyLTO && cacs::linksBindNow(F.LinkerArgs);

  for (const std::string &L : F.ListFiles)
    I.ListTexts.push_back(validateListFile(I.Prog, L));
  if (F.ListFiles.size() > MaxListFiles)
    fatal(I.Prog, "more than " + Twine(MaxListFiles) +
                      " '-fpreserve-none-list=' files; merge some of them");
  // A list is named by its normalized path everywhere, as the passes will
  // record it.
  for (const std::string &L : F.ListFiles)
    I.Lists.push_back(cacs::normalizeListPath(L));

  I.Pragma = F.FoundCACSFlag ? settingsPragma(F, I.ListTexts) : "";
  checkPreprocessedInputs(I.Prog, I.Rest, I.Pragma);
  findRuntime(I);
}

/// Loads the plugins into every compile job, and defines the macros code
/// compiled by cacs may test.
void addPluginsAndMacros(Invocation &I) {
  I.PassPlugin = siblingPath(I.Self, "lib", "CACSPasses.so");
  I.Added.push_back("-fplugin=" +
                    siblingPath(I.Self, "lib", "CACSClangPlugin.so"));
  I.Added.push_back("-fpass-plugin=" + I.PassPlugin);
  // Code compiled by cacs may rely on what its passes guarantee: libcacs's
  // cacs_yield leaves the base pointer to the safety pass's shields, and
  // binds to an entry that saves it where __CACS__ is not defined. A macro
  // (not a plugin predefine) so that -E output, which ccache and distcc
  // compile, sees it too; unused by assembler and link jobs.
  I.Added.push_back("--start-no-unused-arguments");
  I.Added.push_back("-D" CACS_CONTRACT_MACRO_CACS "=1");
  // cacs/coro.h binds cacs_yield() to the entry that does not save rbp when
  // the setting asks for the empty list (it checks for x86-64 and LLVM 22
  // itself: the setting is an error or has no effect elsewhere). Not under
  // ThinLTO, whose backends do not run the pass that keeps callers that
  // keep rbp from jumping to that entry.
  const cacs::Setting &CS =
      cacs::setting(cacs::SettingID::PreserveNoneCalleeSaved);
  bool ThinLTO = I.F.AnyLTO && !I.F.FullLTO;
  if (CS.Choices[I.F.choice(CS.ID)] == "none" && !ThinLTO)
    I.Added.push_back("-D" CACS_CONTRACT_MACRO_CALLEE_SAVED_NONE "=1");
  I.Added.push_back("--end-no-unused-arguments");
}

/// The settings, spelled as the table of Settings.def says: as plugin
/// arguments; and where cc1 compiles IR, whose clang plugin never sees its
/// arguments (IR inputs, -save-temps), as -mllvm options too, given with
/// -Xclang: a plain -mllvm would also reach the assembler (cc1as) and lld,
/// which know no cacs option.
void addSettingArguments(Invocation &I) {
  const CACSFlags &F = I.F;
  bool CC1CompilesIR = F.HasIRInput || F.SaveTemps;
  for (const cacs::Setting &S : cacs::Settings) {
    if (S.isList()) {
      for (const std::string &L : I.Lists) {
        I.Added.push_back("-fplugin-arg-cacs-" + S.name().str() + "=" + L);
        if (CC1CompilesIR)
          I.addMLLVM("-" + S.OptionName.str() + "=" + L);
      }
      continue;
    }
    if (S.isChoice()) {
      unsigned C = F.Choice[static_cast<unsigned>(S.ID)];
      if (C == 0)
        continue;
      I.Added.push_back("-fplugin-arg-cacs-" + S.name().str() + "=" +
                        S.Choices[C].str());
      if (CC1CompilesIR)
        I.addMLLVM("-" + S.OptionName.str() + "=" + S.Choices[C].str());
      continue;
    }
    bool On = F.Flag[static_cast<unsigned>(S.ID)];
    if (On == S.Default)
      continue;
    I.Added.push_back("-fplugin-arg-cacs-" + std::string(On ? "" : "no-") +
                      S.name().str());
    if (CC1CompilesIR)
      I.addMLLVM("-" + S.OptionName.str() + (On ? "" : "=false"));
  }
}

/// The lists are inputs of the compilation: name them in -MD output, as
/// clang does for -fsanitize-ignorelist= files, by their absolute path, and
/// also as the command line does when that differs (relative to the working
/// directory, like the source file): ccache's depend mode, which hashes
/// what -MD names, must not take another directory's list for this one.
/// (-Xclang reaches cc1 only, never cc1as.)
void addDepFileEntries(Invocation &I) {
  if (!I.F.DepFile)
    return;
  auto AddDepEntry = [&](const std::string &Path) {
    I.Added.push_back("-Xclang");
    I.Added.push_back("-fdepfile-entry=" + Path);
  };
  for (size_t N = 0; N < I.Lists.size(); ++N) {
    AddDepEntry(I.Lists[N]);
    if (I.F.ListFiles[N] != I.Lists[N])
      AddDepEntry(I.F.ListFiles[N]);
  }
}

/// The settings travel in the translation unit itself, for the tools that
/// only look at the preprocessed source (ccache, sccache, distcc): a forced
/// include puts the settings pragma into it and names every list file in a
/// line marker, as written (relative to the working directory), so that
/// ccache's direct mode hashes the list as an included file.
void addSettingsHeader(Invocation &I) {
  if (I.Pragma.empty())
    return;
  I.Added.push_back("--start-no-unused-arguments");
  I.Added.push_back("-include");
  I.Added.push_back(siblingPath(I.Self, "share/cacs", "cacs-settings.h"));
  I.Added.push_back(("-D" + cacs::SettingsPragmaMacro + "=_Pragma(" +
                     quoteCString("cacs settings " + I.Pragma) + ")")
                        .str());
  for (size_t N = 0; N < I.F.ListFiles.size(); ++N)
    I.Added.push_back(("-D" + cacs::ListFileMacroPrefix + Twine(N + 1) + "=" +
                       quoteCString(I.F.ListFiles[N]))
                          .str());
  I.Added.push_back("--end-no-unused-arguments");
}

/// libcacs's directories (see findRuntime): unused by a compile-only or a
/// link-only job, and no warning then.
void addRuntimeDirs(Invocation &I) {
  if (I.RuntimeInclude.empty() && I.RuntimeLib.empty())
    return;
  I.Added.push_back("--start-no-unused-arguments");
  if (!I.RuntimeInclude.empty())
    I.Added.push_back("-I" + I.RuntimeInclude);
  if (!I.RuntimeLib.empty())
    I.Added.push_back("-L" + I.RuntimeLib);
  I.Added.push_back("--end-no-unused-arguments");
}

/// A full-LTO link runs the cacs passes inside lld; the settings of each
/// compile step travel in the IR.
void addLTOLink(Invocation &I) {
  if (!I.F.AnyLTO || I.F.NoLink)
    return;
  if (!I.F.HasFuseLd)
    I.Added.push_back("-fuse-ld=lld");
  I.Added.push_back("-Wl,--load-pass-plugin=" + I.PassPlugin);
}

/// A link that wraps names (--wrap=NAME) must not miss the calls of code
/// built with a list, which call NAME's preserve_none body, a symbol the
/// wrap does not name: the linker traces that symbol, and runLink refuses
/// the link if an input references it. Links without --wrap are untouched.
void addWrapTraces(Invocation &I) {
  if (I.F.NoLink || I.F.Version || I.F.Help)
    return;
  I.Wrapped = wrappedNames(I.F.LinkerArgs);
  if (I.Wrapped.empty())
    return;
  I.Added.push_back("--start-no-unused-arguments");
  for (const std::string &N : I.Wrapped)
    I.Added.push_back("-Wl,--trace-symbol=" + tracedBody(N));
  I.Added.push_back("--end-no-unused-arguments");
}

/// -fcacs-stack-bounds: every compile records its frame sizes for the link
/// (cacs-stack-bounds.cpp); unused by a link-only job. The link binds every
/// symbol at load time (-z now): a lazy binding's first call runs the
/// dynamic linker's resolver, which saves the vector registers on the
/// caller's stack (kilobytes with AVX-512), and libcacs's switches call the
/// C library on the coroutine's stack, within a budget that has no room
/// for it (cacs/detail/contract.h).
void addStackSizes(Invocation &I) {
  if (!I.F.flag(cacs::SettingID::StackBounds))
    return;
  for (const char *A : {"--start-no-unused-arguments", "-fstack-size-section",
                        "-Wl,-z,now", "--end-no-unused-arguments"})
    I.Added.push_back(A);
}

void buildCommand(Invocation &I) {
  addPluginsAndMacros(I);
  addStackSizes(I);
  addSettingArguments(I);
  addDepFileEntries(I);
  addSettingsHeader(I);
  addLTOLink(I);
  addRuntimeDirs(I);
  addWrapTraces(I);
}

/// A link with -fcacs-stack-bounds (cacs-stack-bounds.cpp): it waits for
/// the link, proves the entries' bounds and links again with their table.
int linkWithStackBounds(Invocation &I, ArrayRef<StringRef> Args,
                        const LinkWatch &W) {
  cacs::StackBoundsLink L;
  L.Prog = I.Prog;
  L.Driver = I.RealDriver;
  L.Output = I.F.Output;
  L.Target = I.F.Target;
  for (StringRef A : I.Rest) {
    if (A.consume_front("-Rpass="))
      L.Pass = A.str();
    else if (A.consume_front("-Rpass-missed="))
      L.Missed = A.str();
    else if (A.starts_with("-fsanitize=") && L.NoBounds.empty())
      L.NoBounds = "a sanitizer's runtime runs on the coroutine stacks "
                   "unseen (" +
                   A.str() + ")";
  }
  if (I.F.AnyLTO)
    L.NoBounds = "under -flto the frame sizes are the link's own code "
                 "generation, which the front door does not see";
  return cacs::linkWithStackBounds(L, Args, [&](ArrayRef<StringRef> A) {
    if (I.FromResponseFile)
      return runWithResponseFile(I.Prog, I.RealDriver, A, W);
    if (!W.empty())
      return runLink(I.Prog, I.RealDriver, A, W);
    return runAndWait(I.Prog, I.RealDriver, A);
  });
}

/// Runs the stock driver with our arguments first (after a user's "--" they
/// would be inputs), then the user's.
int run(Invocation &I) {
  std::vector<StringRef> NewArgs;
  NewArgs.push_back(I.RealDriver);
  NewArgs.insert(NewArgs.end(), I.Added.begin(), I.Added.end());
  // A link with lists or wraps: watch it (runLink). Its messages then
  // pass through a pipe: keep clang's colours where it would have chosen
  // them.
  LinkWatch W;
  if (!I.F.NoLink && !I.F.Version && !I.F.Help) {
    W.Lists = I.F.ListFiles;
    W.ListTexts = I.ListTexts;
  }
  // A full-LTO link's list pass warns about unused entries itself.
  W.CheckUnused = !I.F.FullLTO;
  for (StringRef A : I.Rest) {
    if (A == "-Werror" || A == "-Wno-error")
      W.WarningsAreErrors = A == "-Werror";
    W.NoWarnings |= A == "-w";
  }
  W.Wrapped = I.Wrapped;
  W.Output = I.F.Output;
  if (!W.empty() && sys::Process::StandardErrHasColors() &&
      none_of(I.Rest, [](StringRef A) {
        return A.starts_with("-fcolor-diagnostics") ||
               A.starts_with("-fno-color-diagnostics") ||
               A.starts_with("-fdiagnostics-color") ||
               A.starts_with("-fno-diagnostics-color");
      }))
    NewArgs.insert(NewArgs.end(),
                   {"--start-no-unused-arguments", "-fcolor-diagnostics",
                    "--end-no-unused-arguments"});
  NewArgs.insert(NewArgs.end(), I.Rest.begin(), I.Rest.end());

  // --version: clang's banner first (tools such as Meson read its first
  // line), then cacs's own line.
  if (I.F.Version) {
    int RC = runAndWait(I.Prog, I.RealDriver, NewArgs);
    outs() << "cacs version " << CACS_VERSION << " (" << CACS_BUILD_ID
           << ", preserve_none toolchain) on LLVM " << CACS_LLVM_VERSION << " ("
           << CACS_LLVM_BINDIR << ")\n";
    return RC;
  }
  // --help: clang's options, then the cacs flags.
  if (I.F.Help) {
    int RC = runAndWait(I.Prog, I.RealDriver, NewArgs);
    outs() << "\nCACS OPTIONS (cacs " << CACS_VERSION
           << "; the front door also adds libcacs's include and library "
              "directories):\n";
    cacs::printFrontDoorFlags(outs(), cacs::HelpFormat::Text);
    return RC;
  }
  if (I.F.flag(cacs::SettingID::StackBounds) && !I.F.NoLink &&
      !is_contained(I.Rest, StringRef("-###")))
    return linkWithStackBounds(I, NewArgs, W);
  if (I.FromResponseFile)
    return runWithResponseFile(I.Prog, I.RealDriver, NewArgs, W);
  if (!W.empty())
    return runLink(I.Prog, I.RealDriver, NewArgs, W);
  execArgs(I.Prog, I.RealDriver, NewArgs);
}

} // namespace

int main(int Argc, const char **Argv) {
  Invocation I;
  start(I, Argc, Argv);
  parseCommandLine(I);
  decide(I);
  buildCommand(I);
  return run(I);
}
