#!/usr/bin/env python3
# scripts/bench's runner. The code is bench/cacs_bench/suite/ (cli.py's
# docstring says what it measures and how).
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.realpath(__file__))))  # cacs_bench

if __name__ == "__main__":
    from cacs_bench.suite.cli import main
    sys.exit(main())
