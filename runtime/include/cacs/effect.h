//===- cacs/effect.h - Effect handlers on stackful coroutines ---*- C -*-===//
//
// Effect handlers in the model of libseff (green threads, generators,
// exceptions, actors and async I/O as one mechanism), written on libcacs's
// switch. An effect coroutine runs fn(arg) on its own stack. Code running
// in it, at any call depth, performs an effect; the perform suspends the
// coroutine and hands a request (which effect, a pointer to the payload,
// which stays on the performer's stack) to the handler: the code that
// resumed the coroutine with a set of effects containing that one.
//
//   CACS_EFFECT(ask, int, long);            // payload int, result long
//   long r = CACS_PERFORM(ask, 42);         // inside an effect coroutine
//
//   cacs_effect_coro *k = cacs_effect_create(body, arg, 0);
//   cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(ask), NULL);
//   while (q.effect == &CACS_EFFECT_OF(ask)) {
//     long answer = *(int *)q.payload * 2;
//     q = cacs_effect_resume(k, CACS_HANDLES(ask), &answer);
//   }
//   // q.effect == NULL: body returned q.payload.
//   cacs_effect_destroy(k);
//
// Handlers nest: code running inside an effect coroutine may resume other
// effect coroutines. An effect that the innermost handler does not handle
// goes to the nearest enclosing one that does; the coroutines between
// (the performer's and its handlers', up to the one resumed by the handler
// found) stay suspended together, and resuming that outermost one resumes
// the performer. A handler is shallow: the set is given anew on each
// resume, and the coroutine is not handled between resumes.
//
// Lookup: constant time, whatever the number of handlers between the
// performer and its handler and the number of effects the program defines
// (ids are numbered on first use, unbounded). Each thread keeps a table,
// per effect id, of the innermost handler of the running chain of
// coroutines; see lib/effect.c for the invariant and its cost: a resume of
// the coroutine whose request the handler just received, with the same
// set, is constant time too; any other resume re-installs the handlers of
// the coroutines it resumes (linear in their number).
//
// An effect no handler of the chain handles goes to the effect's default
// handler (cacs_effect_set_default), called like a function on the
// performer's stack; without one the program aborts naming the effect.
//
// Call handlers (cacs_effect_resume_with): a resume may pair effects with
// functions, which answer a perform of them by a call on the performer's
// stack, without a switch, as a handler that resumes at once with the
// same set would (a tail-resumptive handler).
//
// Throw: a handler that does not resume the coroutine destroys it
// (cacs_effect_destroy), which releases its stack and those of the effect
// coroutines suspended with it (the chain from it down to the performer),
// without running their frames: C frames need nothing; C++ destructors of
// those frames do not run (no unwinding in this C API).
//
// Perform and resume are preserve_none switches (cacs/detail/bind.h): the
// compiler spills only what is live at each call, and APN
// (-fauto-preserve-none) reaches the functions that perform.
//
// Threads and the scheduler: an effect coroutine belongs to the thread that
// created it. It may call libcacs's waits (cacs_yield, cacs/io.h, ...), but
// while it is suspended there, no other coroutine of the thread may
// perform or resume: the thread's handler table belongs to one running
// chain. A coroutine of cacs/coro.h that does aborts, naming the misuse;
// pool coroutines are not told apart yet (the default pool mode keeps a
// coroutine on its worker, but another one may run there meanwhile).
//
//===----------------------------------------------------------------------===//

#ifndef CACS_EFFECT_H
#define CACS_EFFECT_H

#include "cacs/detail/bind.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/// An effect: its name and its id (0 until first used, then numbered from
/// 1 by the library). Define one with CACS_EFFECT.
typedef struct cacs_effect {
  const char *name;
  uint32_t id;
  /// The library's: where a perform looks for its handler first (0 until
  /// numbered).
  uint32_t slot;
  /// Called on the performer's stack when no handler of the chain handles
  /// the effect; returns a pointer to the result (NULL: a zero result).
  const void *(*dflt)(void *payload);
} cacs_effect;

/// An effect coroutine.
typedef struct cacs_effect_coro cacs_effect_coro;
/// Its function: the return value reaches the handler (request.payload).
typedef void *(*cacs_effect_fn)(void *arg);

/// What a resume returns: the effect performed and its payload on the
/// performer's stack, or effect NULL once the coroutine has returned, with
/// its return value in `payload`.
typedef struct cacs_effect_request {
  const cacs_effect *effect;
  void *payload;
} cacs_effect_request;

/// The descriptor of effect `name`.
#define CACS_EFFECT_OF(name) cacs_effect_##name
/// Define effect `name` with payload type `payload_t` and result type
/// `result_t` (use a struct for several values, any type for none). In a
/// header: a weak definition, one effect for the whole program.
#define CACS_EFFECT(name, payload_t, result_t)                                 \
  typedef payload_t cacs_effect_##name##_payload;                              \
  typedef result_t cacs_effect_##name##_result;                                \
  __attribute__((weak)) cacs_effect cacs_effect_##name = {#name, 0, 0, NULL}

