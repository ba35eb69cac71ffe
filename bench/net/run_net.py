#!/usr/bin/env python3
# scripts/bench-net's runner. The code is bench/cacs_bench/net/ (cli.py's
# docstring is the --help text).
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.realpath(__file__))))  # cacs_bench

if __name__ == "__main__":
    from cacs_bench.net.cli import main
    sys.exit(main())
