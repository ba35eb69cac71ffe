//===- cacs/sync.hpp - C++ wrappers for cacs/sync.h -------------*- C++ -*-===//
//
//   cacs::mutex M;
//   cacs::condition_variable CV;
//   {
//     std::unique_lock<cacs::mutex> L(M);
//     CV.wait(L, [&] { return Ready; });
//   }
//   cacs::channel<int> Ch(16);
//   cacs::spawn([&] { for (int I = 0; I < 3; ++I) Ch.send(I); Ch.close(); });
//   for (int V : Ch) ...              // until closed and drained
//
// cacs::mutex has the std::mutex names (lock, try_lock, unlock, try_lock_for),
// so std::lock_guard, std::unique_lock and std::scoped_lock work with it;
// cacs::condition_variable takes std::unique_lock<cacs::mutex> the way
// std::condition_variable takes std::unique_lock<std::mutex>. Timeouts are
// std::chrono durations. Errors that std:: types report with exceptions
// (locking a mutex twice, waiting without owning the mutex) throw
// std::system_error; unlocking a mutex the coroutine does not own aborts.
//
// channel<T> copies trivially copyable T through the channel; any other
// movable T (std::string, std::unique_ptr, ...) travels as a pointer to a
// heap copy made on send and freed on receive (one allocation per item).
// Items left in a channel when it is destroyed are destroyed with it. A
// shared channel must outlive every call on it, also one on another thread
// that a send or close has just served (its coroutine takes the channel's
// lock again before it returns): destroying it earlier aborts with a
// message. A one-thread channel may be destroyed as soon as no coroutine
// is queued on it (a one-shot reply channel, right after the reply).
//
//===----------------------------------------------------------------------===//

#ifndef CACS_SYNC_HPP
#define CACS_SYNC_HPP

#include "cacs/coro.hpp"
#include "cacs/sync.h"

#include <cerrno>
#include <chrono>
#include <condition_variable> // std::cv_status
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <mutex>
#include <new>
#include <optional>
#include <system_error>
#include <type_traits>
#include <utility>

namespace cacs {

namespace detail {
/// The error number of a C call's result: 0 for success, errno for -1
/// (the C API's convention, runtime/README.md "Errors").
inline int err(int Result) noexcept { return Result == 0 ? 0 : errno; }

inline void check(int Err, const char *What) {
  if (Err)
    throw std::system_error(Err, std::generic_category(), What);
}

/// For the timed waits: false on ETIMEDOUT, throws on other errors.
inline bool timed(int Err, const char *What) {
  if (Err == ETIMEDOUT)
    return false;
  check(Err, What);
  return true;
}

[[noreturn]] inline void misuse(const char *What) {
  std::fprintf(stderr, "cacs: %s\n", What);
  std::fflush(stderr);
  std::abort();
}
} // namespace detail

/// Status of a timed channel operation.
enum class chan_status { ok, timeout, closed };

class mutex {
public:
  /// An unlocked mutex for the coroutines of this thread (cacs_mutex).
  mutex() noexcept { cacs_mutex_init(&M); }
  mutex(const mutex &) = delete;
  mutex &operator=(const mutex &) = delete;

  /// Lock, waiting as long as it takes (cacs_mutex_lock, CACS_FOREVER).
  /// Throws std::system_error with the C call's errno: EDEADLK when the
  /// calling coroutine owns it already, ENOMEM.
  void lock() {
    detail::check(detail::err(cacs_mutex_lock(&M, CACS_FOREVER)), "lock");
  }
  /// Lock if it is free, without waiting.
  /// \return true if the calling coroutine now owns it; false if a
  /// coroutine (also the caller) owns it.
  bool try_lock() noexcept { return cacs_mutex_trylock(&M) == 0; }
  /// Lock, waiting at most `D`.
  /// \return false if the time ran out first. Throws std::system_error as
  /// lock() does on the other errors.
  template <class Rep, class Period>
  bool try_lock_for(const std::chrono::duration<Rep, Period> &D) {
    return detail::timed(detail::err(cacs_mutex_lock(&M, detail::to_us(D))),
                         "try_lock_for");
  }
  /// try_lock_for the time left until `T` (by `Clock`, read once).
  /// \return false if the time ran out first; throws as lock() does.
  template <class Clock, class Duration>
  bool try_lock_until(const std::chrono::time_point<Clock, Duration> &T) {
    return try_lock_for(T - Clock::now());
  }
  /// Unlock, handing the mutex to the longest waiter. Aborts with a message
  /// if the calling coroutine does not own it (the C call's EPERM).
  void unlock() noexcept {
    if (cacs_mutex_unlock(&M) != 0)
      detail::misuse("cacs::mutex::unlock: the coroutine does not own it");
  }
  /// \return the cacs_mutex inside, for the C API.
  cacs_mutex *native_handle() noexcept { return &M; }

private:
  cacs_mutex M;
};

class condition_variable {
public:
  /// A condition variable for the coroutines of this thread (cacs_cond).
  condition_variable() noexcept { cacs_cond_init(&C); }
  condition_variable(const condition_variable &) = delete;
  condition_variable &operator=(const condition_variable &) = delete;

