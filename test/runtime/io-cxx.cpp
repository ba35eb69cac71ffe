// cacs/io.hpp: cacs::fd closes what it owns (also when moved from and into),
// accept/connect/read/write_all echo over loopback with lambdas spawned by
// cacs::spawn, and std::chrono timeouts reach the C calls: 20 ms times out
// after 20 ms, a positive timeout under a microsecond still waits (rounded
// up, not to 0 = do not wait), cacs::forever waits until data comes.
//
// RUN: %clangxx -std=c++17 -O2 -fauto-preserve-none -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 -fsanitize=address -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %ta && %ta | FileCheck %s
// RUN: %clangxx --target=aarch64-linux-gnu -std=c++17 -O2 -I%cacs_include %s %cacs_io_aarch64 %cacs_rt_aarch64 -o %tarm && %run_aarch64 %tarm | FileCheck %s
//
// CHECK: echo: 10 connections ok
// CHECK-NEXT: timeouts: 20ms ETIMEDOUT, 1ns waits, forever gets the data ok
// CHECK-NEXT: ownership: moved, reset and destroyed fds closed ok
// CHECK-NEXT: descriptors: none leaked
// CHECK-NEXT: PASS

#include "cacs/coro.hpp"
#include "cacs/io.hpp"

#include "Inputs/io-test.h"

#include <string>
#include <vector>

using namespace std::chrono_literals;

static void testEcho() {
  struct sockaddr_in Addr;
  cacs::fd Listener(listen_loopback(16, &Addr));
  EXPECT(Listener);
  int Echoed = 0;
  cacs_coro *Server = cacs::spawn([&] {
    std::vector<cacs_coro *> Sessions;
    for (int I = 0; I < 10; I++) {
      cacs::fd Conn = Listener.accept(nullptr, nullptr, 5s);
      EXPECT(Conn);
      Sessions.push_back(cacs::spawn([C = std::move(Conn)] {
        char Buf[256];
        ssize_t N;
        while ((N = C.read(Buf, sizeof Buf, 5s)) > 0)
          if (C.write_all(Buf, (size_t)N, 5s) != N)
            break;
      }));
    }
    for (cacs_coro *S : Sessions)
      cacs_join(S);
  });
  std::vector<cacs_coro *> Clients;
  for (int I = 0; I < 10; I++)
    Clients.push_back(cacs::spawn([&, I] {
      cacs::fd C(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
      EXPECT(C.connect((struct sockaddr *)&Addr, sizeof Addr, 5s) == 0);
      std::string Msg = "hello from client " + std::to_string(I);
      char Back[64] = {0};
      EXPECT(C.write_all(Msg.data(), Msg.size(), 5s) == (ssize_t)Msg.size());
      EXPECT(C.read(Back, sizeof Back, 5s) == (ssize_t)Msg.size());
      Echoed += Msg == Back;
    }));
  for (cacs_coro *C : Clients)
    cacs_join(C);
  cacs_join(Server);
  printf("echo: %d connections %s\n", Echoed, failures ? "FAILED" : "ok");
}

static void testTimeouts() {
  int Sv[2];
  EXPECT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Sv) == 0);
  cacs::fd A(Sv[0]), B(Sv[1]);
  char C;
  long long T0 = now_us();
  bool Short =
      A.read(&C, 1, 20ms) == -1 && errno == ETIMEDOUT && now_us() - T0 >= 20000;
  EXPECT(Short);
  // 1 ns must not become "do not wait": data sent by another coroutine
  // during the (1 us) wait cannot arrive in time, so the read still times
  // out, but only after waiting: it must have let the other coroutine run.
  bool Ran = false;
  cacs_coro *Other = cacs::spawn([&] { Ran = true; });
  EXPECT(A.read(&C, 1, 1ns) == -1 && errno == ETIMEDOUT);
  bool Waited = Ran;
  EXPECT(Waited);
  cacs_join(Other);
  cacs_coro *Sender = cacs::spawn([&] {
    cacs_sleep(5000);
    EXPECT(B.write("f", 1, 1s) == 1);
  });
  bool Forever = A.read(&C, 1, cacs::forever) == 1 && C == 'f';
  EXPECT(Forever);
  cacs_join(Sender);
  printf("timeouts: 20ms %s, 1ns %s, forever %s %s\n",
         Short ? "ETIMEDOUT" : "wrong", Waited ? "waits" : "does not wait",
         Forever ? "gets the data" : "wrong", failures ? "FAILED" : "ok");
}

static void testOwnership() {
  int Before = fd_count();
  {
    int Sv[2];
    EXPECT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Sv) == 0);
    cacs::fd A(Sv[0]), B(Sv[1]);
    cacs::fd Moved(std::move(A)); // A is empty now
    EXPECT(!A && Moved.get() == Sv[0]);
    EXPECT(B.reset() == 0); // closes Sv[1]
    EXPECT(fd_count() == Before + 1);
    int Sv2[2];
    EXPECT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Sv2) == 0);
    cacs::fd C(Sv2[0]);
    close(Sv2[1]);
    C = std::move(Moved); // closes Sv2[0], takes Sv[0]
    EXPECT(fd_count() == Before + 1);
  } // C closes Sv[0]
  EXPECT(fd_count() == Before);
  printf("ownership: moved, reset and destroyed fds closed %s\n",
         failures ? "FAILED" : "ok");
}

int main() {
  int Fds = test_begin(60);
  testEcho();
  testTimeouts();
  testOwnership();
  return test_end(Fds);
}
