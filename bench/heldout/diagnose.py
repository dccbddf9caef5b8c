# Counts the failed change cases of a held-out run by where the fact was lost (bench/heldout/diagnosis_v2.md).
# usage: python3 diagnose.py results_<TAG>_<mode>.jsonl
import json,re,collections,sys
def m(val,text):
    if val is None or text is None: return False
    if re.fullmatch(r'[A-Za-z0-9 .\-]+',val):
        return re.search(r'(?<![A-Za-z0-9.])'+re.escape(val)+r'(?![A-Za-z0-9]|\.\d)',text,re.I) is not None
    return val in text
path=sys.argv[1]; verbose=len(sys.argv)>2
R=[json.loads(l) for l in open(path)]
cnt=collections.Counter(); ex=collections.defaultdict(list)
for r in R:
    if r['kind']!='change' or r['b']: continue
    cl=[c for c in r['claims'] if c['pred'] not in ('explicit_memory',)]
    o=[c for c in cl if m(r['old'],c['val'])]
    n=[c for c in cl if m(r['new'],c['val']) and not m(r['old'],c['val'])]
    if not o and not n: k='no claim from either turn'
    elif not n: k='no claim from the new turn (old extracted)'
    elif not o: k='no claim from the old turn (new extracted)'
    else:
        a,b=o[0],n[0]
        if a['subj']!=b['subj']: k='both extracted: subject differs'
        elif a['pred']!=b['pred'] or (a['slot'] or '')!=(b['slot'] or ''): k='both extracted: attribute/slot differs'
        elif a['quals']!=b['quals']: k='both extracted: qualifiers differ'
        else: k='both extracted: same slot, no supersede'
    cnt[k]+=1; ex[k].append(r['id'])
for k,v in cnt.most_common(): print(f'{v:3d}  {k}: {" ".join(ex[k])}')
