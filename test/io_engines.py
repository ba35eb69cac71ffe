# lit test format for cacs: lit's ShTest, except that the I/O tests run on
# both engines of the I/O module (cacs/io.h, "Engines"). A module of its
# own so that lit's worker processes can import it (lit.cfg.py uses it).
import os

import lit.formats
import lit.Test


class IoEnginesTest(lit.formats.ShTest):
    """Runs each I/O test (one that links the host's I/O module, outside
    pool/, whose coroutines wait through the pool's epoll poller on either
    engine) once per engine of cacs/io.h: CACS_IO_ENGINE=uring, then
    CACS_IO_ENGINE=epoll. One result: the first failure, named by its
    engine, or the pass of both.

    A test runs its whole script per engine, compilations included. By
    default only the I/O module's own tests (runtime/io-*) run on both:
    the others that link the module (park-*, app-*, ...) are dominated by
    their compilations and run once, on the engine the module picks.
    lit --param cacs_io_all_engines=1 runs them per engine too, and
    --param cacs_io_engines=epoll (a comma-separated list) chooses the
    engines (lit.cfg.py)."""

    def __init__(self, execute_external=False):
        super().__init__(execute_external)
        self.engines = ()  # set by lit.cfg.py when io_uring can run
        self.all_tests = False  # every test that links the module

    def execute(self, test, litConfig):
        path = test.getSourcePath()
        is_io = False
        if (self.engines and os.sep + "pool" + os.sep not in path
                and (self.all_tests or
                     os.path.basename(path).startswith("io-"))):
            with open(path, errors="replace") as f:
                is_io = "%cacs_io_x86_64" in f.read()
        if not is_io:
            return super().execute(test, litConfig)
        env = test.config.environment
        saved = env.get("CACS_IO_ENGINE")
        out = []
        try:
            for engine in self.engines:
                env["CACS_IO_ENGINE"] = engine
                r = super().execute(test, litConfig)
                if isinstance(r, tuple):
                    r = lit.Test.Result(*r)
                out.append("--- CACS_IO_ENGINE=%s ---\n%s" % (engine, r.output))
                if r.code != lit.Test.PASS:
                    r.output = "\n".join(out)
                    return r
        finally:
            if saved is None:
                env.pop("CACS_IO_ENGINE", None)
            else:
                env["CACS_IO_ENGINE"] = saved
        return lit.Test.Result(lit.Test.PASS, "\n".join(out))
