"""Real `AIAgent` turns (hermes-agent 0.19.0) with the engram provider, against a scripted model on
loopback and a real `engram serve` (hermes_provider.md §3.3):

* the memory recalled for the turn is in the request the model received, and not in the transcript;
* the engram_* tools are offered; a scripted tool call reaches the provider and its JSON goes back;
* exactly one turn per completed turn reaches engram, with the session id, after two turns and
  after an interrupted one (which is not synced);
* with engram stopped or hung, turns still complete in bounded time and the user is told once.
"""

import json
import threading
import time

import pytest

from conftest import BlackHole, last_user, make_agent, text, text_reply, tool_reply, turns_of, wait_for

SEED = "Alice uses the Helix editor for all her Rust projects."
Q1 = "Which editor does Alice use for her Rust projects?"
A1 = "Alice uses Helix."
Q2 = "Does she use the same editor for Go projects as well?"
A2 = "Probably Helix as well."
Q3 = "Tell me a long story about editors while I wait."
Q4 = "Summarise what we know about Alice and her editors."
A4 = "Alice likes Helix."


@pytest.fixture
def live(hermes_home, engram_server, monkeypatch):
    monkeypatch.setenv("ENGRAM_URL", engram_server.url)
    engram_server.remember(SEED)
    return engram_server


def test_turns_recall_tools_and_exactly_once_sync(live, model):
    model.script.extend([tool_reply("engram_recall", {"query": "Alice editor Rust"}, call_id="call_1"),
                         text_reply(A1)])
    agent = make_agent(model, "e2e-s1")
    mm = agent._memory_manager
    assert mm is not None, "the provider was not activated (is_available or initialize failed)"
    provider = mm.get_provider("engram")
    assert type(provider).__name__ == "EngramMemoryProvider"
    calls = []
    real_handle = provider.handle_tool_call

    def spy(name, args, **kw):
        result = real_handle(name, args, **kw)
        calls.append((name, args, result))
        return result

    provider.handle_tool_call = spy

    res = agent.run_conversation(Q1, conversation_history=[], task_id="t1")
    assert res["final_response"] == A1
    assert mm.flush_pending(timeout=10)
    r0, r1 = model.requests[:2]

    # (a) recall injected at API time only
    injected = text(last_user(r0))
    assert "<memory-context>" in injected and "Helix" in injected
    assert "Long-term memory (engram)" in injected
    stored_user = [m for m in res["messages"] if m["role"] == "user"][0]
    assert "<memory-context>" not in text(stored_user["content"]) and "Helix" not in text(stored_user["content"])
    assert provider.system_prompt_block().splitlines()[0] in r0["messages"][0]["content"]

    # (c) the provider's tools were offered next to the built-in memory tool
    names = {t["function"]["name"] for t in r0["tools"]}
    assert {"engram_recall", "engram_remember", "engram_forget", "memory"} <= names

    # (d) the scripted tool call reached the provider and its JSON went back to the model
    assert [(c[0], c[1]) for c in calls] == [("engram_recall", {"query": "Alice editor Rust"})]
    tool_msgs = [m for m in r1["messages"] if m["role"] == "tool" and m.get("tool_call_id") == "call_1"]
    assert len(tool_msgs) == 1
    result = json.loads(tool_msgs[0]["content"])
    assert result == json.loads(calls[0][2])
    assert any("Helix" in (i["text"] or "") for i in result["items"])

    # (b) exactly one turn reached engram, in session e2e-s1
    db = live.db
    assert wait_for(lambda: turns_of(db, "e2e-s1") == [("user", Q1), ("assistant", A1)])

    # turn 2: still exactly one more
    model.script.append(text_reply(A2))
    res2 = agent.run_conversation(Q2, conversation_history=res["messages"], task_id="t1")
    assert res2["final_response"] == A2
    assert mm.flush_pending(timeout=10)
    want = [("user", Q1), ("assistant", A1), ("user", Q2), ("assistant", A2)]
    assert wait_for(lambda: turns_of(db, "e2e-s1") == want)
    # Turn 2's recall: the long-term fact again, but not turn 1, which the model has in its context.
    injected2 = text(last_user(model.requests[2]))
    assert "Helix" in injected2 and Q1 not in injected2, injected2

    # turn 3 is interrupted while the model is answering: nothing of it is synced
    model.script.append(text_reply("A story that never arrives.", delay=4))
    seen = len(model.requests)

    def interrupt_when_asked():
        wait_for(lambda: len(model.requests) > seen, timeout=10, interval=0.01)
        time.sleep(0.3)
        agent.interrupt("stop")

    t = threading.Thread(target=interrupt_when_asked)
    t.start()
    res3 = agent.run_conversation(Q3, conversation_history=res2["messages"], task_id="t1")
    t.join()
    assert res3.get("interrupted") is True
    assert mm.flush_pending(timeout=10)

    # turn 4 completes: exactly one more turn, the interrupted one is absent
    model.script.append(text_reply(A4))
    res4 = agent.run_conversation(Q4, conversation_history=res2["messages"], task_id="t1")
    assert res4["final_response"] == A4
    assert mm.flush_pending(timeout=10)
    want += [("user", Q4), ("assistant", A4)]
    assert wait_for(lambda: turns_of(db, "e2e-s1") == want)
    time.sleep(0.5)
    assert turns_of(db, "e2e-s1") == want

    # Exit: on_session_end + shutdown; the journal is empty and the file is gone.
    agent.shutdown_memory_provider(res4["messages"])
    journal = list((live.work.parent / "hermes-home" / "engram" / "journal").glob("*.jsonl"))
    assert journal == []


