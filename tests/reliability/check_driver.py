#!/usr/bin/env python3
"""A shortened run of one reliability driver (../shared/tools/reliability/, issue 18) with its
"must show" column checked: part of `make test` (ctest registers one test per driver when the
drivers are there). The long runs are bench/tools/contention_runs.py and the drivers themselves
with their default sizes (bench/RESULTS.md, session 8, has the commands).

usage: check_driver.py DRIVER_DIR ENGRAM_BIN WORKDIR NAME
Prints each check and a closing "N passed, N failed" line; exits 1 when a check failed, 77 (ctest's
skip code, SKIP_RETURN_CODE) when DRIVER_DIR has no such driver.
"""
import ast
import json
import os
import shutil
import subprocess
import sys

driver_dir, engram_bin, workdir, name = sys.argv[1:5]

# The shortened runs: seconds each on 2 cores.
ARGS = {
    "kill_writes": ["--rounds", "8"],
    # --lease-wait 0: a killed run's leases must be recognised as dead at once, not after 60 s.
    "kill_process": ["--rounds", "3", "--events", "3000", "--lease-wait", "0"],
    "kill_compact": ["--rounds", "2", "--events", "600"],
    "contention": ["--duration", "8", "--backlog", "1000", "--seed", "3"],
    "sqlite_control": ["--duration", "4"],
    "forget_concurrency": ["--events", "300"],
    "bad_files": ["--events", "400"],
}


def zero(s, *keys):
    return [(f"{k} == 0", s.get(k) == 0, s.get(k)) for k in keys]


def grep_hits(block):
    """Canaries found, from forget_concurrency's summarize(): full and 8-character tails."""
    return block.get("canaries_full_found", 0) + block.get("canaries_tail_found", 0) if block else None


def export_of(db):
    """`engram export --all-namespaces` of `db` (stdout), or None when it fails."""
    p = subprocess.run([engram_bin, "--db", db, "export", "--all-namespaces"], capture_output=True, timeout=120)
    return p.stdout if p.returncode == 0 else None


def reads_as_good(row):
    """A doctor or export that succeeded on a damaged copy whose export equals the good file's."""
    if row["rc"] != 0:
        return False
    case = f"{row['variant'].replace('/', '_')}__{row['command']}{'__json' if row['json'] else ''}"
    damaged = export_of(os.path.join(workdir, "cases", case, "bad.db"))
    good = export_of(os.path.join(workdir, "good.db"))
    return damaged is not None and damaged == good


