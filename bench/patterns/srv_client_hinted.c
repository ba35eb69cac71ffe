//===- bench/patterns/srv_client_hinted.c - server-hinted: the client -*- C -*-//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
// srv_client.c with its waits marked rare (__builtin_expect), the way a
// server author marks a buffer-full or buffer-empty wait in a byte loop;
// the pattern `server-hinted`. `server` keeps the source as written.
//
//===----------------------------------------------------------------------===//

#define SRV_RARE(cond) __builtin_expect((cond), 0)
#define SRV_CLIENT srv_client_hinted
#include "srv_client.c"
