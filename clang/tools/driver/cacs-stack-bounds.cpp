//===- cacs-stack-bounds.cpp - Stack bounds of coroutine entries ----------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// A bound is proven from the linked program, not from the IR: the machine
// code holds every call the backend added or removed (libcalls for memcpy,
// __stack_chk_fail, tail calls), and the backend's .stack_sizes (from
// -fstack-size-section) the frame of each function. For an entry E:
//
//   bound(F) = max(frame(F) + max(below(F), max over the functions C
//                  that F calls (or jumps to where the depths below do
//                  not hold) of bound(C)),
//                  max over the functions C that F only jumps to (tail
//                  calls) of depth(F at the jump) + bound(C))
//   frame(F) = the deepest the stack pointer goes in F below its value
//              at F's entry, followed instruction by instruction along
//              every path of F's code (deepest(): pushes, decrements and
//              their undoing, the frame pointer's restores), at least the
//              .stack_sizes size of F
//              + the return address its caller pushed (x86-64: 8)
//              or, where that walk of paths does not hold (two paths
//              meet at different depths, a realignment, code no path
//              reaches that moves the stack pointer), the .stack_sizes
//              size (at least the decrements of the leading prologue run)
//              + every stack-pointer decrement after the prologue
//              + the return address
//
// A tail call runs its target from F's own return address, at the depth
// of the jump (0 for a tail call proper): on x86-64 the target's bound
// counts that return address, which frame(F) counts too, so the jump
// counts its depth and the target's bound, not F's whole frame above it.
//
// The paths' depth is what counts a shrink-wrapped frame once: the
// backend's prologue (the pushes of callee-saved registers, the
// decrement) may sit after an early exit, past F's first instruction,
// where the fallback counts its pushes as decrements after the prologue
// and again in the frame size.
//   below(F) = the red zone F may use below its stack pointer: 128 on
//              x86-64 when F makes no call, else 0
//   bytes(E) = bound(E)
//
// The red zone is a leaf's alone: a call writes its return address right
// below the stack pointer, so the compiler keeps nothing there in a
// function that calls (LLVM's prologue uses the red zone only without
// calls; the walk sees only LLVM's code: .stack_sizes), and a signal
// never lands on an exact stack (its policy, stack_bounds.c). So the 128
// bytes count where a leaf runs, not below the deepest call: an entry
// whose deepest path ends in a budgeted wait (a server that parks) needs
// its frames and the budget alone, which counts what libcacs writes below
// its caller, red zones included (the budget tests' watermark).
//
// Anything the walk cannot follow leaves E without a bound, and the
// reason names the function: a call or a jump through a register or
// memory (function pointers, callbacks, jump tables), a call of code
// without a frame size (a shared library's function through the PLT,
// assembly, code built without the flag), a function that allocates
// stack dynamically (its .stack_sizes entry is missing; the compile's
// record says why), inline assembly, recursion, an instruction that moves
// the stack pointer other than the known ways, and code that does not
// decode. docs/hazards.md ("Stack bounds") lists what the bound assumes.
//
// A function whose declaration states its stack budget (libcacs's switches
// and waits, cacs_on_system_stack: StackBoundBudgetsSection, from
// cacs/detail/contract.h) is not walked: bound(F) is its budget, which
// counts everything it runs on the caller's stack, return address
// included. So an entry that yields or waits has a bound, and a C library
// call moved to the system stack (CACS_ON_SYSTEM_STACK) costs only what
// cacs_on_system_stack runs on the coroutine's stack.
//
//===----------------------------------------------------------------------===//

#include "cacs-stack-bounds.h"

#include "cacs-compiler/StackBound.h"
#include "cacs-compiler/SwitchReturns.h"
#include "cacs-compiler/SwitchSiteJump.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrAnalysis.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/DataExtractor.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <iterator>
#include <map>
#include <memory>
#include <unordered_map>

using namespace llvm;
using namespace llvm::object;
using namespace cacs;

namespace {

/// A function of the program: its symbol's name, extent and bytes.
struct Func {
  std::string Name;
  uint64_t Address = 0, Size = 0;
  ArrayRef<uint8_t> Bytes;
};

/// What the walk knows of a function: its bound, or why it has none.
struct Result {
  std::optional<uint64_t> Bytes;
  std::string Why; ///< Names the function that breaks the bound.
};

class Analysis {
public:
  Analysis(const ELF64LEObjectFile &Obj) : Obj(Obj) {}
  bool init(std::string &Error);
  std::vector<StackBound> run();

private:
  const ELF64LEObjectFile &Obj;
  bool X86 = false;
  // Every key below is an address the program names, and a malformed one
  // can name any: DenseMap keeps two keys (~0 and ~0 - 1) for itself, and
  // asserts on them, so none of these maps is one (fuzz-stack-bounds).
  std::map<uint64_t, Func> Funcs; ///< By address.
  std::unordered_map<uint64_t, uint64_t> Frames;
  std::unordered_map<uint64_t, StackBoundBreak> Breaks;
  std::unordered_map<uint64_t, uint64_t> Budgets;
  std::unordered_map<uint64_t, std::string> PltNames;
  std::vector<uint64_t> Entries;
  std::unordered_map<uint64_t, Result> Done;
  std::unordered_map<uint64_t, bool> OnPath;

