//===- bench/patterns/rt_fiber.cpp - Boost.Fiber: spawn, wait, yield -----===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
// Boost.Fiber with its default round-robin scheduler: the main context is a
// fiber, new fibers join the ready queue in creation order and
// this_fiber::yield() requeues the caller last, so the patterns run the
// same switch sequence as on the other runtimes. rt_fiber_yield() is the
// patterns' (C) way to reach this_fiber::yield().
//
//===----------------------------------------------------------------------===//

#include "rt.h"

#include <boost/fiber/all.hpp>
#include <vector>

extern "C" const char rt_name[] = "boost-fiber";

static std::vector<boost::fibers::fiber> Fibers;

extern "C" void rt_fiber_yield(void) { boost::this_fiber::yield(); }

extern "C" void rt_spawn(rt_fn Fn, void *Arg) {
  Fibers.emplace_back(std::allocator_arg,
                      boost::fibers::fixedsize_stack(RT_STACK_SIZE),
                      [Fn, Arg] { Fn(Arg); });
}

extern "C" void rt_wait_all(void) {
  for (auto &F : Fibers)
    F.join();
  Fibers.clear();
}
