# lit test format for cacs: lit's ShTest, except that the I/O tests run on
# both engines of the I/O module (cacs/io.h, "Engines"). A module of its
# own so that lit's worker processes can import it (lit.cfg.py uses it).
import os

import lit.formats
import lit.Test


class IoEnginesTest(lit.formats.ShTest):
    """Runs each I/O test (one that links the host's I/O module) once per
    engine of `engines` (lit.cfg.py: one per LLVM's suite
    by default, both with --param cacs_io_engines=uring,epoll), with
    CACS_IO_ENGINE set to it and CACS_TEST_IO_ENGINE the same so that the
    test can check it got that engine (runtime/Inputs/io-test.h). One
    result: the first failure, named by its engine, or the pass of all.

    A test runs its whole script per engine, compilations included. Only
    the I/O module's own tests (runtime/io-*, and the pool's, pool/pool-io-*,
    whose workers then have a ring each or none) are run so by default: the
    others that link the module (park-*, app-*, ...) are dominated by
    their compilations and run once, on the engine the module picks.
    lit --param cacs_io_all_engines=1 runs them per engine too, and
    --param cacs_io_engines=epoll (a comma-separated list) chooses the
    engines (lit.cfg.py)."""

    ENGINE_VARS = ("CACS_IO_ENGINE", "CACS_TEST_IO_ENGINE")

    def __init__(self, execute_external=False):
        super().__init__(execute_external)
        self.engines = ()  # set by lit.cfg.py when io_uring can run
        self.all_tests = False  # every test that links the module

    def execute(self, test, litConfig):
        path = test.getSourcePath()
        is_io = False
        base = os.path.basename(path)
        if (self.engines and
                (self.all_tests or base.startswith("io-") or
                 base.startswith("pool-io-"))):
            with open(path, errors="replace") as f:
                is_io = "%cacs_io_x86_64" in f.read()
        if not is_io:
            return super().execute(test, litConfig)
        env = test.config.environment
        saved = {k: env.get(k) for k in self.ENGINE_VARS}
        out = []
        try:
            for engine in self.engines:
                # The request, and the pass for the test to check that the
                # engine it got is this one (Inputs/io-test.h).
                for k in self.ENGINE_VARS:
                    env[k] = engine
                r = super().execute(test, litConfig)
                if isinstance(r, tuple):
                    r = lit.Test.Result(*r)
                out.append("--- CACS_IO_ENGINE=%s ---\n%s" % (engine, r.output))
                if r.code != lit.Test.PASS:
                    r.output = "\n".join(out)
                    return r
        finally:
            for k, v in saved.items():
                if v is None:
                    env.pop(k, None)
                else:
                    env[k] = v
        return lit.Test.Result(lit.Test.PASS, "\n".join(out))
