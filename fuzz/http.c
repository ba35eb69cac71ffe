//===- fuzz/http.c - Fuzz target: the network servers' HTTP reader --------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// What a client sends the servers of bench/net in HTTP mode, read as every
// one of them reads it (net_input of bench/net/net_common.h: requests up to
// the blank line, pipelined, kept across reads). The first byte of the
// input picks the size of each read (1 to 256 bytes); the rest is the
// stream. (The echo mode and examples/echo/echo.c write back what they
// read: nothing there parses.) Besides what the sanitizers catch, it stops
// on a broken promise: each answer is whole responses, never more requests
// than the stream has ended with a blank line, and what is kept of an
// incomplete request fits the buffer.
//
//===----------------------------------------------------------------------===//

// net_common.h first: it asks for _GNU_SOURCE (memmem).
#include "net_common.h"

#include "check.h"

#include <stdint.h>
#include <string.h>


/// The blank lines that end a request in data[0..n): "\r\n\r\n", not
/// overlapping.
static uint64_t request_ends(const uint8_t *data, size_t n) {
  uint64_t ends = 0;
  for (size_t i = 0; i + 4 <= n;)
    if (!memcmp(data + i, "\r\n\r\n", 4)) {
      ++ends;
      i += 4;
    } else {
      ++i;
    }
  return ends;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static net_conn c;
  if (size == 0)
    return 0;
  size_t step = (size_t)data[0] + 1;
  ++data;
  --size;
  net_opt.mode = NET_HTTP;
  net_opt.max_req = 0;
  net_count = 0;
  c.in_len = 0;
  size_t pos = 0;
  while (pos < size) {
    size_t r = size - pos;
    if (r > step)
      r = step;
    if (r > net_room(&c))
      r = net_room(&c);
    memcpy(net_room_ptr(&c), data + pos, r);
    pos += r;
    const char *out;
    size_t len;
    if (net_input(&c, r, &out, &len) < 0)
      break;
    FUZZ_CHECK(c.in_len < sizeof c.in);
    FUZZ_CHECK(len % NET_HTTP_RESPONSE_LEN == 0 && len <= sizeof c.out);
    for (size_t i = 0; i < len; i += NET_HTTP_RESPONSE_LEN)
      FUZZ_CHECK(!memcmp(out + i, net_http_response, NET_HTTP_RESPONSE_LEN));
  }
  FUZZ_CHECK(net_count <= request_ends(data, pos));
  return 0;
}
