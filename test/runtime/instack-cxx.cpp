// C++ in-stack generators (cacs/instack.hpp): range-for, a recursive body
// (Hanoi) checked against plain recursion, non-trivial values passed by
// address, an exception from the body rethrown in the consumer, early
// destruction (break) unwinding the body's frames (destructors run, counted),
// an exception thrown by the consumer while the generator is suspended, and
// exceptions thrown and caught inside the body.
//
// RUN: %clangxx -std=c++20 -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++20 -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++20 -O3 -fno-omit-frame-pointer -fauto-preserve-none -I%cacs_include %s %cacs_rt_x86_64 -o %t3 && %t3 | FileCheck %s
//
// CHECK: sum 5050
// CHECK: hanoi 12 moves 4095 ok
// CHECK: strings abc|de|f
// CHECK: caught boom after 3 values
// CHECK: break: 3 values, guards alive 0
// CHECK: consumer throw: caught, guards alive 0
// CHECK: inner catches 10
// CHECK: PASS

#include "cacs/instack.hpp"

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

static int Failures;

__attribute__((noinline)) static long sumTo(long N) {
  long S = 0;
  for (long V : cacs::make_instack<long>([N](auto &Yield) {
         for (long I = 1; I <= N; ++I)
           Yield(I);
       }))
    S += V;
  return S;
}

using Yielder = cacs::instack_yielder<unsigned>;
static void hanoi(Yielder &Y, int N, int F, int T, int A) {
  if (N == 0)
    return;
  hanoi(Y, N - 1, F, A, T);
  Y(unsigned(N | F << 8 | T << 16));
  hanoi(Y, N - 1, A, T, F);
}
static void hanoiRef(std::vector<unsigned> &Out, int N, int F, int T, int A) {
  if (N == 0)
    return;
  hanoiRef(Out, N - 1, F, A, T);
  Out.push_back(unsigned(N | F << 8 | T << 16));
  hanoiRef(Out, N - 1, A, T, F);
}
__attribute__((noinline)) static void testHanoi() {
  std::vector<unsigned> Ref;
  hanoiRef(Ref, 12, 'a', 'b', 'c');
  size_t K = 0;
  int Bad = 0;
  for (unsigned M : cacs::make_instack<unsigned>(
           [](Yielder &Y) { hanoi(Y, 12, 'a', 'b', 'c'); })) {
    Bad += K >= Ref.size() || Ref[K] != M;
    ++K;
  }
  Bad += K != Ref.size();
  Failures += Bad;
  std::printf("hanoi 12 moves %zu %s\n", K, Bad ? "WRONG" : "ok");
}

__attribute__((noinline)) static void testStrings() {
  std::string All;
  for (const std::string &S : cacs::make_instack<std::string>([](auto &Y) {
         Y(std::string("abc"));
         std::string Local = "de";
         Y(Local);
         Y("f");
       }))
    All += (All.empty() ? "" : "|") + S;
  std::printf("strings %s\n", All.c_str());
}

__attribute__((noinline)) static void testThrow() {
  int Got = 0;
  try {
    for (int V : cacs::make_instack<int>([](auto &Y) {
           for (int I = 0;; ++I) {
             if (I == 3)
               throw std::runtime_error("boom");
             Y(I);
           }
         })) {
      (void)V;
      ++Got;
    }
  } catch (const std::runtime_error &E) {
    std::printf("caught %s after %d values\n", E.what(), Got);
    return;
  }
  ++Failures;
  std::printf("not caught\n");
}

static int Alive;
struct Guard {
  Guard() { ++Alive; }
  ~Guard() { --Alive; }
};
static void nested(auto &Y, int Depth) {
  Guard G;
  if (Depth == 0) {
    for (int I = 0;; ++I)
      Y(I);
  }
  nested(Y, Depth - 1);
}
__attribute__((noinline)) static void testBreak() {
  int Got = 0;
  for (int V : cacs::make_instack<int>([](auto &Y) { nested(Y, 5); })) {
    if (V == 3)
      break;
    ++Got;
  }
  std::printf("break: %d values, guards alive %d\n", Got, Alive);
  Failures += Alive != 0;
}

__attribute__((noinline)) static void consumerThrows() {
  for (int V : cacs::make_instack<int>([](auto &Y) { nested(Y, 3); }))
    if (V == 2)
      throw 42;
}
__attribute__((noinline)) static void testConsumerThrow() {
  try {
    consumerThrows();
  } catch (int) {
    std::printf("consumer throw: caught, guards alive %d\n", Alive);
    Failures += Alive != 0;
    return;
  }
  ++Failures;
}

__attribute__((noinline)) static void testInnerCatch() {
  int N = 0;
  for (int V : cacs::make_instack<int>([](auto &Y) {
         for (int I = 0; I < 10; ++I) {
           try {
             Y(I);
             throw I;
           } catch (int J) {
             if (J != I)
               throw;
           }
         }
       }))
    N += V >= 0;
  std::printf("inner catches %d\n", N);
}

int main() {
  std::printf("sum %ld\n", sumTo(100));
  testHanoi();
  testStrings();
  testThrow();
  testBreak();
  testConsumerThrow();
  testInnerCatch();
  if (Failures)
    return 1;
  std::printf("PASS\n");
  return 0;
}
