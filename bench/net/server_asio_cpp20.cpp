//===- bench/net/server_asio_cpp20.cpp - The server on Asio + C++20 ------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// Boost.Asio with C++20 stackless coroutines (co_spawn, awaitable,
// use_awaitable), one io_context on one thread; the work is net_common.h's.
//
//===----------------------------------------------------------------------===//

#include "net_common.h"

#include <boost/asio.hpp>

#include <memory>

namespace asio = boost::asio;
using asio::ip::tcp;

static asio::awaitable<void> serve(tcp::socket sock) {
  auto c = std::make_unique<net_conn>();
  c->in_len = 0;
  auto token = asio::as_tuple(asio::use_awaitable);
  for (;;) {
    auto [ec, r] = co_await sock.async_read_some(
        asio::buffer(net_room_ptr(c.get()), net_room(c.get())), token);
    const char *out;
    size_t len;
    if (ec || net_input(c.get(), r, &out, &len) < 0)
      break;
    if (!len)
      continue;
    auto [wec, w] =
        co_await asio::async_write(sock, asio::buffer(out, len), token);
    if (wec)
      break;
  }
}

static asio::awaitable<void> accept_loop(tcp::acceptor &acceptor) {
  auto token = asio::as_tuple(asio::use_awaitable);
  for (;;) {
    auto [ec, sock] = co_await acceptor.async_accept(token);
    if (ec)
      continue;
    net_tune(sock.native_handle());
    asio::co_spawn(acceptor.get_executor(), serve(std::move(sock)),
                   asio::detached);
  }
}

int main(int argc, char **argv) {
  net_opts o = net_parse(argc, argv);
  asio::io_context io(1);
  tcp::acceptor acceptor(io, tcp::v4(), net_listen(&o));
  asio::co_spawn(io, accept_loop(acceptor), asio::detached);
  io.run();
}
