# lit configuration for the regression tests that difftest-selftest.test has
# scripts/difftest write into a temporary directory: the cacs configuration
# of the build under test (--param cacs_site=<build>/test/lit.site.cfg.py),
# with this file's directory as the test suite.
import os

lit_config.load_config(config, lit_config.params["cacs_site"])
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.test_exec_root = os.path.join(config.test_source_root, "Output")
