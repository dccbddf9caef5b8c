"""Recall pairs for kin words (session 26; dev: read to choose the rule's guards).
PAIRS=new_thing_pairs.tsv reads the session-28 review pairs of the same format instead.

Each line of kin_recall_pairs.tsv: id, group, expect (keep | move), older, newer, question. The older
statement is remembered on 2024-01-01, the newer on 2024-06-01 (a fresh database per pair), the
question asked; the pair counts as moved when the first recalled item is the newer statement (an
event with its words, or a claim whose first supporting statement they are).

  ENGRAM=build/engram python3 bench/heldout/kin_recall_pairs.py [TAG]

Prints, per expectation, how many pairs moved, and writes kin_recall_pairs_<TAG>.tsv here (id,
expect, first: older | newer | other). Kin words need `engram models install glove`.
"""
import concurrent.futures, csv, json, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ENGRAM = os.environ.get('ENGRAM', 'build/engram')
TAG = sys.argv[1] if len(sys.argv) > 1 else 'run'


def first_of(row, work):
    db = os.path.join(work, row['id'] + '.db')
    for text, at, create in ((row['older'], '2024-01-01T09:00:00Z', ['--create']),
                             (row['newer'], '2024-06-01T09:00:00Z', [])):
        subprocess.run([ENGRAM, '--db', db] + create + ['remember', text, '-n', 't', '--at', at],
                       capture_output=True, check=True)
    out = subprocess.run([ENGRAM, '--db', db, 'recall', row['question'], '-n', 't', '--json', '-k', '3'],
                         capture_output=True, text=True, check=True).stdout
    items = json.loads(out)['items']
    if not items:
        return 'none'
    top = items[0]
    said = [e.get('content', '') for e in top.get('evidence', []) if e.get('relation') == 'supports']
    statement = said[0] if said else top.get('text', '')
    return 'newer' if statement == row['newer'] else 'older' if statement == row['older'] else 'other'


def main():
    pairs = os.environ.get('PAIRS', 'kin_recall_pairs.tsv')  # or new_thing_pairs.tsv (session 28)
    rows = list(csv.DictReader(open(os.path.join(HERE, pairs), encoding='utf-8'), delimiter='\t'))
    with tempfile.TemporaryDirectory() as work, concurrent.futures.ThreadPoolExecutor(2) as pool:
        firsts = list(pool.map(lambda r: first_of(r, work), rows))
    counts = {}
    with open(os.path.join(HERE, f'{pairs[:-4]}_{TAG}.tsv'), 'w', encoding='utf-8') as out:
        for row, first in zip(rows, firsts):
            out.write(f"{row['id']}\t{row['expect']}\t{first}\n")
            moved, total = counts.get(row['expect'], (0, 0))
            counts[row['expect']] = (moved + (first == 'newer'), total + 1)
    for expect, (moved, total) in sorted(counts.items()):
        print(f'{expect}: newer first in {moved} of {total}')


if __name__ == '__main__':
    main()