  std::unique_ptr<MCRegisterInfo> MRI;
  std::unique_ptr<MCAsmInfo> MAI;
  std::unique_ptr<MCSubtargetInfo> STI;
  std::unique_ptr<MCInstrInfo> MII;
  std::unique_ptr<MCContext> Ctx;
  std::unique_ptr<MCDisassembler> Dis;
  std::unique_ptr<MCInstrAnalysis> MIA;
  MCRegister SP, FP;
  /// The addresses of the entries whose calls -fswitch-site-jumps lowers,
  /// and of their jump entries (SwitchSiteJump.h), or 0.
  uint64_t EntryAt[std::size(JumpEnteredEntries)] = {};
  uint64_t JumpAt[std::size(JumpEnteredEntries)] = {};

  void readSections();
  const Func *functionAt(uint64_t Address) const;
  std::string nameOf(uint64_t Address) const;
  Result walk(uint64_t Address);
  /// The functions a function jumps to (tail calls) and never calls, with
  /// the deepest its stack pointer is at those jumps.
  using JumpDepths = std::map<uint64_t, uint64_t>;
  Result frameOf(const Func &F, std::vector<uint64_t> &Callees, bool &Calls,
                 JumpDepths &Jumps);
  bool stackMove(const MCInst &I, bool InPrologue, uint64_t &Lead,
                 uint64_t &Extra, bool &Prologue) const;
  /// One decoded instruction of a function.
  struct Inst {
    MCInst I;
    uint64_t PC, Len;
  };
  /// The stack pointer's depth below the function's entry, and the frame
  /// pointer's when a path set it from the stack pointer.
  struct Depth {
    int64_t SP = 0;
    std::optional<int64_t> FP;
    bool operator==(const Depth &O) const { return SP == O.SP && FP == O.FP; }
  };
  bool depthMove(const MCInst &I, Depth &D) const;
  std::optional<uint64_t> deepest(const Func &F, const std::vector<Inst> &Code,
                                  JumpDepths &Jumps) const;
};

bool Analysis::init(std::string &Error) {
  Triple T = Obj.makeTriple();
  X86 = T.getArch() == Triple::x86_64;
  if (!X86 && T.getArch() != Triple::aarch64) {
    Error = "not an x86-64 or AArch64 program";
    return false;
  }
  // Only the two targets cacs supports: the front door links just their
  // MC libraries (clang/CMakeLists.txt).
  if (X86) {
    LLVMInitializeX86TargetInfo();
    LLVMInitializeX86TargetMC();
    LLVMInitializeX86Disassembler();
  } else {
    LLVMInitializeAArch64TargetInfo();
    LLVMInitializeAArch64TargetMC();
    LLVMInitializeAArch64Disassembler();
  }
#if LLVM_VERSION_MAJOR >= 22
  const Triple &TT = T;
#else
  std::string TT = T.str();
#endif
  const Target *TheTarget = TargetRegistry::lookupTarget(TT, Error);
  if (!TheTarget)
    return false;
  MRI.reset(TheTarget->createMCRegInfo(TT));
  MCTargetOptions Options;
  MAI.reset(TheTarget->createMCAsmInfo(*MRI, TT, Options));
  // Every feature the architecture has: the walk must decode whatever the
  // program was built for.
  STI.reset(TheTarget->createMCSubtargetInfo(TT, "", X86 ? "" : "+all"));
  MII.reset(TheTarget->createMCInstrInfo());
  if (!MRI || !MAI || !STI || !MII) {
    Error = "no disassembler for " + T.str();
    return false;
  }
  Ctx = std::make_unique<MCContext>(T, MAI.get(), MRI.get(), STI.get());
  Dis.reset(TheTarget->createMCDisassembler(*STI, *Ctx));
  MIA.reset(TheTarget->createMCInstrAnalysis(MII.get()));
  if (!Dis || !MIA) {
    Error = "no disassembler for " + T.str();
    return false;
  }
  for (unsigned R = 1; R < MRI->getNumRegs(); ++R) {
    StringRef N = MRI->getName(R);
    if (N == (X86 ? "RSP" : "SP"))
      SP = R;
    if (N == (X86 ? "RBP" : "FP"))
      FP = R;
  }
  readSections();
  return true;
}

void Analysis::readSections() {
  for (const ELFSymbolRef &S : Obj.symbols()) {
    Expected<SymbolRef::Type> Ty = S.getType();
    Expected<uint64_t> Addr = S.getAddress();
    Expected<StringRef> Name = S.getName();
    Expected<section_iterator> Sec = S.getSection();
    if (!Ty || !Addr || !Name || !Sec || *Ty != SymbolRef::ST_Function ||
        *Sec == Obj.section_end() || !S.getSize()) {
      if (!Ty)
        consumeError(Ty.takeError());
      if (!Addr)
        consumeError(Addr.takeError());
      if (!Name)
        consumeError(Name.takeError());
      if (!Sec)
        consumeError(Sec.takeError());
      continue;
    }
    Expected<StringRef> Contents = (*Sec)->getContents();
    if (!Contents) {
      consumeError(Contents.takeError());
      continue;
    }
    // The return thunk of functions that can switch (SwitchReturns.h):
    // `pop; jmp *`, a return, which uses no stack (any definition of it
    // is a return). Its indirect jump would break every such bound.
    if (*Name == ReturnThunkName)
      Budgets[*Addr] = 0;
    for (size_t I = 0; I < std::size(JumpEnteredEntries); ++I) {
      if (*Name == JumpEnteredEntries[I].Entry)
        EntryAt[I] = *Addr;
      if (*Name == JumpEnteredEntries[I].Jump)
        JumpAt[I] = *Addr;
    }
    uint64_t Offset = *Addr - (*Sec)->getAddress();
    if (Offset + S.getSize() > Contents->size() || Funcs.count(*Addr))
      continue;
    Func F;
    F.Name = Name->str();
    F.Address = *Addr;
    F.Size = S.getSize();
    F.Bytes = arrayRefFromStringRef(Contents->substr(Offset, F.Size));
    Funcs[*Addr] = std::move(F);
  }
  for (const SectionRef &S : Obj.sections()) {
    Expected<StringRef> Name = S.getName();
    Expected<StringRef> Data = S.getContents();
    if (!Name || !Data) {
      if (!Name)
        consumeError(Name.takeError());
      if (!Data)
        consumeError(Data.takeError());
      continue;
    }
    DataExtractor D(*Data, /*IsLittleEndian=*/true, 8);
    DataExtractor::Cursor C(0);
    if (*Name == ".stack_sizes") {
      while (C && !D.eof(C)) {
        uint64_t Addr = D.getU64(C);
        uint64_t Size = D.getULEB128(C);
        // Two at one address (identical code folded): the larger.
        if (C)
          Frames[Addr] = std::max(Frames[Addr], Size);
      }
    } else if (*Name == StackBoundEntriesSection) {
      while (C && !D.eof(C)) {
        uint64_t Addr = D.getU64(C);
        if (C && Funcs.count(Addr) && !is_contained(Entries, Addr))
          Entries.push_back(Addr);
      }
    } else if (*Name == StackBoundBudgetsSection) {
      while (C && !D.eof(C)) {
        uint64_t Addr = D.getU64(C);
        uint64_t Bytes = D.getU64(C);
        // Two units may state it: the larger. An undefined weak
        // declaration resolves to 0, where no function is. A budget past
        // any stack is no budget (and would wrap the sums).
        if (C && Addr && Bytes <= (uint64_t(1) << 32))
          Budgets[Addr] = std::max(Budgets[Addr], Bytes);
      }
    } else if (*Name == StackBoundBreaksSection) {
      while (C && !D.eof(C)) {
        uint64_t Addr = D.getU64(C);
        uint8_t Why = D.getU8(C);
        if (C)
          Breaks[Addr] = static_cast<StackBoundBreak>(Why);
      }
    }
    consumeError(C.takeError());
  }
  sort(Entries);
  // A jump entry is its entry's switch, jumped to from a site the compile
  // lowered after it recorded the call of the entry with its budget
  // (SwitchSiteJump.cpp): the same budget, and where the sites keep no
  // call's alignment (JumpEnteredEntry::AlignedSite) the word of the call
  // by which the entry's slow branch realigns (yield_x86_64.S).
  for (size_t I = 0; I < std::size(JumpEnteredEntries); ++I) {
    auto Entry = Budgets.find(EntryAt[I]);
    if (JumpAt[I] && EntryAt[I] && Entry != Budgets.end())
      Budgets[JumpAt[I]] =
          std::max(Budgets[JumpAt[I]],
                   Entry->second + (JumpEnteredEntries[I].AlignedSite ? 0 : 8));
  }
#if LLVM_VERSION_MAJOR >= 20
  std::vector<ELFPltEntry> Plt = Obj.getPltEntries(*STI);
#else
  std::vector<ELFPltEntry> Plt = Obj.getPltEntries();
#endif
  for (const ELFPltEntry &E : Plt) {
    if (!E.Symbol)
      continue;
    ELFSymbolRef Sym(SymbolRef(*E.Symbol, &Obj));
    if (Expected<StringRef> N = Sym.getName())
      PltNames[E.Address] = (*N + "@plt").str();
    else
      consumeError(N.takeError());
  }
}

const Func *Analysis::functionAt(uint64_t Address) const {
  auto It = Funcs.upper_bound(Address);
  if (It == Funcs.begin())
    return nullptr;
  --It;
  if (Address >= It->second.Address + It->second.Size)
    return nullptr;
  return &It->second;
}

std::string Analysis::nameOf(uint64_t Address) const {
  if (const Func *F = functionAt(Address))
    return F->Address == Address
               ? F->Name
               : (F->Name + "+0x" + utohexstr(Address - F->Address));
  auto P = PltNames.find(Address);
  if (P != PltNames.end())
    return P->second;
  return "0x" + utohexstr(Address);
}

/// Operand \p N of \p I, a register (or none) or an immediate (or 0).
static MCRegister regOperand(const MCInst &I, unsigned N) {
  if (N < I.getNumOperands() && I.getOperand(N).isReg())
    return I.getOperand(N).getReg();
  return MCRegister();
}
static int64_t immOperand(const MCInst &I, unsigned N) {
  return N < I.getNumOperands() && I.getOperand(N).isImm()
             ? I.getOperand(N).getImm()
             : 0;
}

/// How \p I moves the stack pointer, if it does: a decrement of the
/// prologue (the leading run of prologue instructions) goes into \p Lead,
/// which the frame size holds; any other into \p Extra. \p Prologue ends
/// at the first instruction that is not a prologue's.
/// Returns false for a move the walk does not follow.
bool Analysis::stackMove(const MCInst &I, bool InPrologue, uint64_t &Lead,
                         uint64_t &Extra, bool &Prologue) const {
  StringRef Op = MII->getName(I.getOpcode());
  const MCInstrDesc &Desc = MII->get(I.getOpcode());
  bool DefsSP = Desc.hasDefOfPhysReg(I, SP, *MRI);
  auto Reg = [&](unsigned N) { return regOperand(I, N); };
  auto Imm = [&](unsigned N) { return immOperand(I, N); };
  // A decrement: the prologue's (\p Lead) if a prologue's kind in the
  // leading run of them; extra otherwise (set PrologueKind first).
  bool PrologueKind = false;
  auto Down = [&](uint64_t Bytes) {
    (InPrologue && PrologueKind ? Lead : Extra) += Bytes;
  };
  bool Known = true;
  if (X86) {
    if (Op == "ENDBR64") {
      PrologueKind = true;
    } else if (Op.starts_with("PUSH")) {
      PrologueKind = Op == "PUSH64r";
      Down(8);
    } else if (Op.starts_with("POP") || Op.starts_with("LEAVE")) {
      // Increments.
    } else if (Op == "MOV64rr" && Reg(0) == FP && Reg(1) == SP) {
      PrologueKind = true;
    } else if (!DefsSP) {
      // Not a move of the stack pointer.
    } else if (Op.starts_with("SUB64ri") && Reg(0) == SP) {
      PrologueKind = true;
      Down(Imm(2) < 0 ? 0 : Imm(2));
      if (Imm(2) < 0)
        Known = false;
    } else if (Op.starts_with("ADD64ri") && Reg(0) == SP) {
      if (Imm(2) < 0)
        Extra += -Imm(2);
    } else if (Op.starts_with("AND64ri") && Reg(0) == SP && Imm(2) < 0) {
      Extra += -Imm(2); // Realignment: up to this much lower.
    } else if (Op == "MOV64rr" && Reg(0) == SP && Reg(1) == FP) {
      // The epilogue's restore.
    } else if (Op == "LEA64r" && Reg(0) == SP && Reg(1) == FP && !Reg(3)) {
      // The epilogue's restore to below the frame pointer.
    } else if (Op == "LEA64r" && Reg(0) == SP && Reg(1) == SP && !Reg(3)) {
      if (Imm(4) < 0)
        Extra += -Imm(4);
    } else {
      Known = false;
    }
  } else {
    bool Pre = Op.ends_with("pre"), Post = Op.ends_with("post");
    if (Op == "HINT" || Op == "PACIASP" || Op == "PACIBSP" ||
        Op.starts_with("BTI")) {
      PrologueKind = true;
    } else if ((Op.starts_with("STP") || Op.starts_with("STR")) && !Pre &&
               !Post && !DefsSP) {
      // Saves of callee-saved registers into the frame.
      PrologueKind = true;
    } else if (Op == "ADDXri" && Reg(0) == FP && Reg(1) == SP) {
      PrologueKind = true; // mov x29, sp
    } else if (!DefsSP) {
    } else if (Pre || Post) {
      // Writeback of the base; the offset is the last operand, scaled by
      // at most 16 (a Q register pair).
      int64_t Off = Imm(I.getNumOperands() - 1);
      PrologueKind = Pre && Op.starts_with("ST");
      if (Off < 0)
        Down(uint64_t(-Off) * 16);
    } else if (Op == "SUBXri" && Reg(0) == SP && Reg(1) == SP) {
      PrologueKind = true;
      Down(uint64_t(Imm(2)) << Imm(3));
    } else if (Op == "ADDXri" && Reg(0) == SP &&
               (Reg(1) == SP || Reg(1) == FP)) {
      // Increments, and the epilogue's restore from the frame pointer.
    } else if (Op == "SUBXri" && Reg(0) == SP && Reg(1) == FP) {
      // The epilogue's restore to below the frame pointer.
    } else {
      Known = false;
    }
  }
  if (!PrologueKind)
    Prologue = false;
  return Known;
}

/// The frame of \p F (see the file comment) and the functions it calls or
/// jumps to, or why it has none; \p Calls: whether it makes a call (a jump
/// is none), so that it may not use the red zone.
Result Analysis::frameOf(const Func &F, std::vector<uint64_t> &Callees,
                         bool &Calls, JumpDepths &Jumps) {
  Calls = false;
  Jumps.clear();
  auto B = Breaks.find(F.Address);
  if (B != Breaks.end())
    return {std::nullopt,
            "'" + F.Name + "' " +
                (B->second == StackBoundBreak::DynamicStack
                     ? "allocates stack dynamically (a variable-length "
                       "array or alloca)"
                     : "contains inline assembly")};
  auto Size = Frames.find(F.Address);
  if (Size == Frames.end())
    return {std::nullopt,
            "'" + F.Name +
                "' has no frame size: it was built without "
                "-fcacs-stack-bounds, is assembly, or allocates stack "
                "dynamically"};
  uint64_t Lead = 0, Extra = 0;
  bool Prologue = true;
  std::vector<Inst> Code;
  std::vector<uint64_t> CallTargets;
  for (uint64_t Off = 0; Off < F.Size;) {
    MCInst I;
    uint64_t Len = 0;
    uint64_t PC = F.Address + Off;
    if (Dis->getInstruction(I, Len, F.Bytes.slice(Off), PC, nulls()) !=
            MCDisassembler::Success ||
        !Len)
      return {std::nullopt, "'" + F.Name + "' has code at 0x" + utohexstr(PC) +
                                " that the walk does not decode"};
    Off += Len;
    Code.push_back({I, PC, Len});
    bool Call = MIA->isCall(I);
    Calls |= Call;
    if (Call || MIA->isBranch(I)) {
      uint64_t Target;
      bool Direct = MIA->evaluateBranch(I, PC, Len, Target);
      if (!Direct)
        return {std::nullopt,
                "'" + F.Name + "' " +
                    (Call ? "makes an indirect call (a function pointer or "
                            "a callback)"
                          : "jumps through a register or memory (a jump "
                            "table or an indirect tail call)")};
      if (!Call && Target >= F.Address && Target < F.Address + F.Size)
        continue;
      if (!is_contained(Callees, Target))
        Callees.push_back(Target);
      if (Call)
        CallTargets.push_back(Target);
      Prologue = false;
      continue;
    }
    if (MIA->isReturn(I)) {
      Prologue = false;
      continue;
    }
    if (!stackMove(I, Prologue, Lead, Extra, Prologue))
      return {std::nullopt, "'" + F.Name +
                                "' moves the stack pointer in a way the "
                                "walk does not follow, at 0x" +
                                utohexstr(PC)};
  }
  if (std::optional<uint64_t> Deepest = deepest(F, Code, Jumps)) {
    // A target also called counts as a call (below the whole frame).
    for (uint64_t T : CallTargets)
      Jumps.erase(T);
    return {std::max(Size->second, *Deepest) + (X86 ? 8 : 0), ""};
  }
  Jumps.clear();
  // The leading decrements are the frame's, but never count for less than
  // they are: an argument pushed before the frame is set up.
  return {std::max(Size->second, Lead) + Extra + (X86 ? 8 : 0), ""};
}

/// How \p I moves the stack pointer (and the frame pointer) from \p D:
/// false for a move whose result the paths' walk does not know (then the
/// fallback of frameOf counts the function).
bool Analysis::depthMove(const MCInst &I, Depth &D) const {
  StringRef Op = MII->getName(I.getOpcode());
  const MCInstrDesc &Desc = MII->get(I.getOpcode());
  bool DefsSP = Desc.hasDefOfPhysReg(I, SP, *MRI);
  bool DefsFP = Desc.hasDefOfPhysReg(I, FP, *MRI);
  auto Reg = [&](unsigned N) { return regOperand(I, N); };
  auto Imm = [&](unsigned N) { return immOperand(I, N); };
  if (X86) {
    if (Op == "PUSH64r" || Op == "PUSH64i32" || Op == "PUSH64i8" ||
        Op == "PUSH64rmm" || Op == "PUSHF64") {
      D.SP += 8;
      return true;
    }
    if (Op == "POP64r" || Op == "POPF64") {
      D.SP -= 8;
      if (DefsFP)
        D.FP.reset(); // pop %rbp: the caller's frame pointer
      return true;
    }
    if (Op == "LEAVE64") {
      if (!D.FP)
        return false;
      D.SP = *D.FP - 8;
      D.FP.reset();
      return true;
    }
    if (Op == "MOV64rr" && Reg(0) == FP && Reg(1) == SP) {
      D.FP = D.SP;
      return true;
    }
    if (DefsFP && !DefsSP) {
      D.FP.reset(); // %rbp as a general register
      return true;
    }
    if (!DefsSP)
      return true;
    if (Op.starts_with("SUB64ri") && Reg(0) == SP) {
      D.SP += Imm(2);
      return true;
    }
    if (Op.starts_with("ADD64ri") && Reg(0) == SP) {
      D.SP -= Imm(2);
      return true;
    }
    if (Op == "MOV64rr" && Reg(0) == SP && Reg(1) == FP && D.FP) {
      D.SP = *D.FP;
      return true;
    }
    // lea disp(%rbp|%rsp), %rsp: operands base, scale, index, disp, seg.
    if (Op == "LEA64r" && Reg(0) == SP && !Reg(3) && !Reg(5)) {
      if (Reg(1) == SP) {
        D.SP -= Imm(4);
        return true;
      }
      if (Reg(1) == FP && D.FP) {
        D.SP = *D.FP - Imm(4);
        return true;
      }
    }
    return false;
  }
  bool Pre = Op.ends_with("pre"), Post = Op.ends_with("post");
  if (!DefsSP) {
    // mov x29, sp (add x29, sp, #imm): the frame pointer's depth.
    if (Op == "ADDXri" && Reg(0) == FP && Reg(1) == SP) {
      D.FP = D.SP - (Imm(2) << Imm(3));
      return true;
    }
    if (DefsFP)
      D.FP.reset();
    return true;
  }
  if (Pre || Post) {
    // Writeback of the base: the offset is the last operand, in units of
    // the access: a pair of X or D registers 8, of W or S 4, of Q 16; a
    // single register's (STR, LDR) in bytes.
    StringRef Kind = Op.drop_back(Pre ? 3 : 4);
    int64_t Scale;
    if (Kind == "STPX" || Kind == "LDPX" || Kind == "STPD" || Kind == "LDPD")
      Scale = 8;
    else if (Kind == "STPW" || Kind == "LDPW" || Kind == "STPS" ||
             Kind == "LDPS")
      Scale = 4;
    else if (Kind == "STPQ" || Kind == "LDPQ")
      Scale = 16;
    else if (Kind.starts_with("STR") || Kind.starts_with("LDR"))
      Scale = 1;
    else
      return false;
    D.SP -= Imm(I.getNumOperands() - 1) * Scale;
    if (DefsFP)
      D.FP.reset();
    return true;
  }
  if (Op == "SUBXri" && Reg(0) == SP && Reg(1) == SP) {
    D.SP += Imm(2) << Imm(3);
    return true;
  }
  if (Op == "ADDXri" && Reg(0) == SP && Reg(1) == SP) {
    D.SP -= Imm(2) << Imm(3);
    return true;
  }
  if ((Op == "ADDXri" || Op == "SUBXri") && Reg(0) == SP && Reg(1) == FP &&
      D.FP) {
    int64_t Off = Imm(2) << Imm(3);
    D.SP = Op == "ADDXri" ? *D.FP - Off : *D.FP + Off;
    return true;
  }
  return false;
}

/// The deepest the stack pointer goes in \p F (its decoded \p Code)
/// below its value at F's entry, along every path from the entry: a
/// branch inside F goes on at its target (a conditional one at both), a
/// call at the next instruction, a return or a jump out of F ends the
/// path. None when a path moves the stack pointer in a way depthMove does
/// not know, when two paths reach one instruction at different depths, or
/// when code no path reaches moves the stack pointer (a landing pad, which
/// the unwinder enters at its call's depth, is such code: it may run, but
/// at a depth a path reached, unless it moves the stack pointer).
std::optional<uint64_t> Analysis::deepest(const Func &F,
                                          const std::vector<Inst> &Code,
                                          JumpDepths &Jumps) const {
  std::map<uint64_t, size_t> At;
  for (size_t K = 0; K < Code.size(); ++K)
    At[Code[K].PC] = K;
  std::vector<std::optional<Depth>> In(Code.size());
  std::vector<size_t> Work;
  int64_t Most = 0;
  auto Reach = [&](size_t K, const Depth &D) {
    if (In[K])
      return *In[K] == D;
    In[K] = D;
    Work.push_back(K);
    return true;
  };
  if (Code.empty() || !Reach(0, Depth()))
    return std::nullopt;
  while (!Work.empty()) {
    size_t K = Work.back();
    Work.pop_back();
    const Inst &C = Code[K];
    Depth D = *In[K];
    if (MIA->isReturn(C.I))
      continue;
    bool Call = MIA->isCall(C.I);
    if (!Call && MIA->isBranch(C.I)) {
      uint64_t Target;
      if (!MIA->evaluateBranch(C.I, C.PC, C.Len, Target))
        return std::nullopt;
      if (Target >= F.Address && Target < F.Address + F.Size) {
        auto T = At.find(Target);
        if (T == At.end() || !Reach(T->second, D))
          return std::nullopt;
      } else {
        uint64_t &J = Jumps[Target];
        J = std::max<uint64_t>(J, D.SP < 0 ? 0 : D.SP);
      }
      if (MIA->isUnconditionalBranch(C.I))
        continue;
    } else if (!Call && !depthMove(C.I, D)) {
      return std::nullopt;
    }
    Most = std::max(Most, D.SP);
    if (K + 1 < Code.size() && !Reach(K + 1, D))
      return std::nullopt;
  }
  for (size_t K = 0; K < Code.size(); ++K)
    if (!In[K] &&
        MII->get(Code[K].I.getOpcode()).hasDefOfPhysReg(Code[K].I, SP, *MRI))
      return std::nullopt;
  return uint64_t(Most);
}

Result Analysis::walk(uint64_t Address) {
  auto D = Done.find(Address);
  if (D != Done.end())
    return D->second;
  // Budgeted code (libcacs's switches), wherever the call lands: its
  // budget is its whole bound.
  auto Budget = Budgets.find(Address);
  if (Budget != Budgets.end())
    return {Budget->second, ""};
  const Func *F = functionAt(Address);
  if (!F || F->Address != Address) {
    auto P = PltNames.find(Address);
    return {std::nullopt,
            P != PltNames.end()
                ? "it calls '" + P->second +
                      "', a function of a shared library (an external "
                      "function)"
                : "it jumps to '" + nameOf(Address) +
                      "', which is not the start of a function"};
  }
  OnPath[Address] = true;
  std::vector<uint64_t> Callees;
  bool Calls;
  JumpDepths Jumps;
  Result R = frameOf(*F, Callees, Calls, Jumps);
  if (R.Bytes) {
    // A leaf's red zone (the file comment), or what it calls; what it
    // jumps to from a known depth (a tail call) runs that deep, from the
    // same return address (Jumps, deepest()): not below the whole frame.
    uint64_t Deepest = X86 && !Calls ? 128 : 0, Jumped = 0;
    for (uint64_t C : Callees) {
      auto P = OnPath.find(C);
      if (P != OnPath.end() && P->second) {
        R = {std::nullopt, C == Address
                               ? "'" + F->Name + "' calls itself (recursion)"
                               : "'" + F->Name + "' calls '" + nameOf(C) +
                                     "', which reaches it again (recursion)"};
        break;
      }
      Result CR = walk(C);
      if (!CR.Bytes) {
        R = {std::nullopt, CR.Why};
        if (StringRef(CR.Why).starts_with("it "))
          R.Why = "'" + F->Name + "': " + CR.Why.substr(3);
        break;
      }
      auto J = Jumps.find(C);
      if (J != Jumps.end())
        Jumped = std::max(Jumped, J->second + *CR.Bytes);
      else
        Deepest = std::max(Deepest, *CR.Bytes);
    }
    if (R.Bytes)
      R.Bytes = std::max(*R.Bytes + Deepest, Jumped);
  }
  OnPath[Address] = false;
  // A recursion found below a function of the cycle is a fact of the
  // path, not of the function: remember only what holds on any path.
  if (R.Bytes || !StringRef(R.Why).contains("(recursion)"))
    Done[Address] = R;
  return R;
}

std::vector<StackBound> Analysis::run() {
  std::vector<StackBound> Out;
  for (uint64_t E : Entries) {
    Result R = walk(E);
    StackBound B;
    B.Name = Funcs[E].Name;
    B.Address = E;
    if (R.Bytes)
      B.Bytes = *R.Bytes; // a leaf's red zone included (walk)
    B.Why = R.Why;
    Out.push_back(std::move(B));
  }
  return Out;
}

} // namespace