/// A set of handled effects, for cacs_effect_resume:
/// CACS_HANDLES(get, put), inside a function. A static array, one per use:
/// it lives for the whole program, and a handler loop's resume stores
/// nothing to pass it (a compound literal in the loop's block was stored
/// anew before every resume: two stores of a round's ~19, bench/effect).
#define CACS_HANDLES(...)                                                      \
  __extension__({                                                              \
    static cacs_effect *const cacs_h_[] = {CACS__EFFECT_LIST(__VA_ARGS__)      \
                                               NULL};                          \
    cacs_h_;                                                                   \
  })
#define CACS__EFFECT_ADDR(n) &cacs_effect_##n,
#define CACS__EFFECT_LIST(...)                                                 \
  CACS__EFFECT_MAP(CACS__EFFECT_ADDR, __VA_ARGS__)
// A map over up to 8 arguments.
#define CACS__EFFECT_MAP(f, ...)                                               \
  CACS__EFFECT_MAP_N(__VA_ARGS__, 8, 7, 6, 5, 4, 3, 2, 1, 0)(f, __VA_ARGS__)
#define CACS__EFFECT_MAP_N(a, b, c, d, e, f, g, h, n, ...) CACS__EFFECT_MAP##n
#define CACS__EFFECT_MAP1(f, a) f(a)
#define CACS__EFFECT_MAP2(f, a, ...) f(a) CACS__EFFECT_MAP1(f, __VA_ARGS__)
#define CACS__EFFECT_MAP3(f, a, ...) f(a) CACS__EFFECT_MAP2(f, __VA_ARGS__)
#define CACS__EFFECT_MAP4(f, a, ...) f(a) CACS__EFFECT_MAP3(f, __VA_ARGS__)
#define CACS__EFFECT_MAP5(f, a, ...) f(a) CACS__EFFECT_MAP4(f, __VA_ARGS__)
#define CACS__EFFECT_MAP6(f, a, ...) f(a) CACS__EFFECT_MAP5(f, __VA_ARGS__)
#define CACS__EFFECT_MAP7(f, a, ...) f(a) CACS__EFFECT_MAP6(f, __VA_ARGS__)
#define CACS__EFFECT_MAP8(f, a, ...) f(a) CACS__EFFECT_MAP7(f, __VA_ARGS__)

/// Create an effect coroutine that will run fn(arg) (stack_size 0:
/// CACS_STACK_SMALL_SIZE). It first runs at its first resume.
/// \return it, or NULL with errno set (ENOMEM, mmap(2)'s errors).
cacs_effect_coro *cacs_effect_create(cacs_effect_fn fn, void *arg,
                                     size_t stack_size);
/// Free `k`, finished or suspended, and the effect coroutines suspended
/// with it (see "Throw" above). Aborts naming the misuse if `k` is
/// running. NULL: nothing.
void cacs_effect_destroy(cacs_effect_coro *k);
/// Whether `k` has returned.
int cacs_effect_done(const cacs_effect_coro *k);

/// Run `k` (the performer suspended under it, if any) until an effect of
/// `handled` (NULL-terminated; CACS_HANDLES) is performed under it and not
/// handled closer to the performer, or until it returns. `result` is what
/// the pending perform returns (a pointer to the result; NULL: a zero
/// result); ignored on the first resume. Aborts naming the misuse if `k`
/// is running or has returned.
cacs_effect_request cacs_effect_resume(cacs_effect_coro *k,
                                       cacs_effect *const *handled,
                                       const void *result);
/// Perform effect `e` with `payload` (on the caller's stack): returns the
/// pointer its handler resumed with. The macro CACS_PERFORM is the typed
/// form.
const void *cacs_effect_perform(cacs_effect *e, void *payload);

/// A call handler (a tail-resumptive handler): for effect `effect`, the
/// function that answers a perform of it by a call. fn(payload, env) runs
/// on the performer's stack, and what it returns is what the perform
/// returns: as if the handler had received the request and resumed at once
/// with the same set and that result, without the two switches.
typedef const void *(*cacs_effect_call_fn)(void *payload, void *env);
typedef struct cacs_effect_call {
  cacs_effect *effect;
  cacs_effect_call_fn fn;
  void *env;
} cacs_effect_call;

