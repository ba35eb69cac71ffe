//===- bench/locks/locks_fiber.cpp - Boost.Fiber mutex, work stealing -----===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The lock benchmark (locks.h) with one fiber per task under Boost.Fiber's
// `work_stealing` algorithm on WORKERS threads (the main thread is one of
// them), locking a boost::fibers::mutex, or for `-k cond` a queue of -u
// slots behind one and two boost::fibers::condition_variable_any (its
// condition_variable is that over a unique_lock). Boost.Fiber has no
// reader-writer mutex, so there is no -W variant here.
//
//===----------------------------------------------------------------------===//

#define LK_YIELD() boost::this_fiber::yield()
#include "locks.h"

#include <boost/fiber/all.hpp>

#include <thread>
#include <vector>

namespace bf = boost::fibers;

int main(int argc, char **argv) {
  lk_config c = lk_parse(argc, argv);
  if (c.writers >= 0 || (c.units && c.counter != 3) || c.counter == 2) {
    fprintf(stderr, "locks_fiber: only the mutex and the condition variable "
                    "(Boost.Fiber has no reader-writer mutex; no semaphore "
                    "or channel here)\n");
    return 64;
  }
  lk_setup(&c);
  bf::mutex mu;
  bf::condition_variable_any not_empty, not_full;
  bf::mutex done_mu;
  bf::condition_variable done_cv;
  int remaining = c.tasks;
  // The other workers join the pool and sleep until the tasks are done
  // (work_stealing's `suspend` lets idle workers block, not spin).
  std::vector<std::thread> threads;
  bool finished = false;
  for (int i = 1; i < c.workers; ++i)
    threads.emplace_back([&] {
      bf::use_scheduling_algorithm<bf::algo::work_stealing>(c.workers, true);
      std::unique_lock<bf::mutex> lk(done_mu);
      done_cv.wait(lk, [&] { return finished; });
    });
  bf::use_scheduling_algorithm<bf::algo::work_stealing>(c.workers, true);
  lk_task *t = lk_tasks(&c, lk_now_ns());
  for (int i = 0; i < c.tasks; ++i)
    bf::fiber(bf::launch::post, [&, ti = &t[i]] {
      if (c.counter == 3)
        LK_CHAN_LOOP(ti,
                     LK_COND_SEND(mu.lock(), mu.unlock(), not_full.wait(mu),
                                  not_empty.notify_one()),
                     LK_COND_RECV(mu.lock(), mu.unlock(), not_empty.wait(mu),
                                  not_full.notify_one()));
      else
        LK_TASK_LOOP(ti, -1, mu.lock(), mu.unlock(), (void)0, (void)0);
      std::unique_lock<bf::mutex> lk(done_mu);
      if (--remaining == 0)
        done_cv.notify_all();
    }).detach();
  {
    std::unique_lock<bf::mutex> lk(done_mu);
    done_cv.wait(lk, [&] { return remaining == 0; });
    finished = true;
    done_cv.notify_all();
  }
  for (auto &th : threads)
    th.join();
  return lk_report(c.counter == 3 ? "boost_fiber_cond" : "boost_fiber_mutex",
                   &c, t);
}
