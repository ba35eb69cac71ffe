//===- lib/effect.c - Effect handlers on stackful coroutines -------------===//
//
// The running chain: the effect coroutines of the thread that are running
// now, each resumed by the one before it (parent), the innermost (`cur`)
// executing. A resume appends a coroutine to the chain with a set of
// handled effects; a perform cuts the chain at the handler found (k): the
// segment k .. performer leaves the chain, suspended as one, and control
// returns to k's resumer. Resuming k later, under any chain, appends the
// whole segment again and continues the performer.
//
// Lookup in constant time: `top[id]` is the innermost coroutine of the
// running chain whose handled set holds effect `id`. Invariant, at every
// point where code outside this file runs:
//
//   top[] is that of the running chain, plus the entries of the segment
//   `pend`, if set: the segment most recently cut by a perform, whose
//   entries are still in place (pushed last, so on top of every other).
//
// Each coroutine keeps, per effect it handles, the entry it shadowed
// (saved[]), so the segment's entries come off in LIFO order, innermost
// coroutine first (settle). Keeping `pend` in place makes the common case
// free: a handler that resumes the coroutine whose request it just got,
// with the same set, touches no entry (the segment is back where it was).
// It touches no link either: while `pend` is set, `cur` still names the
// segment's performer (the perform leaves it), not the chain's innermost,
// which is pend->parent (innermost()); and pend->tail is stale. Settle
// makes both true (tail = cur, cur = parent). So a perform stores `pend`
// alone and the resume that answers it clears it: the performer, whom it
// continues, is `cur` already (6 instructions of a round, callgrind).
// Every other table operation settles `pend` first: a perform (it must see
// the chain's own handlers), a resume of anything else or with another
// set, a return, a destroy. A resume after that pushes the segment again,
// outermost first, walking down `child` links, which stay valid while the
// segment is suspended (nothing inside it runs). So: perform is O(1); a
// resume is O(|set|) when it follows its coroutine's request, else
// O(entries of the segment it resumes); neither depends on how many
// handlers sit between a performer and the one that handles it, nor on the
// number of effects (ids are numbered on first use, the table grows).
// The first TOP_INLINE ids' entries live in the thread's block itself
// (top_lo), the rest in a table on the heap (top, which grows): a perform
// of one of a program's first effects reads its entry at a fixed offset
// from the thread pointer, without loading the table's address and size.
//
// A suspended segment's members other than its head keep `running` set:
// only the head may be resumed or destroyed. The head of `pend` keeps it
// too until it is settled (see `running` below).
//
// The switches. Perform and resume end in a tail switch (cacs/switch.h)
// when no tool needs annotations around it: the resumer lands straight in
// the caller of the perform or resume that suspended it, never returning
// through one on a stack it did not call it on (a return the return-stack
// predictor would miss, twice per round), and the request travels in the
// return registers (cacs__tail_jump2) into the handler's resume call.
// With ASan or TSan in the program, or without the tail form (CET, BTI),
// both take the plain switch inside a function (*_annotated) that
// annotates around it and reads the request from k->req, which the
// annotated perform and a return store for that reason. Which form runs is
// fixed for the process (the tools are linked in or not), so the two never
// meet at one switch; the fast paths learn it without a test (tools_on).
//
// The common round in assembly: on x86-64 and AArch64 (effect_layout.h
// says where), the entries are effect_<arch>.S's, which run the fast paths below for
// a perform whose handler the table gives and a resume that answers the
// request just received with a set of one or two effects, without a frame
// and its copies between registers, and jump to these C functions with
// the caller's registers for every other case. The rules stay here: the
// assembly makes a subset of these fast paths' tests, each named there.
//
// Per-thread state lives in one block, reached through a register holding
// its address (thread()), computed from the thread pointer: every perform
// stores `cur` and `pend` and the next resume loads them, and on x86-64 a
// load from a %fs-relative address waits for the store's forwarding where
// a base-register one does not (bench/results/ANALYSIS.md, "The yield's
// chain").
//
//===----------------------------------------------------------------------===//

#define CACS__DEFINE_PN_ENTRIES 1 // perform and resume are the entries
#include "cacs/effect.h"
#include "cacs/stack.h"
#include "cacs/switch.h"
#include "core.h"
#include "effect_layout.h"
#include "internal.h"
#include "sched.h"
#include "syncblock.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct saved_entry {
  cacs_effect *e;         // the effect, to compare sets without its id
  cacs_effect_coro *prev; // top[id] before this coroutine's entry
  uint32_t id;
};

// A call handler of a coroutine's set (cacs_effect_resume_with).
struct call_entry {
  uint32_t id;
  cacs_effect_call_fn fn;
  void *env;
};

enum { INLINE_SAVED = 4, TOP_INLINE = CACS_ET_TOP_INLINE };