/// A call handler for effect `name`: CACS_CALL(get, get_fn, &state).
#define CACS_CALL(name, fn, env)                                               \
  { &cacs_effect_##name, (fn), (env) }
/// A set of call handlers, for cacs_effect_resume_with:
/// CACS_CALLS(CACS_CALL(get, get_fn, &s), CACS_CALL(put, put_fn, &s)).
/// Lives in the enclosing block.
#define CACS_CALLS(...)                                                        \
  ((const cacs_effect_call[]){__VA_ARGS__, {NULL, NULL, NULL}})

/// cacs_effect_resume with call handlers besides the effects handled by a
/// request: `handled` (NULL-terminated, or NULL for none) as there, and
/// `calls` (ended by an entry whose effect is NULL; NULL for none), which
/// the coroutine copies. A perform that the table gives to `k` for an
/// effect of `calls` (nearest handler first, as for any effect; an effect
/// in both lists is called) runs the call on the performer's stack and
/// returns its result: no switch, no request, constant time. While the
/// call runs, the chain is the handler's (k's resumer's): what it
/// performs goes to the handlers above k, or to the default handler, as
/// from the handler's own code; a resume inside it of k, or of a
/// coroutine suspended under k, aborts (k is running). The call must
/// return (no longjmp out of it); in C++ it must not throw (effect.hpp's
/// cacs::effect_call turns a cancellation into CACS_EFFECT_CANCEL, which
/// the performer then throws). A sync block around the perform allows
/// the call (it is no switch). Other effects of `handled` switch as in
/// cacs_effect_resume.
cacs_effect_request cacs_effect_resume_with(cacs_effect_coro *k,
                                            cacs_effect *const *handled,
                                            const cacs_effect_call *calls,
                                            const void *result);

/// Set the default handler of effect `e` (NULL: none).
void cacs_effect_set_default(cacs_effect *e,
                             const void *(*handler)(void *payload));

/// The result a cacs::effect_coro (cacs/effect.hpp) being destroyed resumes
/// its performer with: in C++, CACS_PERFORM then throws, so that the
/// abandoned frames unwind.
#define CACS_EFFECT_CANCEL ((const void *)&cacs__effect_cancel_token)
extern const char cacs__effect_cancel_token;
#ifdef __cplusplus
#define CACS__EFFECT_CANCELLED(r)                                              \
  if (__builtin_expect((r) == CACS_EFFECT_CANCEL, 0))                          \
    cacs__effect_throw_cancel();
#else
#define CACS__EFFECT_CANCELLED(r)
#endif

/// Perform effect `name` with a payload built from the arguments (its
/// initializer), and yield its result by value (zero if the handler gave
/// NULL).
#define CACS_PERFORM(name, ...)                                                \
  __extension__({                                                              \
    cacs_effect_##name##_payload cacs_p_ = {__VA_ARGS__};                      \
    const void *cacs_r_ =                                                      \
        cacs_effect_perform(&cacs_effect_##name, (void *)&cacs_p_);            \
    CACS__EFFECT_CANCELLED(cacs_r_)                                            \
    cacs_effect_##name##_result cacs_v_;                                       \
    if (cacs_r_)                                                               \
      memcpy(&cacs_v_, cacs_r_, sizeof cacs_v_);                               \
    else                                                                       \
      memset(&cacs_v_, 0, sizeof cacs_v_);                                     \
    cacs_v_;                                                                   \
  })

// Calls of perform and resume bind to their preserve_none entries
// (cacs/detail/bind.h), as cacs/sync.h's waits do.
#if CACS__WAIT_NO_BP_BIND
CACS__WAIT_DECL const void *cacs__call_effect_perform(cacs_effect *e,
                                                      void *payload)
    CACS__WAIT_ENTRY(effect_perform);
#define cacs_effect_perform(...) cacs__call_effect_perform(__VA_ARGS__)
// A resume runs a nested coroutine that comes back: a sync block allows it.
CACS__WAIT_DECL CACS__SYNC_BLOCK_ALLOWS cacs_effect_request
cacs__call_effect_resume(cacs_effect_coro *k, cacs_effect *const *handled,
                         const void *result) CACS__WAIT_ENTRY(effect_resume);
#define cacs_effect_resume(...) cacs__call_effect_resume(__VA_ARGS__)
CACS__WAIT_DECL CACS__SYNC_BLOCK_ALLOWS cacs_effect_request
cacs__call_effect_resume_with(cacs_effect_coro *k, cacs_effect *const *handled,
                              const cacs_effect_call *calls, const void *result)
    CACS__WAIT_ENTRY(effect_resume_with);
#define cacs_effect_resume_with(...) cacs__call_effect_resume_with(__VA_ARGS__)
#endif

#ifdef __cplusplus
} // extern "C"

namespace cacs {
/// Thrown by CACS_PERFORM in a coroutine that cacs::effect_coro destroys
/// before its end: let it pass (catch (...) must rethrow).
struct effect_cancelled {};
} // namespace cacs
[[noreturn]] inline void cacs__effect_throw_cancel() {
  throw cacs::effect_cancelled{};
}
#endif

#endif // CACS_EFFECT_H
