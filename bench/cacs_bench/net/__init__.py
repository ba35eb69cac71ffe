"""scripts/bench-net's runner (bench/net/run_net.py calls cli.main): the
servers and how they run (servers), the load points (loads), the costs per
request (counts), the report and plots."""
