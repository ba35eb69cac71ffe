// Second translation unit of lto.c. lto_level is not static, so the compile
// step cannot infect it; after the full-LTO link internalizes it, it can.
#define APN_DEFINE_SWITCH
#include "clobber.h"

__attribute__((noinline)) long lto_level(long a, long b) {
  long c = a * 5 + b, d = b * 3 - a;
  apn_switch(c);
  return c * d + a - b;
}
