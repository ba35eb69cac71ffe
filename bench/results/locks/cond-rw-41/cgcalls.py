import re,collections,sys
def calls(path):
    c=collections.Counter(); names={}; cur=None; total=0
    for line in open(path):
        m=re.match(r'(c?fn)=\((\d+)\)(?: (.*))?',line)
        if m:
            if m.group(3): names[m.group(2)]=m.group(3)
            if m.group(1)=='cfn': cur=m.group(2)
            continue
        m=re.match(r'calls=(\d+)',line)
        if m and cur: c[names.get(cur,cur).split("'")[0]]+=int(m.group(1)); cur=None
        m=re.match(r'summary: (\d+)',line) or re.match(r'totals: (\d+)',line)
        if m: total=int(m.group(1))
    return c,total
for p in sys.argv[1:]:
    c,t=calls(p)
    items=64000
    print("%-28s Ir/item %6.0f | per item: cond_wait %.2f  mutex_lock_slow %.2f  mutex_unlock_slow %.2f  park %.2f  handoff %.2f  pool_wake %.2f futex_wait_worker %.3f"%(
        p.split('/')[-1], t/items, c['cacs_pool_cond_wait']/items, c['mutex_lock_slow']/items, c['mutex_unlock_slow']/items,
        c['cacs__pool_park']/items, c['cacs__pool_handoff']/items, c['cacs__pool_wake']/items, c['futex_wait_worker']/items))
