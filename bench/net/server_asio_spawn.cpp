//===- bench/net/server_asio_spawn.cpp - The server on asio::spawn -------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// Boost.Asio stackful coroutines (asio::spawn, on Boost.Context), one
// io_context on one thread (concurrency hint 1), one coroutine per
// connection with a NET_STACK-byte stack; the work is net_common.h's.
//
//===----------------------------------------------------------------------===//

#include "net_common.h"

#include <boost/asio.hpp>
#include <boost/asio/spawn.hpp>
#include <boost/context/fixedsize_stack.hpp>

#include <memory>

namespace asio = boost::asio;
using asio::ip::tcp;

static void serve(tcp::socket &sock, asio::yield_context yield) {
  auto c = std::make_unique<net_conn>();
  c->in_len = 0;
  boost::system::error_code ec;
  for (;;) {
    size_t r = sock.async_read_some(
        asio::buffer(net_room_ptr(c.get()), net_room(c.get())), yield[ec]);
    const char *out;
    size_t len;
    if (ec || net_input(c.get(), r, &out, &len) < 0)
      break;
    if (len)
      asio::async_write(sock, asio::buffer(out, len), yield[ec]);
    if (ec)
      break;
  }
}

static void spawn_small(asio::io_context &io, auto &&fn) {
  asio::spawn(io, std::allocator_arg,
              boost::context::fixedsize_stack(NET_STACK),
              std::forward<decltype(fn)>(fn), asio::detached);
}

int main(int argc, char **argv) {
  net_opts o = net_parse(argc, argv);
  asio::io_context io(1);
  tcp::acceptor acceptor(io, tcp::v4(), net_listen(&o));
  spawn_small(io, [&](asio::yield_context yield) {
    for (;;) {
      boost::system::error_code ec;
      tcp::socket sock = acceptor.async_accept(yield[ec]);
      if (ec)
        continue;
      net_tune(sock.native_handle());
      spawn_small(io, [s = std::move(sock)](asio::yield_context y) mutable {
        serve(s, y);
      });
    }
  });
  io.run();
}
