import json, re, subprocess, sys, os
HERE=os.path.dirname(os.path.abspath(__file__))
exec(open(os.path.join(HERE,'cases.py')).read())
# CASES=cases_v2.jsonl reads another set (one JSON object a line: id, lang, cat, kind, turns,
# question, new, old); TAG names its result files (results_<TAG>_<mode>.jsonl).
if os.environ.get('CASES'):
    C=[tuple(o[k] for k in ('id','lang','cat','kind','turns','question','new','old'))
       for o in map(json.loads, open(os.path.join(HERE,os.environ['CASES']),encoding='utf-8'))]
# A control's `old` is the value that still stands (said first) and `new` the one its second turn
# must not make current; a set written the other way round would score its controls inverted.
for c in C:
    if c[3]=='control' and c[7] and c[7] not in c[4][0] and c[7] in c[4][1]:
        sys.exit(f"{c[0]}: a control's old value must be the first turn's (it still stands): {c[7]!r}")
TAG=os.environ.get('TAG','')
E=os.environ.get('ENGRAM','build/engram')
T0,T1,ASOF='2024-01-01T09:00:00Z','2024-06-01T09:00:00Z','2024-03-01T00:00:00Z'
errs=[]
def run(args, db):
    p=subprocess.run([E,'--db',db]+args,capture_output=True,text=True)
    if p.returncode!=0 or p.stderr.strip():
        errs.append({'args':args,'rc':p.returncode,'stderr':p.stderr[-500:]})
    try: return json.loads(p.stdout) if p.stdout.strip() else None
    except Exception as e:
        errs.append({'args':args,'badjson':p.stdout[:300]}); return None
def m(val,text):
    if val is None or text is None: return False
    if re.fullmatch(r'[A-Za-z0-9 .\-]+',val):
        return re.search(r'(?<![A-Za-z0-9.])'+re.escape(val)+r'(?![A-Za-z0-9]|\.\d)',text,re.I) is not None
    return val in text
# A claim is matched on its value, its text and its subject with its value ("Django" + "4.2" for a
# version claim, whose text reads "Django version 4.2" and whose case says "Django 4.2").
def ctext(x): return (x.get('value') or '')+' | '+(x.get('text') or '')+' | '+(x.get('subject') or '')+' '+(x.get('value') or '')
def itext(it):
    if it.get('type')=='claim': return ctext(it)
    return it.get('text') or ''
mode=sys.argv[1]
db=os.path.join(os.environ.get('WORK','/tmp'),f'heldout_{TAG}{mode}.db')
for f in (db,db+'-wal',db+'-shm'):
    if os.path.exists(f): os.remove(f)
if mode=='ingest':
    lines=[]
    for c in C:
        cid,lang,cat,kind,turns,q,new,old=c
        lines.append({"namespace":cid,"session_id":"s1","role":"user","content":turns[0],"occurred_at":T0})
        lines.append({"namespace":cid,"session_id":"s1","role":"user","content":"好的，谢谢。" if lang=='zh' else "ok, thanks.","occurred_at":T0.replace('09:00','09:01')})
        lines.append({"namespace":cid,"session_id":"s2","role":"user","content":turns[1],"occurred_at":T1})
    with open(os.path.join(os.environ.get('WORK','/tmp'),f'heldout_events{TAG}.jsonl'),'w') as fh:
        for l in lines: fh.write(json.dumps(l,ensure_ascii=False)+'\n')
    p=subprocess.run([E,'--db',db,'--create','ingest',os.path.join(os.environ.get('WORK','/tmp'),f'heldout_events{TAG}.jsonl')],capture_output=True,text=True); print('ingest',p.returncode,p.stdout[-300:],p.stderr[-300:])
    p=subprocess.run([E,'--db',db,'process'],capture_output=True,text=True); print('process',p.returncode,p.stdout[-300:],p.stderr[-300:])
out=[]
for c in C:
    cid,lang,cat,kind,turns,q,new,old=c
    if mode=='remember':
        for t,at in zip(turns,(T0,T1)):
            run(['--create','remember',t,'-n',cid,'--at',at,'--json'],db)
    cl=run(['claims','-n',cid,'--include-history','--json','-k','200'],db) or {}
    claims=cl.get('items',[])
    rc=run(['recall',q,'-n',cid,'--json','-k','5'],db) or {}
    items=rc.get('items',[])
    top=items[0] if items else {}
    tt=itext(top)
    r={'id':cid,'lang':lang,'cat':cat,'kind':kind,'mode':mode,'turns':turns,'question':q,'new':new,'old':old}
    # (a)
    if kind=='change':
        a=m(new,tt) and not m(old,tt) and not (top.get('type')=='claim' and top.get('status')!='active')
        alen=m(new,tt)
    elif kind=='control':
        a=m(old,tt) and not (top.get('type')=='claim' and top.get('status')!='active'); alen=m(old,tt)
    else:
        a=(m(new,tt) or m(old,tt)); alen=a
    # (b)
    act=[x for x in claims if x['status']=='active']
    sup=[x for x in claims if x['status']!='active']
    def hit(v,lst): return [x for x in lst if m(v,ctext(x))]
    if kind=='change':
        na=hit(new,act); os_=hit(old,sup)
        linked=any(x.get('supersedes_id') in {o['id'] for o in os_} for x in na)
        b=bool(na) and bool(os_) and not hit(old,[x for x in act if not m(new,(x.get('value') or ''))])
        r['b_linked']=linked
    elif kind=='control':
        b=bool(hit(old,act)) and not hit(old,sup)
    else:
        b=bool(hit(new,act)) and bool(hit(old,act))
    # (c)
    c_=None
    if kind=='change':
        rc2=run(['recall',q,'-n',cid,'--json','-k','5','--as-of',ASOF],db) or {}
        it2=rc2.get('items',[]); t2=itext(it2[0]) if it2 else ''
        c_=m(old,t2) and not m(new,t2)
        r['asof_top']={'type':it2[0].get('type'),'text':it2[0].get('text'),'status':it2[0].get('status')} if it2 else None
        r['asof_intent']=rc2.get('intent')
    r.update(a=a,a_lenient=alen,b=b,c=c_,
      top=[{'type':i.get('type'),'text':i.get('text'),'status':i.get('status'),'value':i.get('value')} for i in items[:3]],
      intent=rc.get('intent'),answerability=rc.get('answerability'),
      claims=[{'st':x['status'],'subj':x['subject'],'pred':x['predicate'],'slot':x.get('slot'),'val':x['value'],'assertion':x.get('assertion'),'quals':x.get('qualifiers'),'sup':bool(x.get('supersedes_id')),'expires':x.get('expires_at'),'vt':x.get('valid_to')} for x in claims])
    out.append(r)
with open(os.path.join(HERE,f'results_{TAG+"_" if TAG else ""}{mode}.jsonl'),'w') as fh:
    for r in out: fh.write(json.dumps(r,ensure_ascii=False)+'\n')
with open(os.path.join(os.environ.get('WORK','/tmp'),f'heldout_errors_{mode}.json'),'w') as fh: json.dump(errs,fh,ensure_ascii=False,indent=1)
print(mode,'cases',len(out),'errors',len(errs))