std::vector<StackBound> cacs::computeStackBounds(StringRef Path,
                                                 std::string &Error) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(Path);
  if (!B) {
    Error = B.getError().message();
    return {};
  }
  return computeStackBounds((*B)->getMemBufferRef(), Error);
}

std::vector<StackBound> cacs::computeStackBounds(MemoryBufferRef Program,
                                                 std::string &Error) {
  Expected<std::unique_ptr<ObjectFile>> O =
      ObjectFile::createObjectFile(Program);
  if (!O) {
    Error = toString(O.takeError());
    return {};
  }
  const auto *ELF = dyn_cast<ELF64LEObjectFile>(O->get());
  if (!ELF) {
    Error = "not a 64-bit little-endian ELF file";
    return {};
  }
  // A relocatable link (-r) has no addresses yet.
  unsigned Type = ELF->getELFFile().getHeader().e_type;
  if (Type != ELF::ET_EXEC && Type != ELF::ET_DYN) {
    Error = "not a linked program";
    return {};
  }
  // A symbol table must lie in the file: LLVM reports each entry past its
  // end as an error, and the walk would read them one by one, as many as
  // the table's size says (for ever, for a size near 2^64).
  Expected<ELF64LE::ShdrRange> Sections = ELF->getELFFile().sections();
  if (!Sections) {
    Error = toString(Sections.takeError());
    return {};
  }
  for (const ELF64LE::Shdr &S : *Sections) {
    if (S.sh_type != ELF::SHT_SYMTAB && S.sh_type != ELF::SHT_DYNSYM)
      continue;
    if (Expected<ELF64LE::SymRange> Syms = ELF->getELFFile().symbols(&S);
        !Syms) {
      Error = toString(Syms.takeError());
      return {};
    }
  }
  Analysis A(*ELF);
  if (!A.init(Error))
    return {};
  return A.run();
}

