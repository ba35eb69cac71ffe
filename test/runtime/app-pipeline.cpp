// A fan-out job in C++ over the cacs/*.hpp wrappers, as a user would write
// it: a producer coroutine feeds a bounded channel<Job>; worker coroutines
// take jobs in a range-for, each stage under a semaphore that limits how
// many run at once (a RAII guard), some jobs throw and are caught in the
// worker; results cross to a second thread, running its own scheduler,
// through a shared channel, with credits (a shared_semaphore) that the
// second thread returns as it consumes; there collectors put results into
// a reorder buffer under a mutex, and an emitter waits on a condition
// variable for the next sequence number, so the checksum is folded in job
// order. Wait groups tell each side when the other is done; the summary
// comes back to the first thread on a rendezvous channel with a timeout.
//
// The output of every build must equal the plain one: libcacs compiled from
// its sources with stock clang -O0, no cacs flags.
// RUN: %stock_clangxx -std=c++17 -O0 -I%cacs_include %s $(%cacs_rt_objs %stock_clang -O0 -I%cacs_include) -lpthread -o %tref
// RUN: %tref > %t.ref && FileCheck %s < %t.ref
// RUN: %clangxx -std=c++17 -O0 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t0 && %t0 | diff %t.ref -
// RUN: %clangxx -std=c++17 -O3 -fauto-preserve-none -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t3 && %t3 | diff %t.ref -
// RUN: %clangxx -std=c++17 -O2 -flto -fauto-preserve-none -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %tl && %tl | diff %t.ref -
// RUN: printf 'fun:*pipe*\n' > %t.list
// RUN: %clangxx -std=c++17 -O2 -fpreserve-none-list=%t.list -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %tp && %tp | diff %t.ref -
// RUN: %if llvm-22 %{ %clangxx -std=c++17 -O2 -fauto-preserve-none -fpreserve-none-callee-saved=none -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %tn && %tn | diff %t.ref - %}
// RUN: %if gcc %{ g++ -std=c++17 -O2 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %tg && %tg | diff %t.ref - %}
// AArch64, ASan and TSan: app-pipeline-aarch64.cpp, app-pipeline-tools.test.
//
// CHECK: producer: 400 jobs, 2 stages, {{[0-9]+}} bytes
// CHECK-NEXT: workers: 8, at most 3 in a stage at once (limit 3), 24 failed jobs caught
// CHECK-NEXT: consumer thread: 400 results in order, 376 ok, 24 failed, checksum {{[0-9a-f]+}}
// CHECK-NEXT: credits: 6 of 6 back
// CHECK-NEXT: PASS

#include "Inputs/check.h"
#include "cacs/coro.hpp"
#include "cacs/sync.hpp"

#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace std::chrono_literals;

namespace pipe_app {

constexpr int NumJobs = 400, NumWorkers = 8, StageLimit = 3, Credits = 6,
              NumCollectors = 3;

struct Job {
  int Seq;
  std::string Payload;
};

struct Result {
  int Seq;
  bool Ok;
  std::string Text; // the transformed payload, or the error message
};

uint64_t fnv(uint64_t H, const std::string &S) {
  for (unsigned char C : S)
    H = (H ^ C) * 0x100000001b3ull;
  return H;
}

/// A semaphore unit for the scope of a stage.
class StageGuard {
public:
  StageGuard(cacs::semaphore &S, int &InFlight, int &MaxInFlight)
      : S(S), InFlight(InFlight) {
    S.acquire();
    if (++InFlight > MaxInFlight)
      MaxInFlight = InFlight;
  }
  ~StageGuard() {
    --InFlight;
    S.release();
  }
  StageGuard(const StageGuard &) = delete;
  StageGuard &operator=(const StageGuard &) = delete;

private:
  cacs::semaphore &S;
  int &InFlight;
};

/// Stage one: reverse the payload; every 17th job is malformed.
std::string stageParse(const Job &J) {
  if (J.Seq % 17 == 5)
    throw std::runtime_error("job " + std::to_string(J.Seq) + ": malformed");
  std::string R(J.Payload.rbegin(), J.Payload.rend());
  for (size_t I = 0; I < R.size() % 5; ++I)
    cacs_yield(); // work that lets the other workers run
  return R;
}

/// Stage two: a running digest; waits a little on some jobs.
std::string stageDigest(const std::string &S, int Seq) {
  if (Seq % 50 == 0)
    cacs_sleep(1000);
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%016llx",
                (unsigned long long)fnv(0xcbf29ce484222325ull, S));
  return S.substr(0, 8) + ":" + Buf;
}

struct Stats {
  int InFlight = 0, MaxInFlight = 0, Caught = 0;
  size_t Bytes = 0;
};

/// The second thread: its own scheduler, collectors and an in-order emitter.
struct ConsumerSide {
  cacs::channel<Result> &In;
  cacs::shared_semaphore &CreditsBack;
  cacs::channel<std::string> &Summary;