struct cacs_effect_coro {
  cacs_stack stack;    // first: the block lives at the top of its stack
  // A suspended segment's head: where the segment continues (its tail's
  // perform, or fn's start). Kept in the head, which a resume holds, not in
  // the tail, so the resume's switch loads it without loading k->tail
  // first: one load fewer on the chain from the resumer's k to the stack
  // pointer it switches to.
  cacs_context self;
  cacs_context caller; // where its resumer continues
  cacs_effect_coro *parent; // its resumer, while in the chain or a segment
  cacs_effect_coro *child;  // the coroutine it resumed last
  // A suspended segment's head, or a returned one: the performer of its
  // request (itself before its first resume and once returned). Stale
  // while it runs: nothing reads it then.
  cacs_effect_coro *tail;
  // Its entries of the table: ids of its handled set and what they shadow.
  struct saved_entry *saved;
  uint32_t nsaved, cap;
  // saved[0].e and saved[1].e, NULL past the set's end (same_set).
  cacs_effect *set[2];
  struct saved_entry inline_saved[INLINE_SAVED];
  cacs_effect_request req;
  cacs_effect_fn fn;
  void *arg;
  // Read together by a resume (busy): neither may be set. `running` stays
  // set in the head of segment `pend` (the fast resume finds it set), and
  // settle clears it: a test of it while pend == k settles first, or
  // knows k is not running.
  union {
    struct {
      unsigned char running, done;
    };
    uint16_t busy;
  };
  // The thread's depth of sync blocks at its last resume: a perform that
  // reaches it from deeper would leave a block (cacs/syncblock.h).
  unsigned sync_base;
  cacs__tool_stacks tools;
  // The resumer's stack (ASan) and fiber (TSan), learned at each resume.
  const void *asan_caller_lo;
  size_t asan_caller_size;
  void *tsan_caller;
  // Its call handlers (the rest of its set: their effects are in
  // saved[] too, so the table gives k for them), on the heap.
  struct call_entry *calls;
  uint32_t ncalls, calls_cap;
  // The coroutine whose stack this one's code runs on while it is the
  // chain's innermost: NULL for its own, its call's performer's (runs_on)
  // while a call it resumed runs (call_handler).
  cacs_effect_coro *phys;
  // The coroutine whose call runs with this one as the chain's innermost
  // (call_handler): if this one is freed, that call is abandoned.
  cacs_effect_coro *calling;
  // CALL_RUNS: a call of its set runs: it may not be resumed or
  // destroyed. CALL_ABANDONED: the coroutine that ran it was freed (a
  // throw out of the call): it may be destroyed, not resumed.
  unsigned char in_call;
};
enum { CALL_RUNS = CACS_CALL_RUNS, CALL_ABANDONED = 2 };

struct effect_thread {
  // The entries of ids below TOP_INLINE (slot()), and one never set,
  // top_lo[TOP_INLINE]: the cacs_effect.slot of every id from TOP_INLINE
  // on (effect_slot), so that the assembly's perform indexes the block
  // with the effect's slot without comparing the id to TOP_INLINE, and
  // finds no handler there for an id on the heap (the C path reads it).
  cacs_effect_coro *top_lo[TOP_INLINE + 1];
  // The innermost of the running chain; while `pend` is set, the
  // performer of pend's segment instead (see the invariant above).
  cacs_effect_coro *cur;
  cacs_effect_coro *pend; // see the invariant above
  // The coroutine of the thread's scheduler (coro.h) that runs the chain,
  // while `cur` is set: the table is that chain's, so any other coroutine
  // that performs or resumes meanwhile (the chain waits in the scheduler)
  // aborts rather than reach its handlers. Pool coroutines are not told
  // apart (they share their worker's scheduler state).
  cacs_coro *owner;
  // The entries of ids from TOP_INLINE on: top[id], id < top_cap (its
  // first TOP_INLINE slots unused).
  cacs_effect_coro **top;
  uint32_t top_cap;
};
// Hidden, not static: effect_<arch>.S reads it.
CACS_HIDDEN extern CACS_TLS_LE struct effect_thread cacs__effect_thread;
CACS_TLS_LE struct effect_thread cacs__effect_thread;
#define ET cacs__effect_thread

// effect_layout.h, for the assembly.
_Static_assert(offsetof(cacs_context, sp) == CACS_CTX_SP, "effect_layout.h");
_Static_assert(offsetof(cacs_context, pc) == CACS_CTX_PC, "effect_layout.h");
_Static_assert(offsetof(cacs_context, fp) == CACS_CTX_FP, "effect_layout.h");
_Static_assert(offsetof(cacs_context, bp) == CACS_CTX_BP, "effect_layout.h");
_Static_assert(offsetof(cacs_context, pr) == CACS_CTX_PR, "effect_layout.h");
_Static_assert(offsetof(cacs_effect, id) == CACS_EFFECT_ID, "effect_layout.h");
_Static_assert(offsetof(cacs_effect, slot) == CACS_EFFECT_SLOT &&
                   sizeof(((cacs_effect *)0)->slot) == 4,
               "effect_layout.h");
_Static_assert(offsetof(cacs_effect_coro, self) == CACS_EK_SELF,
               "effect_layout.h");
_Static_assert(offsetof(cacs_effect_coro, caller) == CACS_EK_CALLER,
               "effect_layout.h");
_Static_assert(offsetof(cacs_effect_coro, parent) == CACS_EK_PARENT,
               "effect_layout.h");
_Static_assert(offsetof(cacs_effect_coro, tail) == CACS_EK_TAIL,
               "effect_layout.h");
_Static_assert(offsetof(cacs_effect_coro, nsaved) == CACS_EK_NSAVED,
               "effect_layout.h");
_Static_assert(offsetof(cacs_effect_coro, set[0]) == CACS_EK_SET0,
               "effect_layout.h");
_Static_assert(offsetof(cacs_effect_coro, set[1]) == CACS_EK_SET1,
               "effect_layout.h");
_Static_assert(offsetof(cacs_effect_coro, running) == CACS_EK_RUNNING,
               "effect_layout.h");
_Static_assert(offsetof(cacs_effect_coro, sync_base) == CACS_EK_SYNC_BASE,
               "effect_layout.h");
_Static_assert(offsetof(cacs_effect_coro, calls) == CACS_EK_CALLS &&
                   offsetof(cacs_effect_coro, ncalls) == CACS_EK_NCALLS &&
                   offsetof(cacs_effect_coro, calling) == CACS_EK_CALLING &&
                   offsetof(cacs_effect_coro, in_call) == CACS_EK_IN_CALL &&
                   sizeof(((cacs_effect_coro *)0)->in_call) == 1 &&
                   sizeof(((cacs_effect_coro *)0)->ncalls) == 4 &&
                   sizeof(struct call_entry) == CACS_CALL_SIZE &&
                   offsetof(struct call_entry, id) == CACS_CALL_ID &&
                   offsetof(struct call_entry, fn) == CACS_CALL_FN &&
                   offsetof(struct call_entry, env) == CACS_CALL_ENV,
               "effect_layout.h: the call path");
_Static_assert(offsetof(struct effect_thread, cur) == CACS_ET_CUR,
               "effect_layout.h");
_Static_assert(offsetof(struct effect_thread, pend) == CACS_ET_PEND,
               "effect_layout.h");
