"""The benchmark runners' code, a package as scripts/cacs_tools is.

The entry points stay where scripts and tests call them, and each is a few
lines that put bench/ on sys.path once and call in here:
  bench/tools/run.py     scripts/bench's runner        (cacs_bench.suite)
  bench/net/run_net.py   scripts/bench-net's runner    (cacs_bench.net)
  bench/locks/run.py     the lock microbenchmark       (cacs_bench.common)
  bench/scale/conns.py   many connections              (cacs_bench.net)
common.py holds what they share.
"""
