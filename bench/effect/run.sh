#!/bin/sh
# Effects (cacs/effect.h) against libseff, the peer (issue 33), in one run:
# the shapes of bench/effect/effect_shapes.h (libseff's own benchmarks:
# the get/put state loop, a perform handled 1, 5 and 10 handlers up,
# exceptions by effects through 10 and 100 frames, beside C++ exceptions,
# a generator by effects, skynet by effects, and the memory of an idle
# effect coroutine), with cacs's performs and resumes entered by calls
# (cacs) and by jumps (cacsjmp: -fswitch-site-jumps); cacs's call handlers
# in the state and upK shapes (callstate, callupK: no switch, another
# mechanism, reported apart); and
# the floor of a round (floor_effects.c: its two switches alone, a called
# switch with one shared jump) and the same rounds switched otherwise
# (floor_sites.c: `sites` inlined at each site; `sitecall` a call and the
# site's jump, as -fswitch-site-jumps lowers a yield; `sharedjump` one
# shared switch entered by a jump, not a call; `perdir` floor_effects.c's
# switch, a copy per direction, as perform and resume each have one;
# `perdirpc` the same through a pc kept in the context; `jmpentry`
# floor_effects.c's switch entered by a jump, not a call). Not a timed
# test: the numbers go to a report.
#
#   LIBSEFF_DIR=DIR bench/effect/run.sh [--build DIR] [--rounds R] [-n N]
#
#   LIBSEFF_DIR=DIR (environment): libseff's source tree (its Makefile,
#            src/, asm/, decls/; not packaged, never fetched here): copied
#            into BUILD/bench/effect/libseff and built there by its own
#            Makefile (BUILD=release, its default STACK_POLICY=segmented,
#            which needs ld.gold; LIBSEFF_STACK=fixed for malloc'd 8 KiB
#            stacks), with CC (default clang-19). Without it, cacs and C++
#            only.
#   --rounds R  processes per variant (default 5), interleaved round-robin
#            with the other implementations' of the same variant, each
#            pinned with taskset -c ${BENCH_CPU:-1}; the report gives the
#            median ns per operation (thread CPU time, bench/common/bench.h)
#   -n N     the size (default 1000000; throws run N/10)
# Writes BUILD/bench/effect/results.md (and prints it).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build="$root/build"
rounds=5
n=1000000
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    -n) n=$2; shift 2 ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
    *) echo "bench/effect/run.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
build=$(cd "$build" && pwd)
work="$build/bench/effect"
mkdir -p "$work"
cc="$build/bin/clang"
peer_cc=${CC:-clang-19}
peer_cxx=${CXX:-clang++-19}
cpu=${BENCH_CPU:-1}

"$cc" -O2 -fauto-preserve-none -fno-switch-site-jumps -I"$root/runtime/include" \
  "$here/cacs_effects.c" "$build/runtime/x86_64/libcacs.a" -o "$work/cacs_effects"
"$cc" -O2 -fauto-preserve-none -fswitch-site-jumps -DSHAPE_IMPL='"cacsjmp"' \
  -I"$root/runtime/include" "$here/cacs_effects.c" \
  "$build/runtime/x86_64/libcacs.a" -o "$work/cacsjmp_effects"
"$cc" -O2 -fauto-preserve-none -I"$root/runtime/include" \
  "$here/floor_effects.c" -o "$work/floor_effects"
for site_call in 0 1 2 3 4 5; do
  case $site_call in
    0) bin=floor_sites ;; 1) bin=floor_sitecall ;; 2) bin=floor_sharedjump ;;
    3) bin=floor_perdir ;; 4) bin=floor_perdirpc ;; 5) bin=floor_jmpentry ;;
  esac
  "$cc" -O2 -fauto-preserve-none -mno-red-zone -DFLOOR_SITE_CALL=$site_call \
    -I"$root/runtime/include" "$here/floor_sites.c" -o "$work/$bin"
done
"$peer_cxx" -O2 "$here/cxx_throw.cpp" -o "$work/cxx_throw"
impls="cacs cacsjmp floor perdir perdirpc jmpentry sites sitecall sharedjump"
if [ -n "${LIBSEFF_DIR:-}" ]; then
  stack=${LIBSEFF_STACK:-segmented}
  src="$work/libseff"
  rm -rf "$src"
  mkdir -p "$src"
  # A copy: its Makefile writes generated headers and output/ into the tree.
  (cd "$LIBSEFF_DIR" && tar cf - --exclude=./.git --exclude=./output .) |
    (cd "$src" && tar xf -)
  make -s -C "$src" CC="$peer_cc" CXX="$peer_cxx" BUILD=release \
    STACK_POLICY="$stack" output/lib/libseff.a >&2
  extra=""
  [ "$stack" = segmented ] && extra="-fsplit-stack -fuse-ld=gold"
  # As libseff's Makefile compiles its clients (its warnings off).
  "$peer_cc" -O2 -DNDEBUG -std=gnu11 -pthread $extra -w -I"$src/src" \
    "$here/seff_effects.c" "$src/output/lib/libseff.a" -o "$work/seff_effects"
  impls="$impls libseff"
fi

