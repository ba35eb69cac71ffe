#!/usr/bin/env bash
# One compiler-cache configuration through the cases that used to give stale
# objects. Usage: cache-scenario.sh <cacs build dir> <work dir> <launcher>
#   [compile flags...]
# <launcher> is ccache or sccache; its configuration comes from the
# environment (CCACHE_*, SCCACHE_*). The object's code is checked after every
# step: 'pick' takes preserve_none (its argument in r12) when the list names
# it, the C convention (rdi) when it does not. Exits non-zero, saying which
# step, when an object is stale or a repeated compile never hits.
set -u
obj_root=$1 work=$2 launcher=$3
shift 3
flags=("$@")
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
# A cache of its own, whatever the user's configuration says.
export CCACHE_DIR=$work/ccache CCACHE_CONFIGPATH=$work/ccache.conf
: > "$CCACHE_CONFIGPATH"
if [ "$launcher" = sccache ]; then
  # A server of its own on a free port, stopped on exit, idle after 2 min.
  export SCCACHE_DIR=$work/sccache SCCACHE_CONF=$work/sccache.toml
  export SCCACHE_IDLE_TIMEOUT=120 SCCACHE_ERROR_LOG=$work/sccache.log
  # Under load (the suite runs two workers beside other work) the server
  # can take longer than sccache's default 10 s to start.
  echo 'server_startup_timeout_ms = 60000' > "$SCCACHE_CONF"
  export SCCACHE_SERVER_PORT=$(python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  sccache --start-server > /dev/null || { echo "cannot start sccache" >&2; exit 1; }
  trap 'sccache --stop-server > /dev/null 2>&1' EXIT
fi

fail() { echo "FAIL [$launcher ${flags[*]}]: $*" >&2; exit 1; }

# A copy of the cacs build, as an installation would be, so that the test can
# upgrade it in place.
prefix=$work/cacs
mkdir -p "$prefix/bin" "$prefix/lib" "$prefix/share"
cp "$obj_root/bin/clang" "$prefix/bin/" &&
  cp "$obj_root"/lib/CACS*.so "$prefix/lib/" &&
  cp -r "$obj_root/share/cacs" "$prefix/share/" || fail "cannot copy cacs"
cc=$prefix/bin/clang

# Files written now are "too new" for ccache's direct mode: date them back.
put() { printf '%s\n' "$2" > "$1" && touch -d '-1 min' "$1"; }

counter() {
  case $launcher in
  ccache) ccache --print-stats | awk -v k="$1" '$1 == k { print $2 }' ;;
  sccache)
    case $1 in
    miss) sccache --show-stats | awk '/^Cache misses  /{ print $3; exit }' ;;
    hit) sccache --show-stats | awk '/^Cache hits  /{ print $3; exit }' ;;
    esac ;;
  esac
}
misses() {
  case $launcher in
  ccache) counter cache_miss ;;
  sccache) counter miss ;;
  esac
}
hits() {
  case $launcher in
  ccache) echo $(($(counter direct_cache_hit) + $(counter preprocessed_cache_hit))) ;;
  sccache) counter hit ;;
  esac
}

# compile <dir> <expected convention of pick: PN|C> <step>
compile() {
  (cd "$1" && $launcher "$cc" -O2 -c pick.c -o pick.o \
     -fpreserve-none-list=pn.list -fno-preserve-none-list-export-warning \
     "${flags[@]}") || fail "$3: the compile failed"
  local got
  if objdump -d "$1/pick.o" | awk '/<pick>:/ { p = 1 } p && /ret/ { exit } p' |
       grep -q '%r12'; then got=PN; else got=C; fi
  [ "$got" = "$2" ] || fail "$3: stale object: pick has the $got convention, the list says $2"
  echo "ok: $3 ($2)"
}

mkdir -p d1 d2
for d in d1 d2; do
  put $d/pick.c '__attribute__((noinline)) long pick(long a) { return a * 3; }'
done
put d1/pn.list 'fun:pick'
compile d1 PN "first compile"
h=$(hits)
compile d1 PN "same compile again"
[ "$(hits)" -gt "$h" ] || fail "same compile again: no cache hit (the cache is useless)"
put d1/pn.list 'fun:other'
compile d1 C "list changed"
put d1/pn.list 'fun:pick'
compile d1 PN "list changed back"
# Another directory, the same source and command line, a list with other
# text at another path.
put d2/pn.list 'fun:other'
compile d2 C "other directory, other list"
compile d1 PN "first directory again"

# An upgrade of cacs in place: new plugins come with a new front door (it
# carries their digest), which the cache must notice.
m=$(misses)
old_id=$("$cc" --version | sed -n 's/^cacs version [^ ]* (\([0-9a-f]*\),.*/\1/p')
[ -n "$old_id" ] || fail "no build id in --version"
new_id=$(printf '%s' "$old_id" | tr '0-9a-f' '1-9a-f0')
python3 - "$cc" "$old_id" "$new_id" <<'PY' || fail "cannot patch the front door"
import os, sys
path, old, new = sys.argv[1], sys.argv[2].encode(), sys.argv[3].encode()
data = open(path, 'rb').read()
assert old in data
tmp = path + '.new'
open(tmp, 'wb').write(data.replace(old, new))
os.chmod(tmp, 0o755)
os.replace(tmp, path)
PY
# Installed files keep their build's mtime (dpkg, cmake --install): another.
touch -d '-2 min' "$cc"
compile d1 PN "after an upgrade of the plugins"
[ "$(misses)" -gt "$m" ] || fail "after an upgrade of the plugins: a cache hit (stale)"
echo "ok: the upgrade missed"
