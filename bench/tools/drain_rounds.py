#!/usr/bin/env python3
"""Consecutive drains on one large file, each binary on its own copy (issue 17, B43: extraction per
event must not grow with the namespace; the steady state of the drain's full-text merge shows only
after several drains).

For each round: STEP new events of gen_events.py (namespace p, tag y<round>, seed 500+round) are
ingested and `engram process` is timed on each binary's copy of DB. Reported per round and binary:
CPU ms/event (user + system of the process) and the segments of both full-text indexes after it.
A binary after the first gets its copy with user_version set back to --downgrade (fair only when the
newer migrations add nothing that binary reads).

usage: drain_rounds.py WORKDIR --db PREFILLED.db --bin after=build/engram --bin before=/tmp/base/engram
                       [--rounds 4] [--step 2000] [--downgrade 15]
"""
import argparse
import json
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
ap = argparse.ArgumentParser()
ap.add_argument("workdir")
ap.add_argument("--db", required=True)
ap.add_argument("--bin", action="append", required=True, help="NAME=PATH, one per binary")
ap.add_argument("--rounds", type=int, default=4)
ap.add_argument("--step", type=int, default=2000)
ap.add_argument("--downgrade", type=int, default=None)
ap.add_argument("--gen", default=os.path.join(here, "..", "..", "..", "shared", "tools", "reliability",
                                              "gen_events.py"))
a = ap.parse_args()
bins = [b.split("=", 1) for b in a.bin]
os.makedirs(a.workdir, exist_ok=True)
W = lambda *p: os.path.join(a.workdir, *p)  # noqa: E731

for i, (name, _) in enumerate(bins):
    shutil.copy(a.db, W(f"run_{name}.db"))
    if i > 0 and a.downgrade is not None:
        con = sqlite3.connect(W(f"run_{name}.db"))
        con.execute(f"PRAGMA user_version = {a.downgrade}")
        con.commit()
        con.close()


def run(binary, db, *args):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run([binary, "--db", db, "--json"] + list(args), capture_output=True, text=True)
    wall = time.monotonic() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode:
        raise RuntimeError(f"{binary} {args}: rc {p.returncode}: {p.stderr[:300]}")
    return p.stdout, wall, r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime


def segments(db):
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return [con.execute(f"SELECT count(DISTINCT id >> 37) FROM {t}_data WHERE id >> 37 > 0").fetchone()[0]
                for t in ("event_fts", "claim_fts")]
    finally:
        con.close()


for k in range(a.rounds):
    f = W(f"round{k}.jsonl")
    subprocess.run([sys.executable, a.gen, f, str(a.step), "--namespaces", "p", "--tag", f"y{k}",
                    "--seed", str(500 + k)], check=True)
    for name, binary in bins:
        db = W(f"run_{name}.db")
        run(binary, db, "ingest", f)
        out, wall, cpu = run(binary, db, "process")
        events = json.loads(out)["events"]
        print(json.dumps(dict(round=k, binary=name, events=events, wall_s=round(wall, 2), cpu_s=round(cpu, 2),
                              cpu_ms_per_event=round(1000 * cpu / events, 3), segments=segments(db),
                              load=round(os.getloadavg()[0], 1))), flush=True)