def test_no_provider_tools_when_the_memory_toolset_is_off(live, model):
    agent = make_agent(model, "e2e-notools", enabled_toolsets=["todo"])
    assert agent._memory_manager is not None
    model.script.append(text_reply("fine"))
    agent.run_conversation(Q1, conversation_history=[], task_id="t2")
    names = {t["function"]["name"] for t in model.requests[0].get("tools", [])}
    assert not any(n.startswith("engram_") for n in names)
    agent.shutdown_memory_provider([])


@pytest.mark.parametrize("failure", ["stopped", "hung"])
def test_turns_complete_with_engram_down(live, model, monkeypatch, failure):
    hole = None
    if failure == "stopped":
        live.stop()
    else:
        hole = BlackHole()
        monkeypatch.setenv("ENGRAM_URL", f"http://127.0.0.1:{hole.port}")
    warnings = []
    agent = make_agent(model, f"e2e-down-{failure}",
                       status_callback=lambda kind, message: warnings.append((kind, message)))
    mm = agent._memory_manager
    assert mm is not None
    provider = mm.get_provider("engram")
    took = {"prefetch": [], "handle_tool_call": []}
    for hook in took:
        real = getattr(provider, hook)

        def timed(*a, _real=real, _hook=hook, **kw):
            t0 = time.monotonic()
            try:
                return _real(*a, **kw)
            finally:
                took[_hook].append(time.monotonic() - t0)

        setattr(provider, hook, timed)
    try:
        model.script.extend([tool_reply("engram_recall", {"query": "Alice editor"}, call_id="call_d"),
                             text_reply("I could not reach memory.")])
        res = agent.run_conversation(Q1, conversation_history=[], task_id="t3")
        assert res["final_response"] == "I could not reach memory."
        # Bounded, not hanging: prefetch gives up at its 1.5 s budget (Hermes would abandon it at
        # 8 s), the tool call at its 5 s timeout. The bounds leave room for a loaded machine.
        assert len(took["prefetch"]) == 1 and took["prefetch"][0] < 4, took
        assert len(took["handle_tool_call"]) == 1 and took["handle_tool_call"][0] < 9, took
        tool_msg = [m for m in model.requests[1]["messages"] if m["role"] == "tool"][0]
        assert "error" in json.loads(tool_msg["content"])
        assert "<memory-context>" not in text(last_user(model.requests[0]))

        model.script.append(text_reply("Still here."))
        t0 = time.monotonic()
        res2 = agent.run_conversation(Q2, conversation_history=res["messages"], task_id="t3")
        assert res2["final_response"] == "Still here."
        assert time.monotonic() - t0 < 10
        assert len(took["prefetch"]) == 2 and took["prefetch"][1] < 4, took
        assert mm.flush_pending(timeout=10)
        told = [m for k, m in warnings if "engram memory is unavailable" in m]
        assert len(told) == 1, warnings

        # The turns wait in the journal; shutdown is bounded and leaves them there.
        t0 = time.monotonic()
        agent.shutdown_memory_provider(res2["messages"])
        assert time.monotonic() - t0 < 10
        journal = live.work.parent / "hermes-home" / "engram" / "journal"
        pending = [json.loads(line) for f in journal.glob("*.jsonl") for line in f.read_text().splitlines()]
        assert [r["user"] for r in pending if r.get("kind") == "turn"] == [Q1, Q2]
    finally:
        if hole:
            hole.close()