  /// Wake the longest waiter, if any (cacs_cond_signal).
  void notify_one() noexcept { cacs_cond_signal(&C); }
  /// Wake every waiter (cacs_cond_broadcast).
  void notify_all() noexcept { cacs_cond_broadcast(&C); }

  /// Unlock `L`'s mutex, wait for a notify, relock it (cacs_cond_wait).
  /// Throws std::system_error: EPERM when `L` does not own its mutex (or the
  /// coroutine does not), ENOMEM.
  void wait(std::unique_lock<mutex> &L) {
    detail::check(wait_us(L, CACS_FOREVER), "condition_variable::wait");
  }
  /// wait(L) until P() holds (P() is tested first, with the lock held).
  /// Throws as wait(L) does.
  template <class Pred> void wait(std::unique_lock<mutex> &L, Pred P) {
    while (!P())
      wait(L);
  }
  /// wait(L), for at most `D`; the mutex is relocked either way.
  /// \return std::cv_status::timeout if no notify chose this waiter in
  /// time, else no_timeout. Throws as wait(L) does on the other errors.
  template <class Rep, class Period>
  std::cv_status wait_for(std::unique_lock<mutex> &L,
                          const std::chrono::duration<Rep, Period> &D) {
    return detail::timed(wait_us(L, detail::to_us(D)), "wait_for")
               ? std::cv_status::no_timeout
               : std::cv_status::timeout;
  }
  /// wait_for the time left until `T` (by `Clock`, read once).
  /// \return as wait_for: std::cv_status::timeout or no_timeout.
  template <class Clock, class Duration>
  std::cv_status wait_until(std::unique_lock<mutex> &L,
                            const std::chrono::time_point<Clock, Duration> &T) {
    return wait_for(L, T - Clock::now());
  }
  /// Wait until P() holds or the time is up; returns P().
  template <class Clock, class Duration, class Pred>
  bool wait_until(std::unique_lock<mutex> &L,
                  const std::chrono::time_point<Clock, Duration> &T, Pred P) {
    while (!P())
      if (wait_until(L, T) == std::cv_status::timeout)
        return P();
    return true;
  }
  /// Wait until P() holds or `D` has passed (measured on
  /// std::chrono::steady_clock).
  /// \return P() at the end: false only if the time ran out with P() false.
  template <class Rep, class Period, class Pred>
  bool wait_for(std::unique_lock<mutex> &L,
                const std::chrono::duration<Rep, Period> &D, Pred P) {
    if (detail::to_us(D) == CACS_FOREVER) { // now + D would overflow
      wait(L, std::move(P));
      return true;
    }
    return wait_until(L, std::chrono::steady_clock::now() + D, std::move(P));
  }
  /// \return the cacs_cond inside, for the C API.
  cacs_cond *native_handle() noexcept { return &C; }

private:
  int wait_us(std::unique_lock<mutex> &L, int64_t Us) {
    if (!L.owns_lock())
      return EPERM;
    return detail::err(cacs_cond_wait(&C, L.mutex()->native_handle(), Us));
  }
  cacs_cond C;
};

namespace detail {
// These return error numbers (detail::err).
inline int sem_wait(cacs_sem *S, int64_t Us) {
  return err(cacs_sem_wait(S, Us));
}
inline int sem_wait(cacs_xsem *S, int64_t Us) {
  return err(cacs_xsem_wait(S, Us));
}
inline int sem_trywait(cacs_sem *S) { return err(cacs_sem_trywait(S)); }
inline int sem_trywait(cacs_xsem *S) { return err(cacs_xsem_trywait(S)); }
inline void sem_post(cacs_sem *S) { cacs_sem_post(S); }
inline void sem_post(cacs_xsem *S) { cacs_xsem_post(S); }

/// std::counting_semaphore's names over cacs_sem or cacs_xsem.
template <class Sem> class semaphore_base {
public:
  semaphore_base(const semaphore_base &) = delete;
  semaphore_base &operator=(const semaphore_base &) = delete;

  void acquire() { check(sem_wait(&S, CACS_FOREVER), "acquire"); }
  bool try_acquire() noexcept { return sem_trywait(&S) == 0; }
  template <class Rep, class Period>
  bool try_acquire_for(const std::chrono::duration<Rep, Period> &D) {
    return timed(sem_wait(&S, to_us(D)), "try_acquire_for");
  }
  void release(uint64_t N = 1) noexcept {
    while (N--)
      sem_post(&S);
  }

protected:
  semaphore_base() = default;
  Sem S;
};
} // namespace detail

/// Counting semaphore for the coroutines of one thread.
class semaphore : public detail::semaphore_base<cacs_sem> {
public:
  /// A semaphore holding `Count` units (cacs_sem_init).
  explicit semaphore(uint64_t Count = 0) noexcept { cacs_sem_init(&S, Count); }
  /// \return the cacs_sem inside, for the C API.
  cacs_sem *native_handle() noexcept { return &S; }
};

/// A semaphore any thread may release and coroutines of any thread acquire:
/// the way to wake a coroutine from another thread.
class shared_semaphore : public detail::semaphore_base<cacs_xsem> {
public:
  /// A shared semaphore holding `Count` units (cacs_xsem_init). Throws
  /// std::system_error with pthread_mutex_init's error if it fails.
  explicit shared_semaphore(uint64_t Count = 0) {
    detail::check(detail::err(cacs_xsem_init(&S, Count)), "shared_semaphore");
  }
  ~shared_semaphore() { cacs_xsem_destroy(&S); }
};

class wait_group {
public:
  /// A wait group with counter 0, for the coroutines of this thread.
  wait_group() noexcept { cacs_waitgroup_init(&W); }
  wait_group(const wait_group &) = delete;
  wait_group &operator=(const wait_group &) = delete;