_Static_assert(offsetof(struct effect_thread, owner) == CACS_ET_OWNER,
               "effect_layout.h");
_Static_assert(offsetof(struct effect_thread, top) == CACS_ET_TOP,
               "effect_layout.h");
_Static_assert(offsetof(struct effect_thread, top_cap) == CACS_ET_TOP_CAP,
               "effect_layout.h");
_Static_assert(offsetof(struct effect_thread, top_lo) == CACS_ET_TOP_LO,
               "effect_layout.h");
_Static_assert(sizeof ET.top_lo / sizeof ET.top_lo[0] == CACS_ET_TOP_INLINE + 1,
               "effect_layout.h: the slot never set");
_Static_assert(sizeof ET.top_cap == 4 && sizeof(((cacs_effect *)0)->id) == 4,
               "effect_layout.h: 32-bit compares");
_Static_assert(offsetof(struct cacs__syncblk, depth) == CACS_SYNCBLK_DEPTH &&
                   sizeof cacs__syncblk.depth == 4,
               "effect_layout.h");
_Static_assert(offsetof(sched, current) == CACS_SCHED_CURRENT,
               "effect_<arch>.S");

// The running chain's innermost (see `cur`).
static inline cacs_effect_coro *innermost(const struct effect_thread *t) {
  return t->pend ? t->pend->parent : t->cur;
}

// The thread's block through a base register (see the top). Call it once
// per function, before any switch.
static inline struct effect_thread *thread(void) {
  struct effect_thread *t = &ET;
  __asm__("" : "+r"(t)); // keep the accesses base-relative
  return t;
}
static uint32_t next_id; // atomic: ids are shared by all threads
static pthread_key_t table_key;
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void table_free(void *t) { free(t); }
static void table_key_init(void) {
  cacs__key_create(&table_key, table_free, "the effect handler table");
}

// The entry of the thread's block that a perform of effect `id` reads
// first (cacs_effect.slot): its own below TOP_INLINE, else the one never
// set, which sends it to the heap's table.
static uint32_t effect_slot(uint32_t id) {
  return id < TOP_INLINE ? id : TOP_INLINE;
}

static uint32_t effect_id(cacs_effect *e) {
  uint32_t id = __atomic_load_n(&e->id, __ATOMIC_ACQUIRE);
  if (__builtin_expect(id != 0, 1))
    return id;
  uint32_t fresh = __atomic_add_fetch(&next_id, 1, __ATOMIC_RELAXED);
  uint32_t expected = 0;
  if (__atomic_compare_exchange_n(&e->id, &expected, fresh, 0, __ATOMIC_ACQ_REL,
                                  __ATOMIC_ACQUIRE)) {
    // After the id: until then a perform reads slot 0 (never set) and
    // takes the C path, which reads the id.
    __atomic_store_n(&e->slot, effect_slot(fresh), __ATOMIC_RELAXED);
    return fresh;
  }
  return expected; // another thread numbered it first (fresh is unused)
}

static void table_reserve(struct effect_thread *th, uint32_t id) {
  if (id < TOP_INLINE || id < th->top_cap)
    return;
  uint32_t cap = th->top_cap ? th->top_cap : 2 * TOP_INLINE;
  while (cap <= id)
    cap *= 2;
  cacs_effect_coro **t = realloc(th->top, cap * sizeof *t);
  if (!t)
    cacs__fatal("cacs: effect handler table: out of memory\n");
  memset(t + th->top_cap, 0, (cap - th->top_cap) * sizeof *t);
  if (!th->top) {
    pthread_once(&table_once, table_key_init);
    pthread_setspecific(table_key, t);
  } else if (t != th->top) {
    pthread_setspecific(table_key, t);
  }
  th->top = t;
  th->top_cap = cap;
}

// --- the table ------------------------------------------------------------

// The entry of a reserved id (table_reserve).
static inline cacs_effect_coro **slot(struct effect_thread *t, uint32_t id) {
  return id < TOP_INLINE ? &t->top_lo[id] : &t->top[id];
}

// Install `c`'s entries (ids in saved[]), recording what they shadow.
static void push_entries(struct effect_thread *t, cacs_effect_coro *c) {
  for (uint32_t i = 0; i < c->nsaved; ++i) {
    cacs_effect_coro **e = slot(t, c->saved[i].id);
    c->saved[i].prev = *e;
    *e = c;
  }
}

static void pop_entries(struct effect_thread *t, cacs_effect_coro *c) {
  for (uint32_t i = c->nsaved; i-- > 0;)
    *slot(t, c->saved[i].id) = c->saved[i].prev;
}

// Take the entries of segment `pend` off the table, innermost first; its
// links become true (see `cur`): its tail is the performer, `cur`, and
// the chain's innermost its resumer.
__attribute__((noinline)) static void settle(struct effect_thread *t) {
  cacs_effect_coro *k = t->pend;
  t->pend = NULL;
  k->running = 0; // a suspended head now (leave kept it set)
  k->tail = t->cur;
  t->cur = k->parent;
  for (cacs_effect_coro *c = k->tail;; c = c->parent) {
    pop_entries(t, c);
    if (c == k)
      break;
  }
}

// Whether `handled` names exactly k's effects, in order. Counted on k's
// side: the saved effects are never NULL, so a list that matches them all
// is k's set exactly when it ends right there. (Walking `handled` to its
// NULL instead reloaded k->saved at every element, the stores of
// `handled` aside: 28 instructions of a get/put round's 145 for a set of
// two, callgrind.) The first two effects are compared with copies in k
// itself (no load of k->saved), and sets of one or two, the usual
// handlers', end there without a loop.
static inline int same_set(const cacs_effect_coro *k,
                           cacs_effect *const *handled) {
  if (handled[0] != k->set[0]) // NULL for an empty set
    return 0;
  uint32_t n = k->nsaved;
  if (__builtin_expect(n <= 1, 1))
    return handled[n] == NULL;
  if (handled[1] != k->set[1])
    return 0;
  if (__builtin_expect(n == 2, 1))
    return handled[2] == NULL;
  const struct saved_entry *s = k->saved;
  for (uint32_t i = 2; i < n; ++i)
    if (handled[i] != s[i].e)
      return 0;
  return handled[n] == NULL;
}

