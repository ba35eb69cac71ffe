//===- bench/skynet/skynet_fiber.cpp - skynet on Boost.Fiber --------------===//
//
// skynet (bench/skynet/skynet_pool.c describes the workload and the
// protocol) on Boost.Fiber with its work_stealing scheduler: -v threads,
// each running the algorithm; the main thread is one of them. A node
// launches its children as fibers and waits for their futures.
//
//===----------------------------------------------------------------------===//

#include "bench.h"
#include "skynet.h"

#include <boost/fiber/all.hpp>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

using Alloc = boost::fibers::fixedsize_stack;

static uint64_t skynet(Alloc &alloc, uint64_t num, uint64_t size) {
  if (size == 1)
    return num;
  uint64_t part = size / 10;
  boost::fibers::future<uint64_t> kids[10];
  for (uint64_t i = 0; i < 10; ++i)
    kids[i] = boost::fibers::async(boost::fibers::launch::post,
                                   std::allocator_arg, alloc, skynet,
                                   std::ref(alloc), num + i * part, part);
  uint64_t sum = 0;
  for (auto &k : kids)
    sum += k.get();
  return sum;
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 1000000);
  unsigned workers = a.variant ? (unsigned)atoi(a.variant) : 1;
  char variant[32];
  snprintf(variant, sizeof variant, "boost-fiber-ws-%uw", workers);
  bench_run r = bench_begin("skynet", variant, a.n);
  uint64_t coros = skynet_coroutines(a.n);
  // The other workers join the work-stealing group and sleep in its
  // scheduler until the main thread says the runs are over.
  boost::fibers::mutex m;
  boost::fibers::condition_variable cv;
  bool over = false;
  std::vector<std::thread> threads;
  for (unsigned i = 1; i < workers; ++i)
    threads.emplace_back([&] {
      boost::fibers::use_scheduling_algorithm<
          boost::fibers::algo::work_stealing>(workers);
      std::unique_lock<boost::fibers::mutex> lk(m);
      cv.wait(lk, [&] { return over; });
    });
  boost::fibers::use_scheduling_algorithm<boost::fibers::algo::work_stealing>(
      workers);
  Alloc alloc(16 * 1024);
  uint64_t wall[BENCH_MAX_REPS];
  for (int rep = 0; rep < a.reps; ++rep) {
    uint64_t c0 = bench_process_cpu_ns(), t0 = bench_now_ns();
    uint64_t got = skynet(alloc, 0, a.n);
    uint64_t t1 = bench_now_ns(), c1 = bench_process_cpu_ns();
    wall[rep] = t1 - t0;
    bench_record(&r, c1 - c0, coros, got, a.n * (a.n - 1) / 2);
  }
  {
    std::unique_lock<boost::fibers::mutex> lk(m);
    over = true;
  }
  cv.notify_all();
  for (auto &t : threads)
    t.join();
  bench_print_wall(wall, a.reps);
  return bench_end(&r);
}
