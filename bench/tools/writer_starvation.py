#!/usr/bin/env python3
"""B43 writer starvation (issue 17, "Writers never starve"): do short-lived writers get the write
lock while `engram process` drains a large backlog in a namespace that already holds many claims?

Setup (not timed): PREFILL events (../shared/tools/reliability/gen_events.py, namespace `p`, one
speaker restating a few single-valued facts, so slot histories grow with the namespace) are
ingested and processed, then BACKLOG more events (namespaces b1, b2) are ingested and left pending.

Phase `idle` (IDLE s): WRITERS loops of `engram remember` (one unique statement each call,
namespace `w`) and RECALLERS loops of `engram recall`, no drain: the same-run baseline of a
remember's wall time on this machine under this load.
Phase `drain`: the same loops while one `engram process` drains the backlog (until it returns, or
MAX_DRAIN s). Every call is a separate process, as agents on one machine run it.

With $ENGRAM_LOCK_WAIT_LOG support in the binary (Options::lock_wait_log), each remember of the
drain phase also reports how long its write transaction waited for the write lock (lock_wait_ms:
the direct measure; the drain's own line is under lock_wait_ms.drain) and how long it held the lock
(lock_hold_ms, binaries that log hold_max_ms). --drain-bin runs the setup
and the drain with another binary (an older build), the writers staying on ENGRAM_BIN.

A lock error is a failed call whose error says locked/busy (exit code 4). The "write wait" of a
remember in the drain phase is its wall time minus the median wall time of the idle phase (what
the drain added: waiting for the lock, plus the drain's share of the CPU). Prints and writes
summary.json: lock errors, failed calls, remember wall p50/p99/max for both phases, write wait
p50/p99/max, the drain's wall time and events/s, recall p50/p99.

usage: writer_starvation.py WORKDIR [--writers 8] [--recallers 2] [--prefill 20000] [--backlog 20000]
                            [--idle 15] [--max-drain 900] [--seed 3] [--gen PATH]
ENGRAM_BIN names the binary (default build/engram).
"""
import argparse
import json
import os
import random
import subprocess
import sys
import threading
import time

ENGRAM = os.environ.get("ENGRAM_BIN", "build/engram")
here = os.path.dirname(os.path.abspath(__file__))
ap = argparse.ArgumentParser()
ap.add_argument("workdir")
ap.add_argument("--writers", type=int, default=8)
ap.add_argument("--recallers", type=int, default=2)
ap.add_argument("--prefill", type=int, default=20000, help="events processed before the run (claims held)")
ap.add_argument("--backlog", type=int, default=20000, help="pending events the drain processes")
ap.add_argument("--idle", type=float, default=15, help="seconds of the no-drain baseline phase")
ap.add_argument("--max-drain", type=float, default=900, help="the drain's timeout, s")
ap.add_argument("--seed", type=int, default=3)
ap.add_argument("--drain-bin", default=None, help="binary for setup and the drain (default: ENGRAM_BIN)")
ap.add_argument("--gen", default=os.path.join(here, "..", "..", "..", "shared", "tools", "reliability",
                                              "gen_events.py"))
a = ap.parse_args()
os.makedirs(a.workdir, exist_ok=True)
W = lambda *p: os.path.join(a.workdir, *p)  # noqa: E731
db = W("starve.db")
for s in ("", "-wal", "-shm", "-checkpointer"):
    if os.path.exists(db + s):
        os.remove(db + s)
for s in ("", ".idle", ".drain"):
    if os.path.exists(W("lock_waits.jsonl") + s):
        os.remove(W("lock_waits.jsonl") + s)


DRAIN_BIN = a.drain_bin or ENGRAM
WAIT_LOG = W("lock_waits.jsonl")  # $ENGRAM_LOCK_WAIT_LOG: one line per connection (binaries that have it)


def run(*args, timeout=120, binary=None, log=None):
    """`engram --db DB --json ARGS`: (rc, stdout, stderr, wall s); rc 'timeout' past `timeout`."""
    cmd = [binary or ENGRAM, "--db", db, "--json"] + [str(x) for x in args]
    env = dict(os.environ)
    env.pop("ENGRAM_LOCK_WAIT_LOG", None)
    if log:
        env["ENGRAM_LOCK_WAIT_LOG"] = log
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        out, err = p.communicate(timeout=timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        rc = "timeout"
    return rc, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), time.monotonic() - t0


def is_lock_error(rc, out, err):
    text = (out + err).lower()
    return rc == 4 or "locked" in text or "busy" in text


