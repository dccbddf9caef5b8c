#!/usr/bin/env python3
"""Repeats the contention driver (../shared/tools/reliability/contention.py) over many seeds and
sums up what issue 18 asks for: runs, acknowledged writes, lost, duplicated, integrity errors
(doctor), failed calls by kind (lock errors = exit code 4), and the remember p99 wait.

usage: contention_runs.py WORKDIR [--runs 50] [--duration 60] [--backlog 20000] [--first-seed 1]
                          [--driver PATH] [--out results.jsonl]
ENGRAM_BIN names the binary (default build/engram). Each run's summary.json is appended to --out
(one JSON object a line, with its seed), and a table is printed at the end.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

ap = argparse.ArgumentParser()
ap.add_argument("workdir")
ap.add_argument("--runs", type=int, default=50)
ap.add_argument("--duration", type=float, default=60)
ap.add_argument("--backlog", type=int, default=20000)
ap.add_argument("--first-seed", type=int, default=1)
here = os.path.dirname(os.path.abspath(__file__))
ap.add_argument("--driver", default=os.path.join(here, "..", "..", "..", "shared", "tools", "reliability",
                                                 "contention.py"))
ap.add_argument("--out", default=None)
a = ap.parse_args()
os.makedirs(a.workdir, exist_ok=True)
out_path = a.out or os.path.join(a.workdir, "runs.jsonl")

rows = []
for i in range(a.runs):
    seed = a.first_seed + i
    wd = os.path.join(a.workdir, f"seed{seed}")
    p = subprocess.run([sys.executable, a.driver, wd, "--duration", str(a.duration), "--backlog", str(a.backlog),
                        "--seed", str(seed)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        row = dict(seed=seed, driver_failed=p.returncode, stderr=p.stderr[-500:])
    else:
        s = json.load(open(os.path.join(wd, "summary.json")))
        failed = sum(f["count"] for f in s.get("failures", []))
        lock = sum(s.get(k, {}).get("exit4", 0) for k in ("remember", "ingest", "recall", "process"))
        row = dict(seed=seed, acked=s["acked_writes"], lost=s["lost"], duplicated=s["duplicated"],
                   doctor_ok=s["doctor_ok"], problems=(s.get("doctor_problems") or [])[:3], failed_calls=failed,
                   lock_errors=lock, remember_p99_ms=s.get("remember", {}).get("p99_ms"),
                   ingest_p99_ms=s.get("ingest", {}).get("p99_ms"), calls=s["total_calls"],
                   failures=s.get("failures", [])[:3])
    rows.append(row)
    with open(out_path, "a") as f:
        f.write(json.dumps(row) + "\n")
    print(json.dumps(row), flush=True)
    # Keep the disk in check: a clean run's files are not needed again.
    if row.get("lost") == 0 and row.get("doctor_ok") and row.get("failed_calls") == 0:
        for name in os.listdir(wd):
            if name.startswith("cont.db") or name.endswith(".jsonl"):
                os.remove(os.path.join(wd, name))

ok = [r for r in rows if "driver_failed" not in r]
p99 = [r["remember_p99_ms"] for r in ok if r.get("remember_p99_ms") is not None]
total = dict(runs=len(rows), driver_failures=len(rows) - len(ok), acked=sum(r["acked"] for r in ok),
             lost=sum(r["lost"] for r in ok), runs_losing=sum(1 for r in ok if r["lost"]),
             duplicated=sum(r["duplicated"] for r in ok),
             doctor_failures=sum(1 for r in ok if not r["doctor_ok"]),
             failed_calls=sum(r["failed_calls"] for r in ok), lock_errors=sum(r["lock_errors"] for r in ok),
             remember_p99_ms_median=statistics.median(p99) if p99 else None,
             remember_p99_ms_max=max(p99) if p99 else None)
print(json.dumps(total, indent=1))
