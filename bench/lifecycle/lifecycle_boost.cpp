// The lifecycle benchmark (lifecycle.h) on Boost.Context fibers with
// 64 KiB stacks: `pooled` (pooled_fixedsize_stack: a boost::pool that keeps
// freed stacks, unguarded) or `protected` (protected_fixedsize_stack: an
// mmap and a guard page per stack, munmap on free).
//
//   lifecycle_boost pooled|protected <lifecycle.h arguments>

#include "lifecycle.h"

#include <boost/context/fiber.hpp>
#include <boost/context/pooled_fixedsize_stack.hpp>
#include <boost/context/protected_fixedsize_stack.hpp>

#include <memory>
#include <optional>

namespace ctx = boost::context;

static constexpr size_t StackSize = 64 * 1024;
static std::unique_ptr<ctx::fiber[]> fibers;
static std::optional<ctx::pooled_fixedsize_stack> pooled;
static bool use_pooled;

static ctx::fiber body(ctx::fiber &&caller, uint64_t arg) {
  lc_sum += arg;
  return std::move(caller);
}

static void lc_create(long i) {
  uint64_t arg = (uint64_t)i + 1;
  auto fn = [arg](ctx::fiber &&caller) { return body(std::move(caller), arg); };
  if (use_pooled)
    fibers[i] = ctx::fiber(std::allocator_arg, *pooled, fn);
  else
    fibers[i] = ctx::fiber(std::allocator_arg,
                           ctx::protected_fixedsize_stack(StackSize), fn);
}

// Runs it to its end; the finished fiber's stack goes back at once.
static void lc_join(long i) { fibers[i] = std::move(fibers[i]).resume(); }

static void lc_touch(long n) {
  for (long i = 0; i < n; ++i)
    fibers[i] = ctx::fiber();
}

int main(int argc, char **argv) {
  const char *v = argc > 1 ? argv[1] : "pooled";
  use_pooled = !strcmp(v, "pooled");
  if (!use_pooled && strcmp(v, "protected"))
    return 64;
  if (use_pooled)
    pooled.emplace(StackSize);
  fibers.reset(new ctx::fiber[LC_MAX]);
  std::string peer = std::string("boost-") + v;
  return lc_main(peer.c_str(), argc - 1, argv + 1);
}
