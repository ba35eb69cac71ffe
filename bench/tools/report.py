#!/usr/bin/env python3
# The benchmark reports: bench/results/README.md, its plots and the README's
# benchmark table from the stored results of one ./scripts/bench run
# (--write, --check). The code is bench/cacs_bench/suite/report.py.
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.realpath(__file__))))  # cacs_bench

if __name__ == "__main__":
    from cacs_bench.suite.report import main
    sys.exit(main())