std::optional<uint64_t> cacs::imageBase(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(Path);
  if (!B)
    return std::nullopt;
  return imageBase((*B)->getMemBufferRef());
}

std::optional<uint64_t> cacs::imageBase(MemoryBufferRef Program) {
  Expected<std::unique_ptr<ObjectFile>> O =
      ObjectFile::createObjectFile(Program);
  if (!O) {
    consumeError(O.takeError());
    return std::nullopt;
  }
  const auto *ELF = dyn_cast<ELF64LEObjectFile>(O->get());
  if (!ELF)
    return std::nullopt;
  auto Phdrs = ELF->getELFFile().program_headers();
  if (!Phdrs) {
    consumeError(Phdrs.takeError());
    return std::nullopt;
  }
  // __ehdr_start is the ELF header's address: the load segment that
  // starts at the file's first byte.
  for (const auto &P : *Phdrs)
    if (P.p_type == ELF::PT_LOAD && P.p_offset == 0)
      return P.p_vaddr;
  return std::nullopt;
}

std::string cacs::stackBoundsTableAsm(const std::vector<StackBound> &Bounds,
                                      uint64_t ImageBase) {
  std::string S;
  raw_string_ostream OS(S);
  // "awR": written by the dynamic linker's relative relocations in a
  // position-independent program, and kept by --gc-sections.
  OS << "\t.section cacs_stack_bounds,\"awR\",@progbits\n\t.p2align 3\n";
  for (const StackBound &B : Bounds)
    if (B.Bytes)
      OS << "\t.quad __ehdr_start + 0x" << utohexstr(B.Address - ImageBase)
         << "\n\t.quad " << *B.Bytes << "\n";
  OS << "\t.section .note.GNU-stack,\"\",@progbits\n";
  return S;
}