def pct(values, q):
    if not values:
        return None
    v = sorted(values)
    k = (len(v) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def ms(x):
    return None if x is None else round(1000 * x, 1)


def setup(name, n, namespaces, tag):
    path = W(f"{name}.jsonl")
    subprocess.run([sys.executable, a.gen, path, str(n), "--namespaces", namespaces, "--tag", tag,
                    "--seed", str(a.seed)], check=True)
    rc, out, err, wall = run("ingest", path, timeout=3600, binary=DRAIN_BIN)
    assert rc == 0, err
    return wall


t0 = time.monotonic()
prefill = {}
if a.prefill > 0:
    prefill["ingest_s"] = round(setup("prefill", a.prefill, "p", "p"), 1)
    rc, out, err, wall = run("process", timeout=24 * 3600, binary=DRAIN_BIN)
    assert rc == 0, err
    prefill["process_s"] = round(wall, 1)
    prefill["report"] = json.loads(out)
setup("backlog", a.backlog, "b1,b2", "b")
claims_before = run("stats", binary=DRAIN_BIN)[1]
print(f"setup {time.monotonic() - t0:.0f} s: prefill {prefill.get('process_s')} s", flush=True)

calls = []  # (phase, kind, rc, wall, lock_error, message)
lock = threading.Lock()
phase = ["idle"]
stop = threading.Event()


def record(kind, rc, out, err, wall):
    bad = rc != 0
    with lock:
        calls.append((phase[0], kind, rc, wall, bad and is_lock_error(rc, out, err), (err or out)[:200] if bad else ""))


def writer(i):
    rng = random.Random(100 + i)
    k = 0
    while not stop.is_set():
        k += 1
        text = f"w{i} note {k} {rng.randrange(16**6):06x}: I work at Acme"
        rc, out, err, wall = run("remember", text, "-n", "w", "--session", f"ws{i}",
                                 log=WAIT_LOG if phase[0] == "drain" else WAIT_LOG + ".idle")
        record("remember", rc, out, err, wall)


def recaller(i):
    rng = random.Random(200 + i)
    qs = ["where do I live", "what color do I like", "Acme", "dog named Rex", "我住在哪里"]
    while not stop.is_set():
        rc, out, err, wall = run("recall", rng.choice(qs), "-n", rng.choice(["b1", "p", "w"]))
        record("recall", rc, out, err, wall)


threads = [threading.Thread(target=writer, args=(i,)) for i in range(a.writers)]
threads += [threading.Thread(target=recaller, args=(i,)) for i in range(a.recallers)]
for t in threads:
    t.start()
time.sleep(a.idle)
with lock:
    phase[0] = "drain"
rc, out, err, drain_wall = run("process", timeout=a.max_drain, binary=DRAIN_BIN, log=WAIT_LOG + ".drain")
stop.set()
for t in threads:
    t.join()
try:
    drain_report = json.loads(out)
except ValueError:
    drain_report = {"rc": rc, "stderr": err[:300]}


def walls(ph, kind, ok_only=True):
    return [w for p, k, rc, w, _, _ in calls if p == ph and k == kind and (rc == 0 or not ok_only)]


idle_median = pct(walls("idle", "remember"), 0.5) or 0.0
waits = [max(0.0, w - idle_median) for w in walls("drain", "remember", ok_only=False)]
lock_waits = []  # the remembers' write-lock waits during the drain (s), from $ENGRAM_LOCK_WAIT_LOG
if os.path.exists(WAIT_LOG):
    lock_waits = [json.loads(line)["wait_max_ms"] / 1000 for line in open(WAIT_LOG) if line.strip()]
idle_waits = [json.loads(line)["wait_max_ms"] / 1000 for line in open(WAIT_LOG + ".idle")] if os.path.exists(
    WAIT_LOG + ".idle") else []
drain_waits = [json.loads(line) for line in open(WAIT_LOG + ".drain")] if os.path.exists(WAIT_LOG + ".drain") else []


def holds(path):
    """How long each remember held the write lock (s): hold_max_ms of binaries that log it."""
    if not os.path.exists(path):
        return []
    lines = [json.loads(line) for line in open(path) if line.strip()]
    return [x["hold_max_ms"] / 1000 for x in lines if "hold_max_ms" in x]


def spread(values):
    return dict(n=len(values), p50=ms(pct(values, 0.5)), p99=ms(pct(values, 0.99)),
                max=ms(max(values) if values else None))
summary = dict(
    binary=ENGRAM, writers=a.writers, recallers=a.recallers, prefill_events=a.prefill, backlog_events=a.backlog,
    prefill=prefill, stats_before_drain=claims_before.strip()[:400],
    drain=dict(rc=rc, wall_s=round(drain_wall, 1), events=drain_report.get("events"),
               events_per_s=round(drain_report.get("events", 0) / drain_wall, 1) if drain_wall else None,
               jobs_failed=drain_report.get("jobs_failed"), errors=(drain_report.get("errors") or [])[:3]),
    lock_errors=sum(1 for c in calls if c[4]),
    failed_calls=sum(1 for c in calls if c[2] != 0),
    failures=[dict(phase=c[0], kind=c[1], rc=c[2], msg=c[5]) for c in calls if c[2] != 0][:10],
    lock_wait_ms=dict(remembers=len(lock_waits), p50=ms(pct(lock_waits, 0.5)), p99=ms(pct(lock_waits, 0.99)),
                      max=ms(max(lock_waits) if lock_waits else None), drain=drain_waits,
                      idle=dict(remembers=len(idle_waits), p50=ms(pct(idle_waits, 0.5)),
                                p99=ms(pct(idle_waits, 0.99)), max=ms(max(idle_waits) if idle_waits else None))),
    lock_hold_ms=dict(idle=spread(holds(WAIT_LOG + ".idle")), drain=spread(holds(WAIT_LOG))),
    drain_binary=DRAIN_BIN,
    write_wait_ms=dict(p50=ms(pct(waits, 0.5)), p99=ms(pct(waits, 0.99)), max=ms(max(waits) if waits else None)),
)
for ph in ("idle", "drain"):
    for kind in ("remember", "recall"):
        v = walls(ph, kind, ok_only=False)
        summary[f"{ph}_{kind}"] = dict(calls=len(v), failed=sum(1 for c in calls if c[0] == ph and c[1] == kind and c[2] != 0),
                                       p50_ms=ms(pct(v, 0.5)), p99_ms=ms(pct(v, 0.99)), max_ms=ms(max(v) if v else None))
print(json.dumps(summary, indent=1))
json.dump(summary, open(W("summary.json"), "w"), indent=1)
with open(W("calls.jsonl"), "w") as f:
    for c in calls:
        f.write(json.dumps(c) + "\n")