// A coroutine whose set has call handlers holds this in set[0], which no
// `handled` list starts with: the fast resumes (same_set, the assembly's)
// never take it, and its resume goes through install, which re-reads the
// calls.
static const cacs_effect calls_mark = {"(call handlers)", 0, 0, NULL};
#define CALLS_MARK ((cacs_effect *)&calls_mark)

static void set_calls(struct effect_thread *t, cacs_effect_coro *k,
                      const cacs_effect_call *calls, uint32_t nc,
                      uint32_t base) {
  if (nc > k->calls_cap) {
    struct call_entry *c = malloc(nc * sizeof *c);
    if (!c)
      cacs__fatal("cacs: cacs_effect_resume_with: out of memory\n");
    free(k->calls);
    k->calls = c;
    k->calls_cap = nc;
  }
  for (uint32_t i = 0; i < nc; ++i) {
    uint32_t id = effect_id(calls[i].effect);
    table_reserve(t, id);
    k->saved[base + i].e = calls[i].effect;
    k->saved[base + i].id = id;
    k->calls[i].id = id;
    k->calls[i].fn = calls[i].fn;
    k->calls[i].env = calls[i].env;
  }
  k->ncalls = nc;
}

static void set_handled(struct effect_thread *t, cacs_effect_coro *k,
                        cacs_effect *const *handled,
                        const cacs_effect_call *calls) {
  uint32_t nh = 0, nc = 0;
  while (handled && handled[nh])
    ++nh;
  while (calls && calls[nc].effect)
    ++nc;
  uint32_t n = nh + nc;
  if (n > k->cap) {
    struct saved_entry *s = malloc(n * sizeof *s);
    if (!s)
      cacs__fatal("cacs: cacs_effect_resume: out of memory\n");
    if (k->saved != k->inline_saved)
      free(k->saved);
    k->saved = s;
    k->cap = n;
  }
  for (uint32_t i = 0; i < nh; ++i) {
    uint32_t id = effect_id(handled[i]);
    table_reserve(t, id);
    k->saved[i].e = handled[i];
    k->saved[i].id = id;
  }
  set_calls(t, k, calls, nc, nh);
  k->nsaved = n;
  k->set[0] = nc ? CALLS_MARK : nh ? handled[0] : NULL;
  k->set[1] = nh > 1 ? handled[1] : NULL;
}

// Push the entries of segment k .. k->tail, outermost first.
static void push_segment(struct effect_thread *t, cacs_effect_coro *k) {
  for (cacs_effect_coro *c = k;; c = c->child) {
    push_entries(t, c);
    if (c == k->tail)
      break;
  }
}

// A resume other than that of the coroutine whose request the handler
// just got, with the same set: settle, then push k's segment.
__attribute__((noinline)) static void install(struct effect_thread *t,
                                              cacs_effect_coro *k,
                                              cacs_effect *const *handled,
                                              const cacs_effect_call *calls) {
  if (t->pend)
    settle(t);
  set_handled(t, k, handled, calls);
  push_segment(t, k);
}

// --- misuse ---------------------------------------------------------------

__attribute__((noreturn, cold)) static void misuse(const cacs_effect_coro *k,
                                                   const char *call,
                                                   const char *what) {
  const char *name = cacs__stack_owner(&k->stack);
  if (name)
    cacs__fatalf("cacs: %s('%s'): %s\n", call, name, what);
  cacs__fatalf("cacs: %s('effect#%llu'): %s\n", call,
               (unsigned long long)k->stack.owner_id, what);
}

__attribute__((cold)) static const void *unhandled(cacs_effect *e,
                                                   void *payload) {
  if (e->dflt)
    return e->dflt(payload);
  cacs__fatalf("cacs: effect '%s' performed with no handler for it and no "
               "default handler (cacs_effect_set_default)\n",
               e->name);
}

__attribute__((noreturn, cold)) static void foreign(const char *call) {
  cacs__fatalf("cacs: %s: the effect coroutines of another coroutine of "
               "this thread are running (they wait in the scheduler); "
               "effects of two coroutines of one thread may not "
               "interleave\n",
               call);
}

// --- the switches ---------------------------------------------------------

// The tail form, where the compiler has it; not in a build of libcacs with
// ASan, whose programs always annotate (and whose frames may be realigned
// around the jump).
//
// Its resume points always hold the caller's rbp and rbx (EFFECT_SAVE,
// effect_jump), also in a libcacs built with the empty callee-saved list
// (-fpreserve-none-callee-saved=none), where the header's CACS__TAIL_SAVE
// leaves fp stale: that form is right only for a function the cacs pass
// gives the empty list, whose callers all save rbp themselves. Perform and
// resume keep rbp callee-saved: they are exported, so code compiled
// elsewhere calls them expecting rbp preserved; and even a caller compiled
// with the setting calls the resume, whose result is a struct, with
// upstream's mask (the pass's call rule, PreserveNoneRules.cpp). Such a
// caller keeps values in rbp across the resume (test/runtime/effect.c's
// run_state, -O2: k), and with the stale fp the perform's jump back handed
// it rbp = 0: the next resume read k = NULL (effect-none.test).
#if CACS_HAS_TAIL_SWITCH && !CACS_ASAN
#define EFFECT_TAIL 1
#else
#define EFFECT_TAIL 0
#endif
#define EFFECT_SAVE CACS__TAIL_SAVE_FP
#if CACS_EFFECT_ASM && !EFFECT_TAIL
#error "effect_layout.h: the assembly entries are tail switches"
#endif

// The C paths of perform and resume: the preserve_none entries themselves,
// or, under CACS_EFFECT_ASM, what effect_<arch>.S's entries jump to for
// every case they do not take (the jump leaves the registers and the stack
// as the caller's call did, so these run as if called). Their fast paths
// hold the rules; the assembly repeats a subset of their tests.
#if CACS_EFFECT_ASM
CACS_HIDDEN CACS__PN_DEF cacs_effect_request
effect_resume_c(cacs_effect_coro *k, cacs_effect *const *handled,
                const void *result) __asm__("cacs__effect_resume_c");
