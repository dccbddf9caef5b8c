"""The same through Hermes's own command line: `hermes chat -q "..." -Q -t memory` (never `-z`, which
skips the exit path) with a config.yaml pointing at the scripted model. It exercises Hermes's real
exit path: flush_pending, on_session_end, shutdown_all."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from conftest import engram_cli, events_of, text_reply, tool_reply, write_hermes_config

HERMES = str(Path(sys.executable).with_name("hermes"))
SEED = "Bob keeps his bicycle in the garage behind the bakery."
QUERY = "Where does Bob keep his bicycle these days?"
ANSWER = "Bob keeps it behind the bakery."


def hermes_chat(home, query, timeout=120):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ENGRAM_", "OPENAI_"))}
    env.update(HERMES_HOME=str(home), TZ="UTC", NO_COLOR="1")
    if os.environ.get("ENGRAM_URL"):
        env["ENGRAM_URL"] = os.environ["ENGRAM_URL"]
    t0 = time.monotonic()
    r = subprocess.run([HERMES, "chat", "-q", query, "-Q", "-t", "memory"], env=env, capture_output=True,
                       text=True, timeout=timeout, stdin=subprocess.DEVNULL, cwd=str(home))
    return r, time.monotonic() - t0


def check_injected(model, seed_word):
    assert model.requests, "the model was never asked"
    user = [m for m in model.requests[0]["messages"] if m["role"] == "user"][-1]["content"]
    user = user if isinstance(user, str) else json.dumps(user)
    assert "<memory-context>" in user and seed_word in user, user
    names = {t["function"]["name"] for t in model.requests[0]["tools"]}
    assert {"engram_recall", "engram_remember", "engram_forget"} <= names


def test_hermes_chat_with_a_configured_server(hermes_home, engram_server, model, monkeypatch):
    monkeypatch.setenv("ENGRAM_URL", engram_server.url)
    engram_server.remember(SEED)
    write_hermes_config(hermes_home, model.base_url)
    model.script.extend([tool_reply("engram_remember", {"text": "Bob repainted his bicycle red."}, call_id="c9"),
                         text_reply(ANSWER)])
    r, took = hermes_chat(hermes_home, QUERY)
    assert r.returncode == 0, r.stdout + r.stderr
    assert ANSWER in r.stdout
    check_injected(model, "bakery")
    tool_msg = [m for m in model.requests[1]["messages"] if m["role"] == "tool"][0]
    assert json.loads(tool_msg["content"])["saved"] is True
    # The turn was delivered before the command exited (shutdown flushes the journal).
    turns = [(e["role"], e["content"]) for e in events_of(engram_server.db) if e["role"] in ("user", "assistant")
             and e["session_id"] != "explicit" and e.get("metadata", {}).get("source") == "hermes"]
    assert turns == [("user", QUERY), ("assistant", ANSWER)]
    sessions = {e["session_id"] for e in events_of(engram_server.db) if e.get("metadata", {}).get("source") == "hermes"}
    assert len(sessions) == 1
    assert list((hermes_home / "engram" / "journal").glob("*.jsonl")) == []


def test_hermes_chat_starts_and_stops_a_local_engram(hermes_home, model):
    """No url: the provider starts `engram serve` (the installed engram_bin) on
    $HERMES_HOME/engram/engram.db, and stops it when Hermes exits."""
    db = hermes_home / "engram" / "engram.db"
    engram_cli("--db", str(db), "remember", "--namespace", "hermes", SEED)
    write_hermes_config(hermes_home, model.base_url)
    model.script.append(text_reply(ANSWER))
    r, took = hermes_chat(hermes_home, QUERY)
    assert r.returncode == 0, r.stdout + r.stderr
    check_injected(model, "bakery")
    turns = [(e["role"], e["content"]) for e in events_of(db) if e.get("metadata", {}).get("source") == "hermes"]
    assert turns == [("user", QUERY), ("assistant", ANSWER)]
    assert not list((hermes_home / "engram").glob("serve-*.port")), "the local server was not stopped"
    assert (hermes_home / "engram" / "serve.log").exists()


def test_hermes_chat_with_engram_down_completes(hermes_home, model, monkeypatch):
    monkeypatch.setenv("ENGRAM_URL", "http://127.0.0.1:9")  # nothing listens there
    write_hermes_config(hermes_home, model.base_url)
    model.script.append(text_reply(ANSWER))
    r, took = hermes_chat(hermes_home, QUERY)
    assert r.returncode == 0, r.stdout + r.stderr
    assert ANSWER in r.stdout
    assert took < 60
    # `-Q` keeps stdout machine-readable: Hermes suppresses the warning callback's line, so the
    # user is told once in Hermes's log.
    told = (hermes_home / "logs" / "errors.log").read_text().count("engram memory is unavailable")
    assert told == 1
    assert (r.stdout + r.stderr).count("engram memory is unavailable") <= 1
    records = [json.loads(line) for f in (hermes_home / "engram" / "journal").glob("*.jsonl")
               for line in f.read_text().splitlines()]
    assert [x["user"] for x in records if x.get("kind") == "turn"] == [QUERY]


LOCAL_CHILD = """
import sys, time
from plugins.memory import load_memory_provider
p = load_memory_provider("engram")
p.initialize("orphan-1", hermes_home=sys.argv[1], platform="cli")
p._rt.local.url()
print("serving", flush=True)
time.sleep(600)
"""


def running(pid):
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def test_a_local_server_orphaned_by_kill_9_is_stopped_by_the_next_start(hermes_home):
    """A Hermes killed with -9 cannot stop its engram serve; the next process's provider does."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ENGRAM_")}
    env["HERMES_HOME"] = str(hermes_home)
    child = subprocess.Popen([sys.executable, "-c", LOCAL_CHILD, str(hermes_home)], env=env, stdout=subprocess.PIPE,
                             text=True)
    try:
        assert child.stdout.readline().strip() == "serving"
        pid_file = hermes_home / "engram" / f"serve-{child.pid}.pid"
        orphan = int(pid_file.read_text())
    finally:
        child.kill()
        child.wait()
    assert running(orphan)
    from plugins.memory import load_memory_provider

    p = load_memory_provider("engram")
    p.initialize("orphan-2", hermes_home=str(hermes_home), platform="cli")
    try:
        p._rt.local.url()  # starting this process's server reaps the orphan
        deadline = time.monotonic() + 10
        while running(orphan) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not running(orphan)
        assert not pid_file.exists()
    finally:
        p.shutdown()
    assert list((hermes_home / "engram").glob("serve-*")) == []
