// C++ generator wrapper: range-for, values by register and by address,
// recursive yields (Hanoi), exceptions propagating to the consumer, and
// unwinding of a generator destroyed before its end.
//
// RUN: %clangxx -std=c++17 -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 -fno-omit-frame-pointer -I%cacs_include %s %cacs_rt_x86_64 -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx -std=c++20 -O1 -I%cacs_include %s %cacs_rt_x86_64 -o %t1 && %t1 | FileCheck %s
//
// CHECK: range-for sum 5050
// CHECK: strings: alpha,beta,gamma,
// CHECK: hanoi 1048575 moves match
// CHECK: rethrown: boom at 3
// CHECK: early destroy: 2 guards destroyed
// CHECK: PASS

#include "cacs/generator.hpp"

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

static int failures;

static void hanoi(cacs::generator<uint32_t>::yielder &y, int n, int f, int t,
                  int a) {
  if (n == 0)
    return;
  hanoi(y, n - 1, f, a, t);
  y(uint32_t(n | f << 8 | t << 16));
  hanoi(y, n - 1, a, t, f);
}
static void hanoi_ref(std::vector<uint32_t> &out, int n, int f, int t,
                      int a) {
  if (n == 0)
    return;
  hanoi_ref(out, n - 1, f, a, t);
  out.push_back(uint32_t(n | f << 8 | t << 16));
  hanoi_ref(out, n - 1, a, t, f);
}

struct guard {
  int *count;
  ~guard() { ++*count; }
};

int main() {
  {
    cacs::generator<int> g([](cacs::generator<int>::yielder &yield) {
      for (int i = 1; i <= 100; ++i)
        yield(i);
    });
    int sum = 0;
    for (int v : g)
      sum += v;
    std::printf("range-for sum %d\n", sum);
    failures += sum != 5050;
  }
  {
    cacs::generator<std::string> g(
        [](cacs::generator<std::string>::yielder &yield) {
          std::string s = "alpha";
          yield(s);
          yield(std::string("beta"));
          s = "gamma";
          yield(s);
        });
    std::string all;
    for (const std::string &s : g)
      all += s + ",";
    std::printf("strings: %s\n", all.c_str());
    failures += all != "alpha,beta,gamma,";
  }
  {
    std::vector<uint32_t> ref;
    hanoi_ref(ref, 20, 'a', 'b', 'c');
    cacs::generator<uint32_t> g(
        [](cacs::generator<uint32_t>::yielder &y) { hanoi(y, 20, 'a', 'b', 'c'); });
    size_t i = 0, bad = 0;
    for (uint32_t m : g)
      bad += i >= ref.size() || ref[i++] != m;
    bool ok = !bad && i == ref.size() && i == (1u << 20) - 1;
    std::printf("hanoi %zu moves %s\n", i, ok ? "match" : "DIFFER");
    failures += !ok;
  }
  {
    cacs::generator<int> g([](cacs::generator<int>::yielder &yield) {
      for (int i = 0;; ++i) {
        if (i == 3)
          throw std::runtime_error("boom at 3");
        yield(i);
      }
    });
    int seen = 0;
    try {
      for (int v : g)
        seen += v == seen;
      std::printf("no exception\n");
      ++failures;
    } catch (const std::runtime_error &e) {
      std::printf("rethrown: %s\n", e.what());
      failures += seen != 3;
    }
  }
  {
    int destroyed = 0;
    {
      cacs::generator<int> g([&](cacs::generator<int>::yielder &yield) {
        guard a{&destroyed};
        for (int i = 0;; ++i) {
          guard b{&destroyed};
          yield(i);
          --destroyed; // b is destroyed once per iteration: count the last
        }
      });
      int n = 0;
      for (int v : g)
        if ((n += v >= 0) == 5)
          break;
    }
    std::printf("early destroy: %d guards destroyed\n", destroyed);
    failures += destroyed != 2;
  }
  if (failures)
    return 1;
  std::printf("PASS\n");
  return 0;
}
