//===- StackFrame.h - Stack frame facts the passes share --------*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_STACKFRAME_H
#define CACS_STACKFRAME_H

namespace llvm {
class Function;
} // namespace llvm

namespace cacs {

/// May \p F allocate stack dynamically (a dynamic alloca, stacksave or
/// stackrestore, or inline assembly that moves the stack pointer), now or
/// after the instrumentation that runs after the cacs passes (AddressSanitizer
/// gives a frame with locals a realigned dynamic frame of its own)? The
/// backends may then address its frame through a base pointer (rbx on
/// x86-64, x19 on AArch64), which does not go together with preserve_none:
///  - x86-64, LLVM 19: a preserve_none function that also realigns its stack
///    stops with "Stack realignment in presence of dynamic allocas is not
///    supported with this calling convention";
///  - x86-64 LLVM 19, and AArch64 LLVM 19 and 22: a function using a base
///    pointer keeps it live across a call to a preserve_none function
///    without saving it, though the callee may clobber it. On AArch64 a
///    variable-sized object with 256 bytes of locals is enough: no
///    realignment is needed for the base pointer.
/// Whether realignment or the base pointer happens is decided in the backend
/// (over-aligned spill slots count too), so callers treat any dynamic stack
/// as a possible base pointer.
bool mayHaveDynamicStack(const llvm::Function &F);

} // namespace cacs

#endif // CACS_STACKFRAME_H
