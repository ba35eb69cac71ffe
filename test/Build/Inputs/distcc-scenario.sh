#!/usr/bin/env bash
# distcc with local distccd servers on 127.0.0.1 (started here, at most
# 5 minutes, stopped on exit). Usage: distcc-scenario.sh <cacs build> <work>
# A server that sees the same cacs and list files gives objects identical to
# local compiles; one that sees another list file at the same path, or no
# plugin, fails loudly (and distcc's default local retry then gives the local
# object): never a silently different object. The "other machine" is a mount
# namespace in which other files are bind-mounted over the same paths.
set -u
obj_root=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*" >&2; exit 1; }
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2> /dev/null; done' EXIT

cc=$obj_root/bin/clang
cp "$here/../../Driver/Inputs/apn-parse.c" src.c || exit 1
echo 'fun:listed' > pn.list
echo 'fun:serve' > other.list
flags=(-O2 -c src.c -fauto-preserve-none -fpreserve-none-list="$work/pn.list"
       -fno-preserve-none-list-export-warning)

free_port() {
  python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# start_server <name> [<file> <bind-mounted over this path>]...: sets host.
start_server() {
  local name=$1 port
  shift
  port=$(free_port)
  local mounts=""
  while [ $# -ge 2 ]; do
    mounts+="mount --bind '$1' '$2' && "
    shift 2
  done
  # distccd runs as the user distcc when started as root: a TMPDIR it may use.
  mkdir -p "$work/tmp" && chmod 1777 "$work/tmp"
  TMPDIR=$work/tmp \
  unshare -m --propagation private sh -c "$mounts exec timeout 300 distccd \
    --no-detach --daemon --listen 127.0.0.1 --port $port --allow 127.0.0.1 \
    --jobs 2 --enable-tcp-insecure --log-stderr --log-level=info" \
    > /dev/null 2> "$name.log" &
  pids+=($!)
  for _ in $(seq 50); do
    grep -q "listening on" "$name.log" 2> /dev/null && break
    sleep 0.1
  done
  grep -q "listening on" "$name.log" || fail "distccd $name did not start"
  host=127.0.0.1:$port/2
}

"$cc" "${flags[@]}" -o local.o || fail "local compile"

# A server like this machine: the remote object is the local one.
start_server same
same=$host
DISTCC_HOSTS=$same DISTCC_FALLBACK=0 DISTCC_SKIP_LOCAL_RETRY=1 \
  distcc "$cc" "${flags[@]}" -o same.o || fail "remote compile on the same setup"
# The server logs the job after it has answered: wait for the line.
for _ in $(seq 50); do
  grep -q "COMPILE_OK" same.log && break
  sleep 0.1
done
grep -q "COMPILE_OK" same.log || fail "the compile did not run on the server"
cmp local.o same.o || fail "remote object differs from the local one"
echo "ok: remote object identical"

# remote <server> <name>: compile there without local retry (must fail and
# say why), then with distcc's defaults (must give the local object).
remote() {
  local host=$1 name=$2
  if DISTCC_HOSTS=$host DISTCC_FALLBACK=0 DISTCC_SKIP_LOCAL_RETRY=1 \
       distcc "$cc" "${flags[@]}" -o "$name.o" 2> "$name.err"; then
    cmp -s local.o "$name.o" && fail "$name: the server did not differ?"
    fail "$name: silently different object"
  fi
  grep "error:" "$name.err" | head -n 1
  DISTCC_HOSTS=$host distcc "$cc" "${flags[@]}" -o "$name.o" 2> /dev/null ||
    fail "$name: no local retry"
  cmp local.o "$name.o" || fail "$name: the retried object differs"
  echo "ok: $name: loud, then the local object"
}
start_server other-list "$work/other.list" "$work/pn.list"
remote "$host" other-list
empty=$work/empty
: > "$empty"
start_server no-plugin "$empty" "$obj_root/lib/CACSPasses.so"
remote "$host" no-plugin
# A relative list path does not exist in the server's directory.
flags=(-O2 -c src.c -fpreserve-none-list=pn.list
       -fno-preserve-none-list-export-warning)
"$cc" "${flags[@]}" -o local.o || fail "local compile"
remote "$same" relative-list