  /// Add `N` (may be negative) to the counter; at 0 every waiter wakes. A
  /// counter below 0 aborts with a message (cacs_waitgroup_add).
  void add(int64_t N = 1) noexcept { cacs_waitgroup_add(&W, N); }
  /// add(-1).
  void done() noexcept { cacs_waitgroup_done(&W); }
  /// Wait until the counter is 0. Throws std::system_error with ENOMEM if
  /// the wait cannot be set up.
  void wait() {
    detail::check(detail::err(cacs_waitgroup_wait(&W, CACS_FOREVER)), "wait");
  }
  /// False if the time ran out first.
  template <class Rep, class Period>
  bool wait_for(const std::chrono::duration<Rep, Period> &D) {
    return detail::timed(detail::err(cacs_waitgroup_wait(&W, detail::to_us(D))),
                         "wait_for");
  }

private:
  cacs_waitgroup W;
};

/// Bounded FIFO channel of T (see the top of this file). Capacity 0 is a
/// rendezvous. `Shared`: usable from coroutines of several threads.
template <class T> class channel {
  static constexpr bool Inline = std::is_trivially_copyable<T>::value;
  using Slot = typename std::conditional<Inline, T, T *>::type;

public:
  /// A channel buffering up to `Capacity` items (0: a rendezvous);
  /// `Shared`: usable from coroutines of several threads (CACS_CHAN_SHARED).
  /// Throws std::bad_alloc if cacs_chan_create fails (errno says why).
  explicit channel(size_t Capacity, bool Shared = false)
      : Ch(cacs_chan_create(sizeof(Slot), Capacity,
                            Shared ? CACS_CHAN_SHARED : 0)) {
    if (!Ch)
      throw std::bad_alloc();
  }
  ~channel() {
    if constexpr (!Inline) {
      Slot S;
      while (cacs_chan_recv(Ch, &S, 0) == 0)
        delete S;
    }
    if (cacs_chan_destroy(Ch) != 0)
      detail::misuse("cacs::channel destroyed while a coroutine waits on it");
  }
  channel(const channel &) = delete;
  channel &operator=(const channel &) = delete;

  /// False if the channel is closed (the value is dropped).
  bool send(T V) { return send_for_us(std::move(V), CACS_FOREVER) == 0; }
  /// Send `V`, waiting at most `D` for room (or, at capacity 0, for a
  /// receiver).
  /// \return chan_status::ok, timeout, or closed (`V` is dropped unless ok).
  /// Throws std::system_error on other errors (ENOMEM).
  template <class Rep, class Period>
  chan_status send_for(T V, const std::chrono::duration<Rep, Period> &D) {
    return status(send_for_us(std::move(V), detail::to_us(D)));
  }
  /// The next item; nullopt once the channel is closed and empty.
  std::optional<T> recv() {
    std::optional<T> Out;
    recv_for_us(Out, CACS_FOREVER);
    return Out;
  }
  /// Receive into `Out`, waiting at most `D` for an item.
  /// \return chan_status::ok (`Out` holds the item), timeout, or closed
  /// (closed and empty; `Out` unchanged). Throws std::system_error on other
  /// errors (ENOMEM).
  template <class Rep, class Period>
  chan_status recv_for(T &Out, const std::chrono::duration<Rep, Period> &D) {
    std::optional<T> V;
    int E = recv_for_us(V, detail::to_us(D));
    if (E == 0)
      Out = std::move(*V);
    return status(E);
  }
  /// Later sends fail; receivers drain what is buffered. False if it was
  /// closed already.
  bool close() noexcept { return cacs_chan_close(Ch) == 0; }
  /// \return the items buffered now (a snapshot for a shared channel).
  size_t size() const noexcept { return cacs_chan_len(Ch); }
  /// \return the capacity given to the constructor.
  size_t capacity() const noexcept { return cacs_chan_cap(Ch); }

  /// for (T V : Ch): receive until the channel is closed and empty.
  class iterator {
  public:
    using iterator_category = std::input_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = T *;
    using reference = T &;

    iterator() = default;
    explicit iterator(channel *C) : C(C) { ++*this; }
    T &operator*() { return *V; }
    T *operator->() { return &*V; }
    iterator &operator++() {
      V = C->recv();
      if (!V)
        C = nullptr;
      return *this;
    }
    bool operator==(const iterator &O) const { return C == O.C; }
    bool operator!=(const iterator &O) const { return C != O.C; }

  private:
    channel *C = nullptr;
    std::optional<T> V;
  };
  /// Receives the first item (waiting for it): input-iterator semantics.
  /// Throws as recv() does.
  iterator begin() { return iterator(this); }
  /// The iterator that the one from begin() equals once the channel is
  /// closed and empty.
  iterator end() { return iterator(); }

  /// \return the cacs_chan inside, for the C API (it holds T by value if T
  /// is trivially copyable, else a T * per item).
  cacs_chan *native_handle() noexcept { return Ch; }

private:
  static chan_status status(int E) {
    if (E == 0)
      return chan_status::ok;
    if (E == ETIMEDOUT)
      return chan_status::timeout;
    if (E == EPIPE)
      return chan_status::closed;
    throw std::system_error(E, std::generic_category(), "cacs::channel");
  }

  int send_for_us(T &&V, int64_t Us) {
    if constexpr (Inline) {
      return detail::err(cacs_chan_send(Ch, &V, Us));
    } else {
      Slot S = new T(std::move(V));
      int E = detail::err(cacs_chan_send(Ch, &S, Us));
      if (E)
        delete S; // not sent: nobody else saw the copy
      return E;
    }
  }

  int recv_for_us(std::optional<T> &Out, int64_t Us) {
    // Raw storage: a trivially copyable T need not be default-constructible.
    alignas(Slot) unsigned char Buf[sizeof(Slot)];
    int E = detail::err(cacs_chan_recv(Ch, Buf, Us));
    if (E == 0) {
      Slot *S = std::launder(reinterpret_cast<Slot *>(Buf));
      if constexpr (Inline) {
        Out.emplace(*S);
      } else {
        Out.emplace(std::move(**S));
        delete *S;
      }
    } else if (E != ETIMEDOUT && E != EPIPE) {
      status(E); // throws
    }
    return E;
  }

  cacs_chan *Ch;
};

} // namespace cacs

#endif // CACS_SYNC_HPP