CACS_HIDDEN CACS__PN_DEF const void *
effect_perform_c(cacs_effect *e,
                 void *payload) __asm__("cacs__effect_perform_c");
#define RESUME_C effect_resume_c
#define PERFORM_C effect_perform_c
#else
#define RESUME_C cacs_effect_resume
#define PERFORM_C cacs_effect_perform
#endif
#define RESUME_WITH_C cacs_effect_resume_with

// Whether a tool annotates switches (a link-time fact, internal.h): then
// perform and resume take the annotated switch, never the tail one. Tested
// on the slow paths only, and carried to the fast ones as one bit of
// k->sync_base, which a perform compares anyway: a resume under a tool
// sets it, so the perform's sync-block comparison fails and its slow path
// tells the block from the tool. A perform under a tool also settles its
// segment at once (no `pend`), so a resume that finds pend == k knows no
// tool is on without a test.
static inline int tools_on(void) { return cacs__asan_on() || cacs__tsan_on(); }
#define SYNC_ANNOTATE (1u << 31) // in sync_base: tools_on() at the resume
// In sync_base too: k's set has call handlers. A perform that finds k
// fails the assembly's comparison of depths and reaches the C path, which
// looks for a call of the effect (find_call) before it compares them.
#define SYNC_CALLS ((unsigned)CACS_SYNC_CALLS) // effect_layout.h

// The tail jumps of perform and resume. cacs__tail_jump2 binds `from` and
// `to` to r12 and r13, where these functions receive their first two
// arguments, which the perform must hand on in rax and rdx and the resume
// needs (k) to compute `from`: on x86-64 the same jump with `from` and
// `to` in any free register saves the moves out of r12 and r13 and back
// (a round of the up1 shape: 114 -> 110 instructions, callgrind). The
// free registers are rdi, rsi, r12 and r13: every other one is clobbered,
// bound (rax, rdx, rbx) or the frame's (rbp, which the frame record of
// EFFECT_SAVE keeps), so `to` is never one the jump loads before it is
// done with `to`. They store the caller's rbx under every callee-saved
// list (the header's do not under CACS__TAIL_EMPTY_LIST; see EFFECT_TAIL).
// The jump's text is the header's (CACS__TAIL_JUMP_ASM),
// except where the x86-64 assembly saves the contexts (EFFECT_PC_BELOW_SP):
// it stores no pc, which is the word below sp (the return address of the
// call that suspended, still there: nothing runs on a suspended stack;
// cacs_effect_create writes it for a fresh coroutine), and the jumps of
// the tail switch go through it (two stores and a load fewer per switch).
// AArch64's call leaves its return address in x30, not on the stack:
// effect_aarch64.S stores it as pc, and the header's jump reads it.
// The plain switch (cacs_switch, under ASan or TSan) saves and reads its
// own contexts with pc: a process takes one form or the other (tools_on).
#if CACS_EFFECT_ASM && defined(__x86_64__)
#define EFFECT_PC_BELOW_SP 1
#else
#define EFFECT_PC_BELOW_SP 0
#endif
#if EFFECT_PC_BELOW_SP
#define EFFECT_JUMP_ASM                                                        \
  "movq 16(%1), %%rbp\n\t"                                                     \
  "movq 24(%1), %%rbx\n\t"                                                     \
  "movq 0(%1), %%rsp\n\t"                                                      \
  "jmpq *-8(%%rsp)\n\t"
#else
#define EFFECT_JUMP_ASM CACS__TAIL_JUMP_ASM
#endif
#if EFFECT_TAIL && defined(__x86_64__)
static CACS_ALWAYS_INLINE void effect_jump(cacs_context *from,
                                           const cacs_context *to, uint64_t v0,
                                           uint64_t v1, void *bp) {
  __asm__ volatile("movq %%rbx, 24(%0)\n\t" EFFECT_JUMP_ASM
                   : "+r"(from), "+r"(to), "+a"(v0), "+d"(v1)
                   : "b"(bp)
                   : CACS__CLOBBERS_TAIL2);
}
static CACS_ALWAYS_INLINE void effect_jump1(cacs_context *from,
                                            const cacs_context *to, uint64_t v0,
                                            void *bp) {
  __asm__ volatile("movq %%rbx, 24(%0)\n\t" EFFECT_JUMP_ASM
                   : "+r"(from), "+r"(to), "+a"(v0)
                   : "b"(bp)
                   : CACS__CLOBBERS_TAIL);
}
#else
#define effect_jump cacs__tail_jump2
#define effect_jump1 cacs__tail_jump
#endif

static void effect_main(void *arg, uint64_t first) {
  (void)first;
  cacs_effect_coro *k = (cacs_effect_coro *)arg;
  if (cacs__asan_on())
    __sanitizer_finish_switch_fiber(NULL, &k->asan_caller_lo,
                                    &k->asan_caller_size);
  void *v = k->fn(k->arg);
  // k is the running chain's innermost: its own entries come off.
  struct effect_thread *t = thread();
  if (t->pend)
    settle(t);
  pop_entries(t, k);
  t->cur = k->parent;
  k->tail = k; // for destroy's walk (a resume leaves it stale)
  k->done = 1;
  k->running = 0;
  k->req.effect = NULL;
  k->req.payload = v;
  if (k->tools.tsan_fiber)
    __tsan_switch_to_fiber(k->tsan_caller, 0);
  if (cacs__asan_on()) // NULL: this stack is finished
    __sanitizer_start_switch_fiber(NULL, k->asan_caller_lo,
                                   k->asan_caller_size);
  // The request in registers too, for a resume that took its tail switch.
#if EFFECT_PC_BELOW_SP
  if (!tools_on()) { // the tail switch's context (EFFECT_JUMP_ASM)
    effect_jump(&k->self, &k->caller, 0, (uint64_t)(uintptr_t)v, NULL);
    __builtin_unreachable();
  }
#endif
  cacs__tail_jump2(&k->self, &k->caller, 0, (uint64_t)(uintptr_t)v, NULL);
  __builtin_unreachable();
}

