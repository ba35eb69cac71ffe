// The calls of pool-tls-calls.c, each made by a function of this other
// translation unit (inlined only with LTO).
#include "pool-tls-calls.h"

#define DEFINE_OTHER(name, fn, args)                                           \
  long other_##name(struct st *S) {                                            \
    (void)S;                                                                   \
    return ((void)(fn args), 0L);                                                      \
  }
POOL_CALLS(DEFINE_OTHER)
