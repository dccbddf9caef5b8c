"""Precision of closing an older statement by a newer one about the same thing (write/same_thing.h).

same_thing_pairs.tsv (or PAIRS=same_thing_pairs2.tsv): id, group, expect (close | keep | mixed),
older statement, newer statement. The first file: 306 pairs written in session 23 by a reviewer
asked to break the first version of the rule (230 keep: a shared word that is not the same thing,
two things of a kind, someone else's change, not-now, temporary, restated, added; 56 close:
genuine changes); the second: 205 pairs by a second reviewer against the phrase rule (160 keep,
45 close); ended_pairs.tsv: 235 pairs written in session 24, before the rule existed, by a reviewer
asked to break a rule that closes what the speaker says they ended (write/ended_thing.h: 144 keep,
91 close; tuned against since); kind_pairs.tsv (216 pairs, written blind in session 25 against the
rule that a newer value of the same kind closes the older, write/same_kind.h: 134 keep, 82 close),
kind_pairs2.tsv (113, by the same reviewer after probing its first version: 87 keep, 26 close) and
kind_pairs3.tsv (123, a second reviewer probing the tightened version: 97 keep, 26 close);
correction_pairs.tsv (137: 93 keep, 44 close, English and Chinese) and kin_close_pairs.tsv (133: 91
keep, 42 close, English), written in session 27 by a reviewer probing the bare-correction rule
(write/corrected_value.h) and the kin change in the write path (write/kin_change.h) on their first
versions. Each pair is remembered in a namespace of its own, six months
apart; a claim of the older statement left superseded counts as closed. A dev set: it was read.

    ENGRAM=build/engram [PAIRS=same_thing_pairs2.tsv|ended_pairs.tsv|kind_pairs.tsv|…] python3 bench/heldout/same_thing_pairs.py [TAG]
"""
import concurrent.futures as cf
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ENGRAM = os.environ.get('ENGRAM', 'build/engram')
TAG = sys.argv[1] if len(sys.argv) > 1 else 'run'
PAIRS = [l.rstrip('\n').split('\t') for l in open(os.path.join(HERE, os.environ.get('PAIRS', 'same_thing_pairs.tsv')), encoding='utf-8')
         if l.strip() and not l.startswith('id\t')]


def run(chunk, db):
    out = []
    for pid, group, expect, older, newer in chunk:
        for text, at in ((older, '2024-01-01T09:00:00Z'), (newer, '2024-06-01T09:00:00Z')):
            subprocess.run([ENGRAM, '--db', db, '--create', 'remember', text, '-n', pid, '--at', at],
                           capture_output=True, check=True)
        listed = subprocess.run([ENGRAM, '--db', db, 'claims', '-n', pid, '--include-history', '--json'],
                                capture_output=True, text=True, check=True)
        items = json.loads(listed.stdout)['items']
        closed = [i['text'] for i in items if i['status'] == 'superseded' and i['valid_from'].startswith('2024-01')]
        out.append({'id': pid, 'group': group, 'expect': expect, 'older': older, 'newer': newer, 'closed': closed})
    return out


with tempfile.TemporaryDirectory() as work:
    with cf.ThreadPoolExecutor(2) as pool:
        parts = pool.map(run, [PAIRS[0::2], PAIRS[1::2]], [os.path.join(work, 'a.db'), os.path.join(work, 'b.db')])
        results = sorted((r for part in parts for r in part), key=lambda r: r['id'])
keep = [r for r in results if r['expect'] == 'keep']
close = [r for r in results if r['expect'] == 'close']
print(f"{TAG}: keep pairs closed (false) {sum(bool(r['closed']) for r in keep)}/{len(keep)}; "
      f"change pairs closed {sum(bool(r['closed']) for r in close)}/{len(close)}")
with open(os.path.join(HERE, f'results_same_thing_{TAG}.jsonl'), 'w', encoding='utf-8') as fh:
    for r in results:
        fh.write(json.dumps(r, ensure_ascii=False) + '\n')
