#include "inline.h"
#include <cstdio>
long (*addr_without)(long, long, long) = tw;
long without_list(long x) { return tw(x, 5, 6); }
int main() {
  std::printf("%ld %ld %ld %d\n", with_list(1), without_list(4),
              addr_with(7, 8, 9), addr_with == addr_without);
  return 0;
}
