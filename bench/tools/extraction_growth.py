#!/usr/bin/env python3
"""Extraction cost per event as the namespace grows (issue 17, B43: 2,000 events took 5.4 s in a
fresh database and 116 s in one holding 20,000 claims).

For each prefill size P: P events of ../shared/tools/reliability/gen_events.py (namespace p, one
speaker restating a few single-valued facts, so slot histories grow with the namespace; about 0.56
claims per event) are ingested and processed by --prefill-bin (not timed), then STEP more events of
the same namespace are ingested and `engram process` is timed on a copy of the file with each
binary given (--bin NAME=PATH, several). Reported: the claims held before the step, and for each
binary the wall time, the CPU time (user + system of the process: less sensitive to a shared
machine's load) and both per event. A binary that refuses the file's schema version
(an older build) gets a copy with the indexes of the newer migrations dropped and user_version set
back (--downgrade VERSION:INDEX,INDEX...): fair only when those migrations add indexes and nothing else.

usage: extraction_growth.py WORKDIR --bin after=build/engram [--bin before=/tmp/base/engram]
                            [--sizes 0,18000,180000] [--step 2000] [--prefill-bin PATH]
                            [--downgrade 10:claims_current_topic,claims_current_polarity,...]
                            [--reuse-prefill]
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
ap.add_argument("--bin", action="append", required=True, help="NAME=PATH, one per binary")
ap.add_argument("--sizes", default="0,18000,180000")
ap.add_argument("--step", type=int, default=2000)
ap.add_argument("--prefill-bin", default=None, help="default: the first --bin")
ap.add_argument("--downgrade", default=None, help="VERSION:IDX,IDX for binaries that need an older schema")
ap.add_argument("--reuse-prefill", action="store_true",
                help="keep WORKDIR/prefillN.db of an earlier run when it exists (a 1.8M-event prefill takes ~30 min)")
ap.add_argument("--gen", default=os.path.join(here, "..", "..", "..", "shared", "tools", "reliability",
                                              "gen_events.py"))
a = ap.parse_args()
bins = [b.split("=", 1) for b in a.bin]
prefill_bin = a.prefill_bin or bins[0][1]
os.makedirs(a.workdir, exist_ok=True)
W = lambda *p: os.path.join(a.workdir, *p)  # noqa: E731


def engram(binary, db, *args):
    """Runs engram; returns (stdout, wall s, cpu s of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run([binary, "--db", db, "--json"] + [str(x) for x in args], capture_output=True, text=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise RuntimeError(f"{binary} {args}: rc {p.returncode}: {p.stderr[:300]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return p.stdout, wall, cpu


def gen(path, n, tag, seed):
    subprocess.run([sys.executable, a.gen, path, str(n), "--namespaces", "p", "--tag", tag, "--seed", str(seed)],
                   check=True)


def remove_db(path):
    for s in ("", "-wal", "-shm", "-checkpointer"):
        if os.path.exists(path + s):
            os.remove(path + s)


def downgrade(db):
    version, indexes = a.downgrade.split(":")
    con = sqlite3.connect(db)
    for idx in indexes.split(","):
        con.execute(f"DROP INDEX IF EXISTS {idx}")
    con.execute(f"PRAGMA user_version = {int(version)}")
    con.commit()
    con.close()


def claims(db):
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return con.execute("SELECT count(*), sum(status IN ('active','disputed')) FROM claims").fetchone()
    finally:
        con.close()


step_file = W("step.jsonl")
gen(step_file, a.step, "q", 4)
rows = []
for size in [int(x) for x in a.sizes.split(",")]:
    base = W(f"prefill{size}.db")
    reuse = a.reuse_prefill and size > 0 and os.path.exists(base)
    if not reuse:
        remove_db(base)
    if size > 0 and not reuse:
        gen(W("prefill.jsonl"), size, "p", 3)
        engram(prefill_bin, base, "ingest", W("prefill.jsonl"))
        engram(prefill_bin, base, "process")
    held = claims(base) if size > 0 else (0, 0)
    for name, binary in bins:
        db = W(f"run_{name}.db")
        remove_db(db)
        if size > 0:
            shutil.copy(base, db)
            if a.downgrade and name != bins[0][0] and binary != prefill_bin:
                downgrade(db)
        engram(binary, db, "ingest", step_file)
        out, wall, cpu = engram(binary, db, "process")
        rep = json.loads(out)
        load = os.getloadavg()[0]
        row = dict(prefill_events=size, claims_held=held[0], current_claims_held=held[1], binary=name,
                   events=rep["events"], wall_s=round(wall, 2), cpu_s=round(cpu, 2),
                   wall_ms_per_event=round(1000 * wall / rep["events"], 3),
                   cpu_ms_per_event=round(1000 * cpu / rep["events"], 3), load1=round(load, 2),
                   claims_created=rep["claims_created"], claims_superseded=rep["claims_superseded"])
        rows.append(row)
        print(json.dumps(row), flush=True)
json.dump(rows, open(W("summary.json"), "w"), indent=1)
print("| prefill events | claims held (current) | binary | wall s | CPU s | CPU ms/event | load |")
print("|---:|---:|---|---:|---:|---:|---:|")
for r in rows:
    print(f"| {r['prefill_events']:,} | {r['claims_held']:,} ({r['current_claims_held']:,}) | {r['binary']} | "
          f"{r['wall_s']} | {r['cpu_s']} | {r['cpu_ms_per_event']} | {r['load1']} |")