/// Does the regular expression \p Re of -Rpass= or -Rpass-missed= choose
/// this analysis's remarks?
static bool remarksAsked(StringRef Re) {
  if (Re.empty())
    return false;
  Regex R(Re);
  return R.isValid() && R.match(StackBoundRemarkName);
}

static void remark(const StackBoundsLink &L, const StackBound &B) {
  if (B.Bytes && remarksAsked(L.Pass))
    errs() << L.Prog << ": remark: stack bound of '" << B.Name
           << "': " << *B.Bytes << " bytes [-Rpass=" << StackBoundRemarkName
           << "]\n";
  if (!B.Bytes && remarksAsked(L.Missed))
    errs() << L.Prog << ": remark: no stack bound for '" << B.Name
           << "': " << B.Why << " [-Rpass-missed=" << StackBoundRemarkName
           << "]\n";
}

/// The entries and bounds of \p Bounds as a comparable list.
static std::vector<std::pair<uint64_t, uint64_t>>
proven(const std::vector<StackBound> &Bounds) {
  std::vector<std::pair<uint64_t, uint64_t>> P;
  for (const StackBound &B : Bounds)
    if (B.Bytes)
      P.push_back({B.Address, *B.Bytes});
  return P;
}

/// Assembles the table of \p Bounds into \p Obj, through \p Asm, with the
/// stock driver, for the link's target.
static bool writeTable(const StackBoundsLink &L,
                       const std::vector<StackBound> &Bounds, uint64_t Base,
                       StringRef Asm, StringRef Obj) {
  {
    std::error_code EC;
    raw_fd_ostream OS(Asm, EC);
    if (EC)
      return false;
    OS << stackBoundsTableAsm(Bounds, Base);
  }
  std::string TargetArg = ("--target=" + L.Target).str();
  std::vector<StringRef> Assemble = {L.Driver, "-c", "-x", "assembler",
                                     Asm,      "-o", Obj};
  if (!L.Target.empty())
    Assemble.push_back(TargetArg);
  std::string Err;
  if (sys::ExecuteAndWait(L.Driver, Assemble, std::nullopt, {}, 0, 0, &Err) ==
      0)
    return true;
  errs() << L.Prog << ": note: no stack bounds table: cannot assemble it"
         << (Err.empty() ? "" : ": " + Err) << "\n";
  return false;
}