def test_compression_keeps_long_term_facts_and_lineage(live, model, tmp_path):
    """A real context compression (as /compress runs it) with a SessionDB and rotation: the facts of
    on_pre_compress reach the summary prompt (without the turns being compressed, which the summary
    has anyway); on_session_end fires inline; the continuation's turns carry the old session as parent."""
    from hermes_state import SessionDB

    # 0.19's default compacts in place (same session id); the legacy rotation forks a continuation.
    with open(live.work.parent / "hermes-home" / "config.yaml", "a") as f:
        f.write("compression:\n  in_place: false\n")
    agent = make_agent(model, "cmp-1", session_db=SessionDB(db_path=tmp_path / "state.db"))
    provider = agent._memory_manager.get_provider("engram")
    hooks = []
    for hook in ("on_pre_compress", "on_session_end", "on_session_switch"):
        real = getattr(provider, hook)

        def spy(*a, _real=real, _hook=hook, **kw):
            out = _real(*a, **kw)
            hooks.append((_hook, a, kw, out))
            return out

        setattr(provider, hook, spy)
    history = []
    for i in range(4):
        model.script.append(text_reply(f"Answer {i}: the Rust work goes on. " + "details " * 40))
        res = agent.run_conversation(f"Question {i}: how is the Rust work on Alice's crate going? " + "context " * 40,
                                     conversation_history=history, task_id="c")
        history = res["messages"]
    compressed, _ = agent._compress_context(history, agent._cached_system_prompt, force=True)
    assert len(compressed) < len(history)
    new_id = agent.session_id
    assert new_id != "cmp-1"

    pre = [h for h in hooks if h[0] == "on_pre_compress"]
    assert len(pre) == 1
    facts = pre[0][3]
    assert facts.startswith("Facts and constraints from long-term memory (engram)")
    assert "Helix" in facts and "Answer 0" not in facts and "Question 0" not in facts
    summary_prompt = json.dumps(model.aux_requests)
    assert "Helix" in summary_prompt  # Hermes 0.19 put the text into the summary request
    assert [h[0] for h in hooks].count("on_session_end") >= 1
    switch = [h for h in hooks if h[0] == "on_session_switch"]
    assert switch[-1][1] == (new_id,) and switch[-1][2]["parent_session_id"] == "cmp-1"

    model.script.append(text_reply("Continuing."))
    res = agent.run_conversation("Question 4: and the tests of Alice's crate?", conversation_history=compressed,
                                 task_id="c")
    agent.shutdown_memory_provider(res["messages"])
    status, body = live.call("GET", live.ns("/sessions"))
    parents = {s["session_id"]: s["parent_session_id"] for s in body["items"]}
    assert parents[new_id] == "cmp-1"
    assert [c for r, c in turns_of(live.db, new_id) if r == "user"] == ["Question 4: and the tests of Alice's crate?"]
    assert len(turns_of(live.db, "cmp-1")) == 8


def test_tools_remember_recall_forget_and_bad_arguments(live):
    from plugins.memory import load_memory_provider

    p = load_memory_provider("engram")
    p.initialize("tools-1", hermes_home=str(live.work.parent / "hermes-home"), platform="cli")
    call = lambda name, args: json.loads(p.handle_tool_call(name, args))  # noqa: E731

    saved = call("engram_remember", {"text": "My locker code is kept in the blue notebook."})
    assert saved["saved"] is True and saved["id"]
    found = call("engram_recall", {"query": "locker code notebook", "limit": "3"})  # models send strings
    assert found["count"] >= 1 and any("blue notebook" in i["text"] for i in found["items"])

    preview = call("engram_forget", {"query": "blue notebook locker"})
    assert preview["preview"] is True and preview["events"] >= 1 and "confirm=true" in preview["note"]
    assert any("blue notebook" in i["text"] for i in call("engram_recall", {"query": "blue notebook"})["items"])
    done = call("engram_forget", {"query": "blue notebook locker", "confirm": True, "reason": "user asked"})
    assert done["preview"] is False and done["events"] >= 1
    assert not any("blue notebook" in (i["text"] or "") for i in call("engram_recall", {"query": "blue notebook"})["items"])

    # Bad arguments and unknown tools are JSON errors, never exceptions into Hermes.
    for name, args in [("engram_recall", {}), ("engram_recall", {"query": 5}), ("engram_remember", {"text": "  "}),
                       ("engram_forget", {}), ("engram_forget", {"ids": [1]}), ("engram_recall", "not json"),
                       ("engram_nope", {"query": "x"}), ("engram_recall", {"query": "x", "limit": "many"})]:
        out = call(name, args)
        assert set(out) >= {"error"}, (name, args, out)
    p.shutdown()