// The coroutine whose stack c's code runs on (see `phys`).
static inline cacs_effect_coro *runs_on(cacs_effect_coro *c) {
  return c->phys ? c->phys : c;
}

// Resume's switch to performer p with the tools' annotations (or without
// the tail form): the plain switch, which comes back here.
__attribute__((noinline)) static cacs_effect_request
resume_annotated(cacs_effect_coro *k, cacs_effect_coro *p, const void *result) {
  void *fake = NULL, *fiber = NULL;
  p = runs_on(p); // the stack the switch lands on
  if (cacs__asan_on())
    __sanitizer_start_switch_fiber(
        &fake, p->stack.lo,
        (size_t)((char *)p->stack.top - (char *)p->stack.lo));
  if (p->tools.tsan_fiber) {
    fiber = __tsan_get_current_fiber();
    k->tsan_caller = fiber;
    __tsan_switch_to_fiber(p->tools.tsan_fiber, 0);
  }
  cacs_switch(&k->caller, &k->self, (uint64_t)(uintptr_t)result);
  if (cacs__asan_on())
    __sanitizer_finish_switch_fiber(fake, NULL, NULL);
  if (fiber && __tsan_get_current_fiber() != fiber)
    __tsan_switch_to_fiber(fiber, 0);
  return k->req;
}

// What a resume other than the fast one does to k once it may run: k
// joins the chain and its performer (k itself the first time) becomes the
// chain's innermost. Returns that performer. k->running is the caller's.
// k->tail stays (see its comment). (The fast one finds the performer in
// `cur` already: see `cur`.)
static inline cacs_effect_coro *enter(struct effect_thread *t,
                                      cacs_effect_coro *k, unsigned base) {
  k->sync_base = base;
  cacs_effect_coro *p = k->tail;
  t->cur = p;
  return p;
}

// A resume's test of the chain's owner: the running coroutine of the
// scheduler may resume when it owns the chain, or when none runs (c, the
// chain's innermost, is NULL), and then starts one; any other aborts. The
// usual case, the owner resuming again, stores nothing.
static inline void own(struct effect_thread *t, const cacs_effect_coro *c) {
  cacs_coro *me = S.current;
  if (__builtin_expect(t->owner != me, 0)) {
    if (c)
      foreign("cacs_effect_resume");
    t->owner = me; // a chain starts
  }
}

// A resume other than the fast one, up to its switch: k's checks, its set
// installed (install), k joined to the chain under c. Returns the sync
// base to enter with (the tools' and the calls' bits: see tools_on).
static inline unsigned resume_prepare(struct effect_thread *t,
                                      cacs_effect_coro *k,
                                      cacs_effect_coro *c,
                                      cacs_effect *const *handled,
                                      const cacs_effect_call *calls) {
  // pend's head is suspended, though `running` is set until settled;
  // not while a call of its set runs (in_call).
  if (__builtin_expect((k->busy != 0 && t->pend != k) || k->in_call, 0))
    misuse(k, calls ? "cacs_effect_resume_with" : "cacs_effect_resume",
           k->done ? "the coroutine has returned"
           : k->in_call == CALL_ABANDONED
               ? "its call handler was abandoned (the coroutine running it "
                 "was destroyed): it may only be destroyed"
               : "the coroutine is running: it, or a coroutine it "
                 "resumed, is the caller");
  own(t, c);
  install(t, k, handled, calls);
  k->parent = c;
  if (c)
    c->child = k;
  k->running = 1;
  unsigned base = cacs__syncblk.depth;
  if (k->ncalls)
    base |= SYNC_CALLS;
  if (__builtin_expect(tools_on(), 0))
    base |= SYNC_ANNOTATE;
  return base;
}

// The end of a resume (RESUME_C, RESUME_WITH_C): the switch to k's
// segment, whose performer is p; the tail form returns from the function
// whose frame EFFECT_SAVE describes, in the request's registers.
#if EFFECT_TAIL
#define RESUME_SWITCH(k, p, result, bp)                                        \
  do {                                                                         \
    (void)(p);                                                                 \
    EFFECT_SAVE(&(k)->caller);                                                 \
    effect_jump1(&(k)->caller, &(k)->self, (uint64_t)(uintptr_t)(result),     \
                 bp);                                                          \
    return (k)->req; /* never reached (see cacs__tail_jump) */                 \
  } while (0)
#else
#define RESUME_SWITCH(k, p, result, bp)                                        \
  do {                                                                         \
    (void)(bp);                                                                \
    return resume_annotated(k, p, result);                                     \
  } while (0)
#endif

// noinline: the tail switch describes this function's own frame, and the
// default-convention symbol below calls it.
__attribute__((noinline)) cacs_effect_request
RESUME_C(cacs_effect_coro *k, cacs_effect *const *handled,
         const void *result) {
  CACS_SAVE_CALLER_BP(bp);
  struct effect_thread *t = thread();
  cacs_effect_coro *c = innermost(t);
  cacs_effect_coro *p;
  if (__builtin_expect(t->pend == k, 1) && same_set(k, handled)) {
    // The handler answers the request it just got: k's perform was the
    // table's last operation (any other settles pend), so k is neither
    // running nor done, c is k->parent and c->child is k already; and
    // that perform kept pend, so no tool annotates (see tools_on), and
    // k->running is still set.
    own(t, c);
    t->pend = NULL; // its segment's entries are in place
    k->sync_base = cacs__syncblk.depth;
    p = t->cur; // the performer (see `cur`)
  } else {
    unsigned base = resume_prepare(t, k, c, handled, NULL);
    p = enter(t, k, base);
    if (__builtin_expect(base & SYNC_ANNOTATE, 0)) {
      (void)bp;
      return resume_annotated(k, p, result);
    }
  }
  RESUME_SWITCH(k, p, result, bp);
}

