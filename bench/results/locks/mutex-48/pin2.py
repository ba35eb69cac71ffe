# pin2.py CMD...: run CMD; as soon as its worker threads exist, pin thread k (k >= 1) to CPU (k-1) % 2.
# Prints CMD's mops=, or with PIN2_ALL=1 all of its output.
import subprocess, sys, time, os, re
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
pinned = set()
t0 = time.time()
while p.poll() is None and time.time() - t0 < 0.3:
    try:
        tids = sorted(int(t) for t in os.listdir('/proc/%d/task' % p.pid))
    except FileNotFoundError:
        break
    for k, tid in enumerate(tids[1:]):
        if tid not in pinned:
            try:
                os.sched_setaffinity(tid, {k % 2})
                pinned.add(tid)
            except OSError:
                pass
    time.sleep(0.002)
out = p.communicate()[0]
if os.environ.get('PIN2_ALL'):  # all of CMD's output (fast-49's stats.sh)
    sys.exit(print(out + 'pinned %d' % len(pinned)))
m = re.search(r'mops=[0-9.]+', out)
print(m.group(0) if m else out[-300:], 'pinned', len(pinned))
