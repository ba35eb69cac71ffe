#!/usr/bin/env bash
# bench/apn_real/run.sh - APN on real code (issue 22, item 5).
#
# Builds jansson (Debian's source package, unmodified) and json_conn.c, and the
# mocked client bench/apn_client/client.c, four ways with the front door:
#   noapn    -O2, per translation unit
#   apn      -O2 -fauto-preserve-none, per translation unit
#   lto      -O2 -flto (full), no APN: what LTO alone changes
#   lto-apn  -O2 -flto -fauto-preserve-none: APN on the whole program
# then counts instructions per operation (callgrind, -r 2 minus -r 1) and
# times them (thread CPU time, ROUNDS interleaved rounds, taskset-pinned).
#
#   bench/apn_real/run.sh [--build build] [--work DIR] [--rounds N]
#                         [--no-time] [--no-callgrind] [--chunk BYTES]
#
# Needs: deb-src lines for `apt-get source jansson` (once; DIR/jansson-* is
# reused), valgrind, lld (the front door links full LTO with it).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$root/build
work=$root/build/bench/apn_real
rounds=5
do_time=1
do_cg=1
chunk=256
n=200000
while [ $# -gt 0 ]; do
  case $1 in
  --build) build=$(cd "$2" && pwd); shift 2 ;;
  --work) work=$2; shift 2 ;;
  --rounds) rounds=$2; shift 2 ;;
  --chunk) chunk=$2; shift 2 ;;
  -n) n=$2; shift 2 ;;
  --no-time) do_time=0; shift ;;
  --no-callgrind) do_cg=0; shift ;;
  *) echo "usage: $0 [--build DIR] [--work DIR] [--rounds N] [--chunk B] [-n N] [--no-time] [--no-callgrind]" >&2; exit 64 ;;
  esac
done
cc=$build/bin/clang
lib=$build/runtime/x86_64/libcacs.a
[ -x "$cc" ] && [ -f "$lib" ] || { echo "$0: build $build first (scripts/setup)" >&2; exit 1; }
mkdir -p "$work"
cd "$work"
src=$(ls -d jansson-*/ 2>/dev/null | head -1 || true)
if [ -z "$src" ]; then
  apt-get source jansson >get.log 2>&1 || { cat get.log >&2; exit 1; }
  src=$(ls -d jansson-*/ | head -1)
fi
src=${src%/}
jsrc="$src/src/dump.c $src/src/error.c $src/src/hashtable.c $src/src/hashtable_seed.c
  $src/src/load.c $src/src/memory.c $src/src/pack_unpack.c $src/src/strbuffer.c
  $src/src/strconv.c $src/src/utf.c $src/src/value.c $src/src/version.c"
inc="-I$here/config -I$src/src -I$root/bench/common -I$root/runtime/include -DHAVE_CONFIG_H"

variants="noapn apn lto lto-apn"
flags_of() {
  case $1 in
  noapn) echo "-O2" ;;
  apn) echo "-O2 -fauto-preserve-none" ;;
  lto) echo "-O2 -flto" ;;
  lto-apn) echo "-O2 -flto -fauto-preserve-none" ;;
  esac
}
for v in $variants; do
  f=$(flags_of $v)
  mkdir -p obj-$v
  objs=
  for s in $jsrc "$here/json_conn.c"; do
    o=obj-$v/$(basename "$s" .c).o
    # shellcheck disable=SC2086
    "$cc" $f -gdwarf-4 -DBENCH_VARIANT="\"$v\"" $inc -c "$s" -o "$o" \
      -fsave-optimization-record -foptimization-record-file="${o%.o}.opt.yaml"
    objs="$objs $o"
  done
  # The LTO link's own remarks (APN runs there on the whole program).
  lflags=
  case $v in lto*) lflags="-Wl,-plugin-opt=opt-remarks-filename=json_$v.lto.yaml" ;; esac
  # shellcheck disable=SC2086
  "$cc" $f -gdwarf-4 $objs "$lib" $lflags -o json_$v
  # shellcheck disable=SC2086
  "$cc" $f -gdwarf-4 -DBENCH_VARIANT="\"$v\"" -I$root/bench/common -I$root/runtime/include \
    "$root/bench/apn_client/client.c" "$lib" -o client_$v
done

bins=
for v in $variants; do bins="$bins json_$v client_$v"; done

if [ $do_cg = 1 ]; then
  echo "# instructions per operation (callgrind, -r 2 minus -r 1)"
  for b in $bins; do
    case $b in json_*) cn=2000; args="-v $chunk" ;; *) cn=20000; args= ;; esac
    t=()
    for r in 1 2; do
      valgrind --tool=callgrind --callgrind-out-file=cg.$b.r$r.out \
        ./$b -n $cn -r $r $args >/dev/null 2>cg.$b.r$r.log
      t+=($(grep -m1 '^summary:' cg.$b.r$r.out | awk '{print $2}'))
    done
    echo "$b $(( (t[1] - t[0]) )) $cn" | awk '{printf "%-16s %8.1f instr/op\n", $1, $2/$3}'
  done
fi

if [ $do_time = 1 ]; then
  echo "# time: thread CPU ns/op, $rounds interleaved rounds, taskset -c 1; load: $(cut -d' ' -f1-3 /proc/loadavg)"
  : >times.txt
  for ((i = 0; i < rounds; ++i)); do
    for b in $bins; do
      case $b in json_*) args="-v $chunk -n $n" ;; *) args="-n 2000000" ;; esac
      # shellcheck disable=SC2086
      line=$(taskset -c 1 ./$b -r 1 $args)
      echo "$line" | grep -q 'ok=1' || { echo "$b: $line" >&2; exit 2; }
      ns=$(echo "$line" | sed 's/.*ns=//'); ops=$(echo "$line" | sed 's/.* ops=\([0-9]*\).*/\1/')
      echo "$b $ns $ops" >>times.txt
    done
  done
  python3 - times.txt <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    b, ns, ops = line.split()
    runs.setdefault(b, []).append(int(ns) / int(ops))
for b, v in sorted(runs.items()):
    print(f"{b:16} median {statistics.median(v):9.1f} ns/op  [{min(v):.1f}..{max(v):.1f}]")
PY
  echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
fi