int cacs::linkWithStackBounds(const StackBoundsLink &L,
                              ArrayRef<StringRef> Args,
                              function_ref<int(ArrayRef<StringRef>)> Link) {
  int RC = Link(Args);
  if (RC != 0)
    return RC;
  if (!L.NoBounds.empty()) {
    errs() << L.Prog
           << ": note: no stack bounds for this program: " << L.NoBounds
           << "\n";
    return 0;
  }
  std::string Output = L.Output.empty() ? "a.out" : L.Output.str();
  if (Output == "-")
    return 0;
  std::string Error;
  std::vector<StackBound> Bounds = computeStackBounds(Output, Error);
  if (!Error.empty()) {
    errs() << L.Prog << ": note: no stack bounds for '" << Output
           << "': " << Error << "\n";
    return 0;
  }
  for (const StackBound &B : Bounds)
    remark(L, B);
  std::vector<std::pair<uint64_t, uint64_t>> Want = proven(Bounds);
  std::optional<uint64_t> Base = imageBase(Output);
  if (Want.empty() || !Base)
    return 0;

  // The first link's program, kept in case the others lay out their code
  // otherwise.
  SmallString<128> Asm, Obj, Keep;
  if (sys::fs::createTemporaryFile("cacs-stack-bounds", "s", Asm) ||
      sys::fs::createTemporaryFile("cacs-stack-bounds", "o", Obj) ||
      sys::fs::createTemporaryFile("cacs-stack-bounds", "keep", Keep))
    return 0;
  FileRemover RemoveAsm(Asm), RemoveObj(Obj), RemoveKeep(Keep);
  if (sys::fs::copy_file(Output, Keep))
    return 0;
  std::vector<StringRef> Again(Args.begin(), Args.end());
  Again.push_back(Obj);
  // The table moves what the link places after it (the dynamic relocations
  // of a position-independent program come before the code): a table made
  // from the program with a table of the same size matches its layout.
  for (unsigned Try = 0; Try < 3; ++Try) {
    if (!writeTable(L, Bounds, *Base, Asm, Obj))
      break;
    RC = Link(Again);
    if (RC != 0)
      break;
    std::vector<StackBound> Linked = computeStackBounds(Output, Error);
    std::optional<uint64_t> LinkedBase = imageBase(Output);
    if (!Error.empty() || !LinkedBase || proven(Linked).size() != Want.size())
      break;
    if (proven(Linked) == proven(Bounds) && LinkedBase == Base)
      return 0;
    Bounds = std::move(Linked);
    Base = LinkedBase;
  }
  errs() << L.Prog << ": note: no stack bounds table: the links with it laid "
         << "out the code otherwise\n";
  sys::fs::copy_file(Keep, Output);
  return 0;
}