variants="state up1 up5 up10 throw10 throw100 generator skynet idle"
variants="$variants callstate callup1 callup10"
raw="$work/raw.txt"
: > "$raw"
load_before=$(uptime)
r=1
while [ $r -le "$rounds" ]; do
  for v in $variants; do
    for impl in $impls c++; do
      case $v in call*) case $impl in cacs*) ;; *) continue ;; esac ;; esac
      case $impl in
        cacs) bin="$work/cacs_effects" ;;
        cacsjmp) bin="$work/cacsjmp_effects" ;;
        floor) case $v in state|up1) bin="$work/floor_effects" ;;
                 *) continue ;; esac ;;
        perdir*|jmpentry|sites|sitecall|sharedjump)
          case $v in state|up1) bin="$work/floor_$impl" ;;
                 *) continue ;; esac ;;
        libseff) bin="$work/seff_effects" ;;
        c++) case $v in throw*) bin="$work/cxx_throw" ;; *) continue ;; esac ;;
      esac
      taskset -c "$cpu" "$bin" -n "$n" -r 1 -v "$v" >> "$raw"
    done
  done
  r=$((r + 1))
done
load_after=$(uptime)

python3 - "$raw" "$n" "$rounds" "$load_before" "$load_after" \
  > "$work/results.md" <<'PY'
import statistics, sys
raw, n, rounds, before, after = sys.argv[1:]
per = {}
for line in open(raw):
    f = dict(kv.split("=", 1) for kv in line.split()[1:])
    if f["ok"] != "1":
        sys.exit("FAILED: " + line)
    impl, v = f["variant"].split("-", 1)
    per.setdefault((impl, v), []).append(int(f["ns"]) / int(f["ops"]))
med = {k: statistics.median(x) for k, x in per.items()}
impls = [i for i in ("cacs", "cacsjmp", "libseff", "c++", "floor", "perdir", "perdirpc", "jmpentry",
                              "sites",
                              "sitecall", "sharedjump")
         if any(k[0] == i for k in med)]
print("# Effects: cacs against libseff\n")
print("`bench/effect/run.sh -n %s --rounds %s`: ns per operation, the median"
      " of %s processes per cell, interleaved, pinned (`taskset`), thread"
      " CPU time. Load before: `%s`; after: `%s` (a shared machine).\n"
      % (n, rounds, rounds, before.strip(), after.strip()))
peer = "libseff" in impls
print("| shape | " + " | ".join(impls) +
      (" | libseff / cacs | libseff / cacsjmp |" if peer else " |"))
print("|---" * (len(impls) + 1 + 2 * peer) + "|")
for v in ("state", "up1", "up5", "up10", "throw10", "throw100", "generator",
          "skynet"):
    cells = ["%.2f" % med[(i, v)] if (i, v) in med else "" for i in impls]
    ratio = ""
    if ("libseff", v) in med:
        ratio = " | %.2fx | %.2fx" % (med[("libseff", v)] / med[("cacs", v)],
                                      med[("libseff", v)] / med[("cacsjmp", v)])
    print("| %s | %s%s |" % (v, " | ".join(cells), ratio))
print()
# Call handlers (cacs_effect_resume_with): another mechanism, no switch;
# beside the same shape's perform + resume.
if ("cacs", "callstate") in med:
    print("Call handlers (a tail-resumptive handler called on the performer's"
          " stack, no switch: not perform + resume), ns per perform:\n")
    print("| shape | cacs call | cacsjmp call | cacs perform + resume |"
          " cacsjmp perform + resume | libseff perform + resume |")
    print("|---|---|---|---|---|---|")
    for v in ("state", "up1", "up10"):
        cv = "call" + v
        if ("cacs", cv) not in med:
            continue
        peer = "%.2f" % med[("libseff", v)] if ("libseff", v) in med else ""
        print("| %s | %.2f | %.2f | %.2f | %.2f | %s |"
              % (cv, med[("cacs", cv)], med[("cacsjmp", cv)], med[("cacs", v)],
                 med[("cacsjmp", v)], peer))
    print()
if ("floor", "up1") in med:
    print("The floor (floor_effects.c: the round's two switches alone):"
          " up1 %.2f ns, state %.2f ns per round"
          % (med[("floor", "up1")], med[("floor", "state")]))
    print()
if ("sites", "up1") in med:
    print("The floor switched otherwise (floor_sites.c): inlined (sites)"
          " up1 %.2f, state %.2f; a call and the site's jump (sitecall) up1"
          " %.2f, state %.2f; one shared switch entered by a jump (sharedjump)"
          " up1 %.2f, state %.2f ns per round"
          % (med[("sites", "up1")], med[("sites", "state")],
             med[("sitecall", "up1")], med[("sitecall", "state")],
             med[("sharedjump", "up1")], med[("sharedjump", "state")]))
    print("floor_effects.c's switch, a copy per direction (perdir): up1"
          " %.2f, state %.2f; the same through a pc in the context"
          " (perdirpc): up1 %.2f, state %.2f ns per round"
          % (med[("perdir", "up1")], med[("perdir", "state")],
             med[("perdirpc", "up1")], med[("perdirpc", "state")]))
    print("floor_effects.c's switch entered by a jump, not a call"
          " (jmpentry): up1 %.2f, state %.2f ns per round"
          % (med[("jmpentry", "up1")], med[("jmpentry", "state")]))
    print()
# idle: the RESULT line's ns= carries bytes (effect_shapes.h).
print("Resident memory per idle effect coroutine (suspended in a perform,"
      " n/100 of them at once): " +
      ", ".join("%s %.0f bytes" % (i, med[(i, "idle")]) for i in impls
                if (i, "idle") in med))
print()
for i in ("cacs", "cacsjmp"):
    up = [med[(i, "up%d" % k)] for k in (1, 10)]
    print("%s, 10 handlers up / 1 up: %.2fx (target <= 1.2x)"
          % (i, up[1] / up[0]))
if ("libseff", "up1") in med:
    for i in ("cacs", "cacsjmp"):
        for v in ("state", "up1"):
            print("perform + resume (%s), libseff / %s: %.2fx (target >= 2x)"
                  % (v, i, med[("libseff", v)] / med[(i, v)]))
PY
cat "$work/results.md"
