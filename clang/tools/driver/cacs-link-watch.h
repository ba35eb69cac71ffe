//===- cacs-link-watch.h - The front door's link watcher --------*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// A link with lists, or with --wrap, runs as a child of the front door, which
// watches its messages: to explain a listed function's undefined body, and to
// refuse a --wrap that would miss the calls of code built with a list.
// cacs-link-watch.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_DRIVER_LINKWATCH_H
#define CACS_DRIVER_LINKWATCH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace cacs {

/// What runLink watches a link for: the lists of the command line, to
/// explain a listed function whose preserve_none body no input defines
/// (explainUndefined); and the names the link wraps (--wrap), each traced
/// as its preserve_none body (--trace-symbol, added by run), to refuse a
/// wrap that would miss the calls of code built with a list.
///
/// After a link that succeeded, with \c CheckUnused, it also reads the
/// records of the lists' matched lines that the compiles left in the output
/// (ListLinesSection) and warns at each entry of a list that no object of
/// the link matched (checkUnusedEntries).
struct LinkWatch {
  llvm::ArrayRef<std::string> Lists;
  llvm::ArrayRef<std::string> ListTexts; ///< The text of each of Lists.
  llvm::ArrayRef<std::string> Wrapped;
  llvm::StringRef Output; ///< The link's output file, removed when refused.
  /// Warn about the entries no object of the link matched: not at a
  /// full-LTO link, where the list pass warns with the whole program in
  /// view.
  bool CheckUnused = false;
  bool WarningsAreErrors = false; ///< -Werror: the warnings fail the link.
  bool NoWarnings = false;        ///< -w.
  bool empty() const { return Lists.empty() && Wrapped.empty(); }
};

/// After a link that wrote \p Output: a warning (an error with
/// W.WarningsAreErrors) at each entry of each of W.Lists that no object of
/// the link matched, if an object applied the list. Returns whether it
/// reported an error.
bool checkUnusedEntries(llvm::StringRef Output, const LinkWatch &W);

/// The names the linker arguments wrap: --wrap=NAME, --wrap NAME, and the
/// same with one dash, as GNU ld and lld take them.
std::vector<std::string> wrappedNames(llvm::ArrayRef<std::string> LinkerArgs);

/// The symbol --trace-symbol traces for a wrapped name: its preserve_none
/// body.
std::string tracedBody(llvm::StringRef Name);

/// Runs \p Driver with \p Args and waits for it, as the front door's
/// runAndWait does, but passes the driver's standard error (and, with
/// wrapped names, its standard output) on through pipes, line by line, to
/// watch the link (LinkWatch). A driver that dies of a signal makes this
/// process die of it too, as after an exec.
int runLink(llvm::StringRef Prog, llvm::StringRef Driver,
            llvm::ArrayRef<llvm::StringRef> Args, const LinkWatch &W);

} // namespace cacs

#endif // CACS_DRIVER_LINKWATCH_H
