#!/bin/sh
# A coroutine per request (issue 38): create + run to the end + join, per
# coroutine, on libcacs and its peers in the same run, pinned to one CPU and
# interleaved (every configuration of every peer once per round, ROUNDS
# rounds; the figure is the median over rounds of each run's own median).
# Not a timed test: numbers go to bench/results/lifecycle/README.md.
#
#   bench/lifecycle/run.sh [--quick] [--rounds N] [--build DIR] [--cpu N]
#                          [--out DIR]
#
#   steady ALIVE   ALIVE coroutines created, then all joined, over and over
#                  (1, 100, 10,000): stacks reused; 200,000 coroutines a
#                  repetition (10,000 alive: 20,000)
#   first N        N = 100,000 created at once in a fresh process (the
#                  stacks' first use), then joined
#   burst N        100 alive for a while, then 100,000 at once: RSS before,
#                  at the peak and after they end
#   syscalls       strace -c of libcacs's steady state (1 and 100 alive)
#
# Peers: Boost.Context fiber with pooled_fixedsize_stack and with
# protected_fixedsize_stack (mmap + guard page each; 30,000 at once at
# most, two mappings each against vm.max_map_count), goroutines at
# GOMAXPROCS=1 (when go is installed), libaco when LIBACO_DIR=... names
# its source tree (not packaged, never fetched here).
# --quick: one round, a tenth of the sizes, into bench/results/lifecycle/quick
# (scripts/bench --quick).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build="$root/build"
rounds=3
cpu=1
out="$root/bench/results/lifecycle"
scale=1
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) rounds=1; scale=10; out="$out/quick"; shift ;;
    --rounds) rounds=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --cpu) cpu=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,29p' "$0"; exit 0 ;;
    *) echo "bench/lifecycle/run.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

inc="$root/runtime/include"
rt="$build/runtime/x86_64/libcacs.a"
"$build/bin/clang" -O2 -I"$here/../common" -I"$inc" "$here/lifecycle_cacs.c" \
  "$rt" -lpthread -o "$work/lifecycle_cacs"
peers="cacs:private cacs:shared"
if clang++ -O2 -std=c++20 -I"$here/../common" "$here/lifecycle_boost.cpp" \
     -lboost_context -o "$work/lifecycle_boost" 2>"$work/err"; then
  peers="$peers boost:pooled boost:protected"
else
  echo "bench/lifecycle: Boost.Context peer not built: $(tail -c 300 "$work/err")" >&2
fi
if command -v go >/dev/null 2>&1 &&
   (cd "$here/go" && env GOFLAGS=-mod=mod GOPROXY=off GOSUMDB=off \
      GOTOOLCHAIN=local GOCACHE="$work/gocache" go build -o "$work/lifecycle_go" .); then
  peers="$peers go:"
fi
if [ -n "${LIBACO_DIR:-}" ]; then
  . "$root/bench/common/libaco.sh"
  libaco_build "$build/bin/clang" "$work/lifecycle_aco" -I"$here/../common" \
    "$here/lifecycle_aco.c"
  peers="$peers aco:"
fi

# cmd PEER: the command line of a peer, before the lifecycle.h arguments.
cmd() {
  name=${1%%:*} var=${1#*:}
  echo "$work/lifecycle_$name${var:+ $var}"
}
lines="$work/lines"
: > "$lines"
status=0
big=$((100000 / scale)) total=$((200000 / scale))
for r in $(seq "$rounds"); do
  for p in $peers; do
    for cfg in "steady 1 $total" "steady 100 $total" \
               "steady 10000 $((total / 10))" "first $big" "burst $big"; do
      case "$p:$cfg" in
        # An mmap, an mprotect and a munmap per coroutine: fewer suffice;
        # two mappings each: 30,000 at once at most.
        boost:protected:steady*) cfg="${cfg% *} $((total / 40))" ;;
        boost:protected:first*|boost:protected:burst*)
          cfg="${cfg% *} $((big * 3 / 10))" ;;
      esac
      # shellcheck disable=SC2046
      if line=$(taskset -c "$cpu" $(cmd "$p") $cfg 2>"$work/err"); then
        echo "$line" >> "$lines"
      else
        status=1
        echo "bench/lifecycle: $p $cfg FAILED: $(tail -c 300 "$work/err")" >&2
      fi
    done
  done
  echo "bench/lifecycle: round $r of $rounds done (load $(cut -d' ' -f1 /proc/loadavg))" >&2
