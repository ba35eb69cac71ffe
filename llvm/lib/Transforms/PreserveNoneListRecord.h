//===- PreserveNoneListRecord.h - Lists recorded for LTO --------*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The record format of the lists in a module (named metadata
// !cacs.preserve_none_lists, one !{!"<path>", !"<text>"} per
// list): written per TU, read back by the full-LTO link, which sees no
// command-line option.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_TRANSFORMS_PRESERVENONELISTRECORD_H
#define CACS_LIB_TRANSFORMS_PRESERVENONELISTRECORD_H

#include "PreserveNoneListMatch.h"

namespace llvm {
class MDNode;
class Module;
} // namespace llvm

namespace cacs {
namespace list {

/// The named metadata in which the per-TU run records the lists it applied,
/// one operand per list: !{!"<path>", !"<text>"}. The full-LTO link re-reads
/// them from the merged module.
inline constexpr const char *PreserveNoneListsMD = "cacs.preserve_none_lists";

/// A list as recorded in a module.
struct RecordedList {
  StringRef Path, Text, Used;
};

/// The list an operand of the named metadata records, if it is one.
std::optional<RecordedList> readRecord(const MDNode *N);

/// Marks the entries of L on the given lines ("2,5,9") used.
void markUsedLines(ListFile &L, StringRef Lines);

/// Records the lists in M, once each, with the entries they matched (and
/// those an earlier record of the same list matched).
void recordLists(Module &M, ArrayRef<std::unique_ptr<ListFile>> Lists);

} // namespace list
} // namespace cacs

#endif // CACS_LIB_TRANSFORMS_PRESERVENONELISTRECORD_H