def checks_for(name, s):
    if name == "kill_writes":
        return zero(s, "lost", "dup", "integrity_err", "half_applied", "doctor_fail")
    if name == "kill_process":
        return zero(s, "doctor_fail", "rerun_fail", "rounds_with_leased_after_rerun", "leased_jobs_after_rerun",
                    "claims_changed_on_2nd_process", "dup_active_claims", "final_doctor_fail",
                    "final_jobs_not_done", "final_mismatch_vs_control")
    if name == "kill_compact":
        return zero(s, "forget_not_all_or_nothing", "second_compact_fail", "doctor_fail_final",
                    "canary_left_after_2nd_compact", "event_count_wrong")
    if name == "contention":
        return zero(s, "lost", "duplicated") + [
            ("doctor ok", s.get("doctor_ok") is True, s.get("doctor_problems")),
            # A recall of namespace "w" before the first writer created it is rightly not_found.
            ("no failed call", not [f for f in s.get("failures", []) if (f["kind"], f["error"]) != ("recall", "rc=3 not_found")],
             s.get("failures")),
            ("writes acknowledged", s.get("acked_writes", 0) > 0, s.get("acked_writes"))]
    if name == "sqlite_control":
        return [("lost == 0", s.get("lost") == 0, s.get("lost")),
                ("integrity ok", s.get("integrity") == ["ok"], s.get("integrity")),
                ("fts ok", s.get("fts") == "ok", s.get("fts"))]
    if name == "forget_concurrency":
        return [("no forgotten byte after compact", grep_hits(s.get("grep_after_second_compact")) == 0,
                 s.get("grep_after_second_compact")),
                ("kept canaries found (positive control)", s.get("kept_missing_from_export") == 0,
                 s.get("kept_missing_from_export"))] + zero(
                     s, "forgotten_in_export", "get_leaks", "forgotten_back_after_reingest") + [
                ("doctor ok", s.get("doctor_ok") is True, s.get("doctor_problems"))]
    if name == "bad_files":
        rows = s.get("rows", [])
        damaged = [r for r in rows if not r["variant"].startswith("good_copy")]
        control = [r for r in rows if r["variant"].startswith("good_copy")]
        # SQLite's own reader files (-wal, -shm) may appear beside a file opened read-only. Of engram's
        # own files only the recall hits log may, and only after a recall that met no damage (it read
        # healthy pages; docs/lifecycle.md): never a checkpointer lock or a half-made database.
        foreign = lambda r: [f for f in r["new_files"] if not f.endswith(("-wal", "-shm"))  # noqa: E731
                             and not (f.endswith("-hits") and r["command"] == "recall" and r["rc"] == 0)]
        # recall and stats read only some pages (stats checks the structure with quick_check), so
        # they may succeed beside damage they never meet; doctor and export read everything.
        # A damaged file whose every byte of data still reads the same is not damaged: bytes written
        # into a page's unallocated gap (between its cell pointers and its cells), which SQLite never
        # reads, change nothing doctor or export could see. Such a file must export exactly what the
        # undamaged one does; anything else that doctor or export accepts is a failure.
        must_fail = [r for r in damaged if r["command"] in ("doctor", "export") and not reads_as_good(r)]
        failing = [r for r in damaged if r["rc"] != 0]
        return zero(s, "crashes", "hangs") + [
            ("no write to a damaged file", not any(r["modified"] or foreign(r) for r in damaged),
             [(r["variant"], r["command"], r["new_files"]) for r in damaged if r["modified"] or foreign(r)]),
            ("doctor and export fail on every damaged file", all(r["rc"] != 0 for r in must_fail),
             [(r["variant"], r["command"], r["rc"]) for r in must_fail if r["rc"] == 0]),
            ("a failure is a clear error (a message, exit 1-4, never internal)",
             all(r["message"] and r["rc"] in (1, 2, 3, 4) and "internal" not in r["message"][:40] for r in failing),
             [(r["variant"], r["command"], r["rc"], r["message"][:80]) for r in failing
              if not r["message"] or r["rc"] not in (1, 2, 3, 4) or "internal" in r["message"][:40]]),
            ("the control works and is not modified", all(r["rc"] == 0 and not r["modified"] for r in control),
             [(r["command"], r["rc"], r["modified"]) for r in control if r["rc"] != 0 or r["modified"]])]
    raise SystemExit(f"unknown driver {name}")


def summary_of(name, stdout):
    path = os.path.join(workdir, "summary.json")
    if name == "sqlite_control":  # prints a Python dict as its last line, writes no file
        return ast.literal_eval(stdout.strip().splitlines()[-1])
    return json.load(open(path))


driver = os.path.join(driver_dir, name + ".py")
if not os.path.exists(driver):
    print(f"skipped: no {driver} (a clone without ../shared)")
    sys.exit(77)
shutil.rmtree(workdir, ignore_errors=True)
os.makedirs(workdir)
# The drivers in ../shared call `engram export` without a scope, from before B27 made "every
# namespace" an explicit --all-namespaces (a bare export is now an error). Until they pass it, they
# run through this wrapper, which adds --all-namespaces to an export that names no namespace and
# changes nothing else.
WRAPPER = """#!/usr/bin/env python3
import os, sys
args = sys.argv[1:]
if "export" in args and not any(a in ("-n", "--namespace", "--all-namespaces") or a.startswith("--namespace=")
                                for a in args):
    args.insert(args.index("export") + 1, "--all-namespaces")
os.execv(%r, [%r] + args)
"""
wrapper = os.path.abspath(workdir) + ".engram"  # beside the work folder, which drivers may clear
with open(wrapper, "w") as f:
    f.write(WRAPPER % (os.path.abspath(engram_bin), os.path.abspath(engram_bin)))
os.chmod(wrapper, 0o755)
env = dict(os.environ, ENGRAM_BIN=wrapper)
p = subprocess.run([sys.executable, driver, workdir] + ARGS[name], capture_output=True, text=True, env=env,
                   timeout=900)
if p.returncode != 0:
    print(p.stdout[-3000:], p.stderr[-3000:])
    print("0 passed, 1 failed")
    sys.exit(1)
results = checks_for(name, summary_of(name, p.stdout))
for what, ok, value in results:
    print(f"{'PASS' if ok else 'FAIL'} {name}: {what}" + ("" if ok else f" (got {json.dumps(value)[:600]})"))
failed = sum(1 for _, ok, _ in results if not ok)
print(f"{len(results) - failed} passed, {failed} failed")
if not failed:
    shutil.rmtree(workdir, ignore_errors=True)
sys.exit(1 if failed else 0)
