"""`engram import hermes` (docs/hermes.md, "Importing a Hermes home") on a Hermes home written by the
installed hermes-agent itself: state.db by its own `hermes_state.SessionDB` (so the schema is the
real one of 0.19.0) and memories/ by its own `tools.memory_tool.MemoryStore`. The import is then
checked through the engram command line only (`sessions`, `recall`, `memory list`, `export`)."""

import hashlib
import json
import os

import pytest

from conftest import engram_cli, events_of

ROOT = "20260301_090000_a1b2c3"
CHILD = "20260301_110000_d4e5f6"
CRON = "20260302_070000_0a0b0c"
SEARCH_CALL = [{"id": "call_1", "type": "function",
                "function": {"name": "web_search", "arguments": json.dumps({"q": "Hangzhou weather"})}}]


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A Hermes home: HERMES_HOME is set before Hermes's modules resolve their paths."""
    h = tmp_path / "hermes-home"
    h.mkdir()
    monkeypatch.setenv("HERMES_HOME", str(h))
    return h


def write_sessions(home):
    """A conversation with a tool call, a multimodal turn and a rewound exchange, ended by a
    compression whose child is then compacted in place, and a cron session. Returns the ids of the
    rewound messages."""
    from hermes_state import SessionDB

    db = SessionDB(db_path=home / "state.db")
    try:
        db.create_session(ROOT, "cli", model="test-model")
        db.set_session_title(ROOT, "Trip to Hangzhou")
        db.append_message(ROOT, "user", "What's the weather in Hangzhou this week?")
        db.append_message(ROOT, "assistant", "", tool_calls=SEARCH_CALL)
        db.append_message(ROOT, "tool", "Hangzhou forecast: sunny, 24 degrees", tool_name="web_search",
                          tool_call_id="call_1")
        db.append_message(ROOT, "assistant", "Sunny and 24 degrees all week in Hangzhou.")
        db.append_message(ROOT, "user", [{"type": "text", "text": "Is this photo of West Lake?"},
                                         {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0K"}}])
        undone = [db.append_message(ROOT, "user", "Book the Lingyin temple tour for Friday")]
        undone.append(db.append_message(ROOT, "assistant", "Booked the Lingyin tour."))
        db.rewind_to_message(ROOT, undone[0])
        db.end_session(ROOT, "compression")

        db.create_session(CHILD, "cli", model="test-model", parent_session_id=ROOT)
        db.append_message(CHILD, "user", "Continue planning: what about the tea fields?")
        db.append_message(CHILD, "assistant", "The Longjing tea fields are best visited in the morning.")
        db.archive_and_compact(CHILD, [{"role": "user", "content": "Summary so far: a Hangzhou trip, tea fields next."}])

        db.create_session(CRON, "cron")
        db.append_message(CRON, "assistant", "Nightly check: two disk alerts on build-7.")
        db.end_session(CRON, "cron_complete")
        return undone
    finally:
        db.close()


def write_memories(home, user_limit=1375):
    from tools.memory_tool import MemoryStore

    store = MemoryStore(memory_char_limit=2200, user_char_limit=user_limit)
    store.load_from_disk()
    for entry in ["The repo builds with cmake --preset release", "CI runs on build-7; its disk fills up"]:
        assert store.add("memory", entry)["success"], entry
    assert store.add("user", "Name: Alice, staff engineer, prefers short answers")["success"]
    return store


def import_home(db, home, *extra, check=True):
    r = engram_cli("--db", str(db), "--json", "import", "hermes", "--home", str(home), *extra, check=check)
    return r, json.loads(r.stdout)


def recall_texts(db, query):
    r = engram_cli("--db", str(db), "--json", "recall", query, "-n", "hermes", "--limit", "5")
    return [item["text"] for item in json.loads(r.stdout)["items"]]


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_imports_a_home_written_by_hermes_itself_and_a_second_import_adds_nothing(home, tmp_path):
    write_sessions(home)
    write_memories(home)
    state = home / "state.db"
    before = digest(state)
    db = tmp_path / "engram.db"

    _, report = import_home(db, home)
    assert report["namespace"] == "hermes"
    assert report["state_db"]["path"] == str(state)
    assert report["state_db"]["schema_version"] >= 21
    assert report["state_db"]["missing_columns"] == []
    assert report["sessions"] == 3
    # root: 5 imported (user, tool call, tool, assistant, multimodal) + 2 rewound; child: 2
    # compacted + 1 live; cron: 1.
    assert report["events"] == {"imported": 9, "already_present": 0, "forgotten": 0}
    assert report["skipped"] == {"rewound": 2, "empty": 0, "roles": {}}
    assert report["refused"] == []
    assert [(c["target"], c["added"], c["refused"]) for c in report["curated"]] == [("memory", 2, []), ("user", 1, [])]
    # Read-only: state.db is unchanged and nothing was left beside it.
    assert digest(state) == before
    assert not os.path.exists(str(state) + "-wal") and not os.path.exists(str(state) + "-shm")

    sessions = {s["session_id"]: s for s in
                json.loads(engram_cli("--db", str(db), "--json", "sessions", "-n", "hermes").stdout)["items"]}
    assert set(sessions) == {ROOT, CHILD, CRON, "curated"}, "the curated adds are recorded in session curated"
    assert sessions[ROOT]["title"] == "Trip to Hangzhou"
    assert sessions[ROOT]["source"] == "cli" and sessions[ROOT]["kind"] == "interactive"
    assert sessions[CHILD]["parent_session_id"] == ROOT
    assert sessions[CRON]["kind"] == "cron" and sessions[CRON]["source"] == "cron"

    root = events_of(db, session_id=ROOT)
    assert [(e["role"], e["content"]) for e in root] == [
        ("user", "What's the weather in Hangzhou this week?"),
        ("assistant", "tool calls: web_search"),
        ("tool", "Hangzhou forecast: sunny, 24 degrees"),
        ("assistant", "Sunny and 24 degrees all week in Hangzhou."),
        ("user", "Is this photo of West Lake?"),
    ]
    assert root[1]["metadata"]["hermes"]["tool_calls"] == SEARCH_CALL
    assert root[2]["tool_name"] == "web_search" and root[2]["tool_call_id"] == "call_1"
    assert root[4]["metadata"]["hermes"]["non_text_parts"] == ["image_url"]
    child = events_of(db, session_id=CHILD)
    assert [e["metadata"]["hermes"].get("compacted", False) for e in child] == [True, True, False]

    assert "Hangzhou forecast: sunny, 24 degrees" in recall_texts(db, "Hangzhou forecast")
    assert "tool calls: web_search" in recall_texts(db, "web_search")
    assert "The Longjing tea fields are best visited in the morning." in recall_texts(db, "Longjing tea fields")
    assert not any("Lingyin" in t for t in recall_texts(db, "Lingyin temple tour")), "rewound rows are not history"

    curated = json.loads(engram_cli("--db", str(db), "--json", "memory", "list", "-n", "hermes").stdout)
    assert curated["memory"]["entries"] == ["The repo builds with cmake --preset release",
                                            "CI runs on build-7; its disk fills up"]
    assert curated["user"]["entries"] == ["Name: Alice, staff engineer, prefers short answers"]

    _, again = import_home(db, home)
    assert again["events"] == {"imported": 0, "already_present": 9, "forgotten": 0}
    assert [(c["added"], c["already_present"]) for c in again["curated"]] == [(0, 2), (0, 1)]
    assert len(events_of(db)) == 9 + 3, "9 messages and the 3 curated entries' events, once"


def test_a_grown_archive_imports_only_what_is_new(home, tmp_path):
    write_sessions(home)
    db = tmp_path / "engram.db"
    import_home(db, home)
    from hermes_state import SessionDB

    sdb = SessionDB(db_path=home / "state.db")
    try:
        sdb.append_message(CHILD, "user", "Add a boat ride on West Lake")
        sdb.create_session("20260303_080000_ffffff", "telegram")
        sdb.append_message("20260303_080000_ffffff", "user", "Remind me about the 8:05 train")
    finally:
        sdb.close()
    _, report = import_home(db, home)
    assert report["events"] == {"imported": 2, "already_present": 9, "forgotten": 0}
    assert report["curated"] == []
    assert report["notes"] == [f"no {home / 'memories'}: no curated memory to import"]


def test_refused_curated_entries_are_reported_and_the_rest_imported(home, tmp_path):
    """A Hermes configured with a larger user budget than engram's 1,375 characters."""
    store = write_memories(home, user_limit=4000)
    long_entry = "Prefers itineraries with " + ", ".join(f"stop {i} near the lake" for i in range(70))
    assert store.add("user", long_entry)["success"]
    db = tmp_path / "engram.db"
    r, report = import_home(db, home, "--state-db", str(home / "missing.db"), check=False)
    assert r.returncode == 3 and "no Hermes state.db" in r.stderr, r.stderr

    r = engram_cli("--db", str(db), "--json", "import", "hermes", "--memories", str(home / "memories"), check=False)
    assert r.returncode == 2, r.stderr  # something was refused: as `ingest --keep-going` with bad lines
    report = json.loads(r.stdout)
    assert report["state_db"] is None
    user = report["curated"][1]
    assert (user["target"], user["added"], len(user["refused"])) == ("user", 1, 1)
    assert "would exceed the limit" in user["refused"][0]["reason"]
    assert report["curated"][0]["added"] == 2


def test_a_file_that_is_not_a_state_db_is_a_clear_error(home, tmp_path):
    (home / "state.db").write_text("not a database\n" * 20)
    r = engram_cli("--db", str(tmp_path / "engram.db"), "import", "hermes", "--home", str(home), check=False)
    assert r.returncode == 2
    assert "is not an SQLite database, so not a Hermes state.db" in r.stderr