  void run() {
    cacs::mutex M;
    cacs::condition_variable Ready;
    std::map<int, Result> Reorder;
    cacs::wait_group Collecting;
    int Next = 0, Ok = 0, Failed = 0;
    uint64_t H = 0xcbf29ce484222325ull;
    std::vector<cacs_coro *> Coros;
    for (int C = 0; C < NumCollectors; ++C) {
      Collecting.add();
      Coros.push_back(cacs::spawn(
          [&] {
            for (;;) {
              Result R;
              // Short timeouts: the collector polls, as one with other
              // duties would.
              cacs::chan_status St = In.recv_for(R, 2ms);
              if (St == cacs::chan_status::timeout)
                continue;
              if (St == cacs::chan_status::closed)
                break;
              CreditsBack.release();
              std::lock_guard<cacs::mutex> L(M);
              int Seq = R.Seq;
              Reorder.emplace(Seq, std::move(R));
              if (Seq == Next)
                Ready.notify_one();
            }
            Collecting.done();
          },
          "pipe-collector"));
    }
    Coros.push_back(cacs::spawn(
        [&] {
          std::unique_lock<cacs::mutex> L(M);
          while (Next < NumJobs) {
            if (!Ready.wait_for(L, 5s, [&] { return Reorder.count(Next); })) {
              std::printf("FAIL: result %d never came\n", Next);
              ++failures;
              return;
            }
            auto It = Reorder.find(Next);
            H = fnv(H, It->second.Text);
            (It->second.Ok ? Ok : Failed)++;
            Reorder.erase(It);
            ++Next;
          }
        },
        "pipe-emitter"));
    EXPECT(Collecting.wait_for(30s));
    for (cacs_coro *C : Coros)
      cacs_join(C);
    char Line[160];
    std::snprintf(Line, sizeof Line,
                  "consumer thread: %d results in order, %d ok, %d failed, "
                  "checksum %016llx",
                  Next, Ok, Failed, (unsigned long long)H);
    EXPECT(Summary.send_for(std::string(Line), 10s) == cacs::chan_status::ok);
  }
};

int pipeMain() {
  cacs::channel<Job> Jobs(4);
  cacs::channel<Result> Results(8, /*Shared=*/true);
  cacs::channel<std::string> Summary(0, /*Shared=*/true);
  cacs::shared_semaphore CreditPool(Credits);
  cacs::semaphore Stage(StageLimit);
  cacs::wait_group Working;
  Stats St;

  std::thread Consumer([&] {
    ConsumerSide Side{Results, CreditPool, Summary};
    Side.run();
  });

  cacs_coro *Producer = cacs::spawn(
      [&] {
        uint32_t Seed = 12345;
        for (int I = 0; I < NumJobs; ++I) {
          Seed = Seed * 1664525u + 1013904223u;
          std::string P(8 + Seed % 40, 'a');
          for (size_t K = 0; K < P.size(); ++K)
            P[K] = static_cast<char>('a' + (Seed >> (K % 24)) % 26);
          St.Bytes += P.size();
          EXPECT(Jobs.send(Job{I, std::move(P)}));
        }
        Jobs.close();
      },
      "pipe-producer");

  std::vector<cacs_coro *> Workers;
  for (int W = 0; W < NumWorkers; ++W) {
    Working.add();
    Workers.push_back(cacs::spawn(
        [&] {
          for (Job &J : Jobs) {
            Result R{J.Seq, true, {}};
            try {
              std::string Parsed;
              {
                StageGuard G(Stage, St.InFlight, St.MaxInFlight);
                Parsed = stageParse(J);
              }
              StageGuard G(Stage, St.InFlight, St.MaxInFlight);
              R.Text = stageDigest(Parsed, J.Seq);
            } catch (const std::exception &E) {
              ++St.Caught;
              R.Ok = false;
              R.Text = E.what();
            }
            // A credit per result in flight to the other thread.
            while (!CreditPool.try_acquire_for(10ms)) {
            }
            EXPECT(Results.send(std::move(R)));
          }
          Working.done();
        },
        "pipe-worker"));
  }
  EXPECT(Working.wait_for(60s));
  Results.close(); // the collectors drain it, then stop
  cacs_join(Producer);
  for (cacs_coro *W : Workers)
    cacs_join(W);

  std::string Line;
  EXPECT(Summary.recv_for(Line, 30s) == cacs::chan_status::ok);
  Consumer.join();

  int Back = 0;
  while (CreditPool.try_acquire())
    ++Back;
  std::printf("producer: %d jobs, 2 stages, %zu bytes\n", NumJobs, St.Bytes);
  std::printf("workers: %d, at most %d in a stage at once (limit %d), %d "
              "failed jobs caught\n",
              NumWorkers, St.MaxInFlight, StageLimit, St.Caught);
  std::printf("%s\n", Line.c_str());
  std::printf("credits: %d of %d back\n", Back, Credits);
  EXPECT(St.MaxInFlight == StageLimit && Back == Credits);
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}

} // namespace pipe_app

int main() {
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  watchdog(120);
  return pipe_app::pipeMain();
}
