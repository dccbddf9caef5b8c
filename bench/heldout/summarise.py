import json,collections,re
import os
exec(open('run.py').read().split("mode=sys.argv")[0].split("errs=[]")[0])  # imports + consts
PRE=os.environ.get('TAG','')+'_' if os.environ.get('TAG') else ''  # TAG=... as run.py
def m(val,text):
    if re.fullmatch(r'[A-Za-z0-9 .\-]+',val):
        return re.search(r'(?<![A-Za-z0-9.])'+re.escape(val)+r'(?![A-Za-z0-9]|\.\d)',text,re.I) is not None
    return val in text
out=[]
for mode in [m for m in ['remember','ingest'] if os.path.exists(f'results_{PRE}{m}.jsonl')]:
    R=[json.loads(l) for l in open(f'results_{PRE}{mode}.jsonl')]
    for r in R:
        sup_any=any(c['st']!='active' for c in r['claims'])
        base=any(c['st']=='active' and m(r['old'],c['val']) for c in r['claims'])
        r['ctl_no_supersede']=not sup_any if r['kind']!='change' else None
        r['base_claim_active']=base
        r['c_given_b']=(r['c'] if r['b'] else None) if r['kind']=='change' else None
    out.append((mode,R))
    with open(f'results_{PRE}{mode}.jsonl','w') as fh:
        for r in R: fh.write(json.dumps(r,ensure_ascii=False)+'\n')
lines=[]
def P(s): lines.append(s); print(s)
for mode,R in out:
    P(f'=== mode={mode}  cases={len(R)}')
    def agg(name,key):
        d=collections.OrderedDict()
        for r in sorted(R,key=key):
            k=key(r); x=d.setdefault(k,collections.Counter())
            x['n']+=1; x['a']+=r['a']; x['b']+=r['b']
            if r['c'] is not None: x['cn']+=1; x['c']+=r['c']
            if r['c_given_b'] is not None: x['cbn']+=1; x['cb']+=r['c_given_b']
            if r['ctl_no_supersede'] is not None: x['nsn']+=1; x['ns']+=r['ctl_no_supersede']
        for k,x in d.items():
            s=f"  {name}={k:18s} n={x['n']:2d}  a {x['a']}/{x['n']}  b {x['b']}/{x['n']}"
            if x['cn']: s+=f"  c {x['c']}/{x['cn']} (c|b {x['cb']}/{x['cbn']})"
            if x['nsn']: s+=f"  no-supersede {x['ns']}/{x['nsn']}"
            P(s)
    agg('all',lambda r:'all'); agg('lang',lambda r:r['lang']); agg('kind',lambda r:r['kind']); agg('kind/lang',lambda r:r['kind']+'/'+r['lang']); agg('cat',lambda r:r['cat'])
open(f'summary{"_"+os.environ["TAG"] if os.environ.get("TAG") else ""}.txt','w').write('\n'.join(lines)+'\n')