// The resume with call handlers: always resume_prepare's (the calls are
// copied each time), then the same switch.
__attribute__((noinline)) cacs_effect_request
RESUME_WITH_C(cacs_effect_coro *k, cacs_effect *const *handled,
              const cacs_effect_call *calls, const void *result) {
  CACS_SAVE_CALLER_BP(bp);
  struct effect_thread *t = thread();
  unsigned base = resume_prepare(t, k, innermost(t), handled, calls);
  cacs_effect_coro *p = enter(t, k, base);
  if (__builtin_expect(base & SYNC_ANNOTATE, 0)) {
    (void)bp;
    return resume_annotated(k, p, result);
  }
  RESUME_SWITCH(k, p, result, bp);
}

// Perform's switch to handler k, as resume_annotated; the request goes
// through k->req.
__attribute__((noinline)) static const void *
perform_annotated(cacs_effect_coro *k, cacs_effect_coro *p, cacs_effect *e,
                  void *payload) {
  k->req.effect = e;
  k->req.payload = payload;
  void *fake = NULL, *fiber = NULL;
  if (cacs__asan_on())
    __sanitizer_start_switch_fiber(&fake, k->asan_caller_lo,
                                   k->asan_caller_size);
  if (p->tools.tsan_fiber) {
    fiber = __tsan_get_current_fiber();
    __tsan_switch_to_fiber(k->tsan_caller, 0);
  }
  uint64_t r = cacs_switch(&k->self, &k->caller, 0);
  // Resumed through k (only a segment's head resumes its tail), maybe by
  // another resumer than before, on another stack.
  if (cacs__asan_on())
    __sanitizer_finish_switch_fiber(fake, &k->asan_caller_lo,
                                    &k->asan_caller_size);
  if (fiber && __tsan_get_current_fiber() != fiber)
    __tsan_switch_to_fiber(fiber, 0);
  return (const void *)(uintptr_t)r;
}

// What a perform does to the chain once it goes to handler k: the segment
// k .. p leaves it, its entries kept in place (pend), its links left to
// settle (`cur` stays p: see `cur`).
static inline void leave(struct effect_thread *t, cacs_effect_coro *k) {
  t->pend = k; // k->running stays set until settled (see `running`)
}

// The call handler of k for effect `id`, if k's set has one (the first
// listed, as the assembly's test of calls[0] then calls[1]; an
// effect also in `handled` is called).
static inline const struct call_entry *find_call(const cacs_effect_coro *k,
                                                 uint32_t id) {
  for (uint32_t i = 0; i < k->ncalls; ++i)
    if (k->calls[i].id == id)
      return &k->calls[i];
  return NULL;
}

// After a call of k for performer p that touched the table (pend is no
// longer k): the segment k .. p rejoins the chain, above whatever the call
// left pending (settled first), and p is the innermost again. The
// assembly's call paths call it too.
CACS_HIDDEN void cacs__effect_call_rejoin(cacs_effect_coro *k,
                                          cacs_effect_coro *p) {
  struct effect_thread *t = thread();
  if (t->pend)
    settle(t);
  push_segment(t, k);
  k->running = 1; // settle cleared it
  if (k->parent)
    k->parent->child = k; // a resume inside the call may have moved it
  t->cur = p;
}

// A perform by p of an effect that k handles by a call: as if k's
// resumer received the request and resumed k at once with the same set,
// without the switches. While the call runs, the chain is k's resumer's:
// the segment k .. p leaves it as a perform's does (leave), its entries
// kept in place (pend) so that a call that touches no table costs no
// settle; its own performs and resumes settle it first, as for any pend.
// k->in_call keeps k from being resumed or destroyed meanwhile (settle
// makes it look suspended), and the resumer's code runs on p's stack
// (phys: the tools' annotations of a switch back to it name that stack).
// After it, the segment rejoins: nothing to do if pend is still k (its
// entries never left), else they go back on (push_segment), above
// whatever the call left pending (settled first). Constant time when the
// call touches no table; else what a resume of the segment costs.
__attribute__((noinline)) static const void *
call_handler(struct effect_thread *t, cacs_effect_coro *k,
             cacs_effect_coro *p, const struct call_entry *ce,
             void *payload) {
  cacs_effect_call_fn fn = ce->fn;
  void *env = ce->env;
  leave(t, k);
  k->in_call = CALL_RUNS;
  cacs_effect_coro *up = k->parent, *up_phys = NULL, *up_calling = NULL;
  if (up) {
    up_phys = up->phys;
    up_calling = up->calling;
    up->phys = runs_on(p);
    up->calling = k;
  }
  const void *r = fn(payload, env);
  if (up) {
    up->phys = up_phys;
    up->calling = up_calling;
  }
  k->in_call = 0;
  if (__builtin_expect(t->pend == k, 1)) {
    t->pend = NULL; // its entries are in place, k->running still set,
                    // and `cur` is p
  } else {
    cacs__effect_call_rejoin(k, p);
  }
  return r;
}

// A perform whose depth of sync blocks is not its handler's resume's: a
// block left by the perform, or a tool on (SYNC_ANNOTATE).
__attribute__((noinline, cold)) static const void *
perform_slow(struct effect_thread *t, cacs_effect_coro *k, cacs_effect_coro *p,
             cacs_effect *e, void *payload) {
  if (cacs__syncblk.depth != (k->sync_base & ~(SYNC_ANNOTATE | SYNC_CALLS)))
    cacs__sync_violation("CACS_PERFORM of an effect handled outside the "
                         "block");
  leave(t, k);
  settle(t); // no pend under a tool (see tools_on)
  return perform_annotated(k, p, e, payload);
}

