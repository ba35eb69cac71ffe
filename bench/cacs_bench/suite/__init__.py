"""scripts/bench's runner (bench/tools/run.py calls cli.main): the
workloads (specs), timing and counting them (points, compile_cost, skynet),
the report and plots."""