done

# System calls of libcacs's steady state: strace -c's count per coroutine.
sys() {
  strace -f -c -o "$work/strace" "$work/lifecycle_cacs" private steady "$1" "$total" >/dev/null
  calls=$(awk '/^[0-9 .]+ +[0-9]+ +[0-9]+ +[0-9]+/ {n += $4} END {print n + 0}' "$work/strace")
  echo "| $1 alive | $calls | $(grep -E 'madvise|mmap|munmap|mprotect|process_madvise' "$work/strace" | awk '{printf "%s %s; ", $NF, $4}') |"
}
if command -v strace >/dev/null 2>&1; then
  syscalls=$( { sys 1; sys 100; } 2>&1)
else
  syscalls="| (strace is not installed) | | |"
fi

python3 - "$lines" "$rounds" > "$work/tables" <<'PY'
import sys, statistics
rows = [dict(kv.split("=", 1) for kv in l.split()) for l in open(sys.argv[1]) if l.strip()]
def med(key, **sel):
    v = [float(r[key]) for r in rows if all(r.get(k) == s for k, s in sel.items()) and key in r]
    return ("%.0f" % statistics.median(v)) if v else "-"
peers = []
for r in rows:
    if r["peer"] not in peers:
        peers.append(r["peer"])
print("Steady state: ns per coroutine (create + run to the end + join), median of the rounds")
print()
print("| peer | 1 alive | 100 alive | 10,000 alive |")
print("|---|---|---|---|")
for p in peers:
    print("| %s | %s |" % (p, " | ".join(med("ns_median", peer=p, mode="steady", alive=a) for a in ("1", "100", "10000"))))
print()
print("First use (fresh process, N at once) and a burst after a steady state (100 alive):")
print("ns per coroutine; RSS in KiB; `after %`: RSS after the coroutines ended, over RSS before")
print()
print("| peer | N | first: create | first: join | first: RSS after % | burst: create + join | burst again | burst: RSS before | peak | after | after % |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for p in peers:
    n = [r["n"] for r in rows if r["peer"] == p and r["mode"] == "first"]
    print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        p, n[0] if n else "-", med("create_ns", peer=p, mode="first"), med("join_ns", peer=p, mode="first"),
        med("rss_after_pct", peer=p, mode="first"), med("total_ns", peer=p, mode="burst"),
        med("again_ns", peer=p, mode="burst"), med("rss_before_kib", peer=p, mode="burst"),
        med("rss_peak_kib", peer=p, mode="burst"), med("rss_after_kib", peer=p, mode="burst"),
        med("rss_after_pct", peer=p, mode="burst")))
PY

{
  echo "# A coroutine per request: create, run, join"
  echo
  echo "Generated by \`bench/lifecycle/run.sh$([ $scale = 10 ] && echo ' --quick') --rounds $rounds\` on $(date -u '+%Y-%m-%d %H:%M UTC'),"
  echo "$(nproc) CPUs shared with other jobs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end,"
  echo "kernel $(uname -r), every run pinned to CPU $cpu (taskset), peers interleaved. Times: the"
  echo "thread's CPU time (user + system; Go: the process's), so the stacks' system calls and page"
  echo "faults count. Binaries: libcacs \`build/bin/clang -O2\`, Boost.Context \`clang++ -O2\`"
  echo "(64 KiB stacks), Go \`go build\` (GOMAXPROCS=1, sync.WaitGroup). Source: bench/lifecycle/."
  echo
  cat "$work/tables"
  echo
  echo "libcacs's system calls in the steady state (\`strace -f -c\`, $total coroutines a repetition, plus"
  echo "warm-up, the program's start included):"
  echo
  echo "| steady state | calls in all | stack calls (name count) |"
  echo "|---|---|---|"
  echo "$syscalls"
  echo
  echo "Every run's line:"
  echo
  echo '```'
  cat "$lines"
  echo '```'
} > "$out/README.md"
cat "$out/README.md"
exit $status