__attribute__((noinline)) const void *PERFORM_C(cacs_effect *e,
                                                void *payload) {
  CACS_SAVE_CALLER_BP(bp);
  struct effect_thread *t = thread();
  cacs_effect_coro *p = t->cur;
  // A coroutine of the scheduler other than the chain's aborts (foreign)
  // before it touches the table. The test of p rides on the rare paths:
  // where k is found, p is set (outside a chain the table is empty once
  // settled).
  if (__builtin_expect(t->pend != NULL, 0)) {
    if (innermost(t) && t->owner != S.current)
      foreign("CACS_PERFORM");
    settle(t);
    p = t->cur;
  }
  uint32_t id = e->id; // 0 until numbered: top_lo[0] is never set
  cacs_effect_coro *k = id < TOP_INLINE  ? t->top_lo[id]
                        : id < t->top_cap ? t->top[id]
                                          : NULL;
  if (__builtin_expect(!k, 0)) {
    if (p && t->owner != S.current)
      foreign("CACS_PERFORM");
    return unhandled(e, payload);
  }
  if (__builtin_expect(t->owner != S.current, 0))
    foreign("CACS_PERFORM");
  unsigned base = k->sync_base;
  if (__builtin_expect(base & SYNC_CALLS, 0)) {
    const struct call_entry *ce = find_call(k, id);
    if (ce)
      return call_handler(t, k, p, ce, payload);
    base &= ~SYNC_CALLS;
  }
  if (__builtin_expect(cacs__syncblk.depth != base, 0)) {
    (void)bp;
    return perform_slow(t, k, p, e, payload);
  }
  leave(t, k);
#if EFFECT_TAIL
  EFFECT_SAVE(&k->self);
  effect_jump(&k->self, &k->caller, (uint64_t)(uintptr_t)e,
              (uint64_t)(uintptr_t)payload, bp);
  return NULL; // never reached
#else
  (void)bp;
  return perform_annotated(k, p, e, payload);
#endif
}

// Default-convention symbols (cacs/detail/bind.h, "Only calls bind").
CACS__DEFAULT_ENTRY(cacs_effect_request, effect_resume_with,
                    cacs_effect_resume_with,
                    (cacs_effect_coro * k, cacs_effect *const *handled,
                     const cacs_effect_call *calls, const void *result),
                    (k, handled, calls, result))
CACS__DEFAULT_ENTRY(const void *, effect_perform, cacs_effect_perform,
                    (cacs_effect * e, void *payload), (e, payload))
CACS__DEFAULT_ENTRY(cacs_effect_request, effect_resume, cacs_effect_resume,
                    (cacs_effect_coro * k, cacs_effect *const *handled,
                     const void *result),
                    (k, handled, result))

// --- creation and destruction --------------------------------------------

const char cacs__effect_cancel_token;

static uint64_t coro_ids;

cacs_effect_coro *cacs_effect_create(cacs_effect_fn fn, void *arg,
                                     size_t stack_size) {
  if (cacs__split_on())
    cacs__fatal("cacs: effect coroutines (cacs/effect.h) do not support "
                "-fsplit-stack\n");
  if (cacs__unsafe_sp_slot())
    cacs__fatal("cacs: effect coroutines (cacs/effect.h) do not support "
                "SafeStack yet\n");
  if (!stack_size)
    stack_size = CACS_STACK_SMALL_SIZE;
  cacs_effect_coro *k = (cacs_effect_coro *)cacs_stack_alloc(
      stack_size, sizeof(cacs_effect_coro), 0);
  if (!k)
    return NULL;
  memset((char *)k + sizeof(cacs_stack), 0,
         sizeof(cacs_effect_coro) - sizeof(cacs_stack));
  k->fn = fn;
  k->arg = arg;
  k->tail = k;
  k->saved = k->inline_saved;
  k->cap = INLINE_SAVED;
  uint64_t id = __atomic_add_fetch(&coro_ids, 1, __ATOMIC_RELAXED);
  if (cacs__tsan_on()) { // TSan's fiber (below) takes the name now
    char buf[32];
    snprintf(buf, sizeof buf, "effect#%llu", (unsigned long long)id);
    cacs_stack_set_owner(&k->stack, buf, id);
  } else {
    // "effect#<id>" is made up where a message needs it (misuse, the
    // overflow report), not formatted at every creation: skynet and
    // throws create one per operation.
    k->stack.owner_id = id;
    k->stack.flags |= CACS__STACK_UNNAMED | CACS__STACK_EFFECT;
  }
  if (cacs__tool_stacks_init(&k->tools, stack_size, &k->stack) != 0) {
    cacs_stack_free(&k->stack);
    return NULL;
  }
  cacs_context_init(&k->self, k->stack.top, effect_main, k);
  k->self.pr = k->tools.scs_map;
#if EFFECT_PC_BELOW_SP
  ((void **)k->self.sp)[-1] = k->self.pc; // see EFFECT_JUMP_ASM
#endif
  return k;
}

// ASan (weak: a link-time fact, internal.h): the frames a throw abandons
// leave their redzones poisoned in the stack's shadow, which the stack's
// next owner would trip over.
void __asan_unpoison_memory_region(void const volatile *addr, size_t size)
    __attribute__((weak));

static void coro_free(cacs_effect_coro *k) {
  if (k->calling) // a call ran with k innermost: no one returns to it
    k->calling->in_call = CALL_ABANDONED;
  if (!k->done && __asan_unpoison_memory_region)
    __asan_unpoison_memory_region(
        k->stack.lo, (size_t)((char *)k->stack.top - (char *)k->stack.lo));
  if (k->saved != k->inline_saved)
    free(k->saved);
  free(k->calls);
  cacs__tool_stacks_free(&k->tools);
  cacs_stack_free(&k->stack);
}

void cacs_effect_destroy(cacs_effect_coro *k) {
  if (!k)
    return;
  struct effect_thread *t = thread();
  // pend's head: `running` set until settled; an abandoned call's k is
  // suspended (its entries left the table when the call performed).
  if ((k->running && t->pend != k) || k->in_call == CALL_RUNS)
    misuse(k, "cacs_effect_destroy",
           "the coroutine is running: it, or a coroutine it resumed, is "
           "the caller, or it is suspended inside another");
  if (t->pend == k)
    settle(t);
  // The coroutines suspended with it (its segment) go with it: only its
  // abandoned frames knew them.
  for (cacs_effect_coro *c = k->tail; c != k;) {
    cacs_effect_coro *up = c->parent;
    coro_free(c);
    c = up;
  }
  coro_free(k);
}

int cacs_effect_done(const cacs_effect_coro *k) { return k->done; }

void cacs_effect_set_default(cacs_effect *e,
                             const void *(*handler)(void *payload)) {
  e->dflt = handler;
}
