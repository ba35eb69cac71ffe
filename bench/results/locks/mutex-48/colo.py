# colo.py CMD...: run CMD, sample its threads' CPU (stat field 39) and state every 5 ms.
import subprocess, sys, time, os, collections
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
time.sleep(0.15)
samples = collections.Counter(); n = 0
while p.poll() is None:
    cpus = []
    try:
        for tid in os.listdir('/proc/%d/task' % p.pid):
            s = open('/proc/%d/task/%s/stat' % (p.pid, tid)).read()
            f = s[s.rindex(')') + 2:].split()
            st, cpu, utime = f[0], int(f[36]), int(f[11])
            if st == 'R': cpus.append(cpu)
    except (FileNotFoundError, ProcessLookupError, ValueError):
        break
    samples[tuple(sorted(cpus))] += 1; n += 1
    time.sleep(0.005)
out = p.stdout.read()
import re
m = re.search(r'mops=[0-9.]+', out)
print(m.group(0) if m else out[-200:], 'samples', n, 'runnable threads by CPU:', samples.most_common(6))
