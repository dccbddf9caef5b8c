"""The user's constraints across a real context compaction (hermes-agent 0.19.0, `_compress_context`
as /compress and the preflight run it; docs/hermes.md, docs/working.md):

* the summariser's request holds every current constraint word for word, from on_pre_compress,
  before the recalled facts; a constraint the user took back is not repeated;
* the turns that said them were still in the provider's journal when the compaction began: they
  reach engram first, within on_pre_compress's bound;
* after the compaction, the turn's recalled block repeats the constraints: every one on the first
  turn (the provider has not seen the compacted context yet), then only those the summary lost;
* with engram stopped or hung, the compaction completes and on_pre_compress returns "" in bounded time.
"""

import json
import re
import threading
import time

import pytest

from conftest import BlackHole, last_user, make_agent, text, text_reply, turns_of, wait_for

VISA = "Never use my Visa card for any payment."
FLIGHTS = "Do not book flights that leave before 9am."
INSURANCE = "Don't add travel insurance to the booking."
PAD = " I will send the remaining details about dates and travellers later today."
TURNS = [
    "I am planning a trip to Lisbon for the conference in May, please help me organise it." + PAD,
    "First the hotel: something near the venue would be great." + PAD,
    "About payments for the hotel and everything else. " + VISA + PAD,
    "For the flights from Berlin to Lisbon. " + FLIGHTS + PAD,
    INSURANCE + " It is a waste of money for a short trip." + PAD,
    # Hermes quotes the last compacted user turn in the summary (_ground_historical_task_snapshot):
    # this one says no constraint, so what the summary keeps is the scripted summariser's choice.
    "I will also need a taxi from the airport to the hotel on arrival." + PAD,
    "Actually, it's fine to add travel insurance to the booking now, my company pays for it." + PAD,
    "What is the weather usually like in Lisbon in May?" + PAD,
    "Which neighbourhood is best for dinner near the venue?" + PAD,
]
# What the scripted summariser writes: the first constraint word for word, the second paraphrased.
# Hermes replaces the "## Historical Task Snapshot" section with a quote of the last compacted user turn
# (ContextCompressor._ground_historical_task_snapshot), so the summary's facts go in a section of their own.
SUMMARY = ("## Historical Task Snapshot\nThe user is planning a trip to Lisbon in May.\n\n"
           "## Key Decisions\n" + VISA + " The user prefers flights later in the day. Travel insurance may be added.")
PINNED_HEADER = "Constraints the user set in this conversation (engram)."
LOST_HEADER = "Constraints the user set earlier in this conversation, which the compacted context no longer states"


def summariser(request):
    body = json.dumps(request)
    return SUMMARY if "summarization agent" in body else "ok"


def provider_context(request):
    """The text Hermes put into a summary request as provider context (a JSON string), or None."""
    for m in request.get("messages", []):
        found = re.search(r"<memory-provider-context>\n(.*?)\n</memory-provider-context>", text(m.get("content")), re.S)
        if found:
            return json.loads(found.group(1))
    return None


def memory_block(request):
    """The <memory-context> block Hermes appended to the request's last user message ("" when none)."""
    found = re.search(r"<memory-context>(.*?)</memory-context>", text(last_user(request)), re.S)
    return found.group(1) if found else ""


def section(block, header):
    """The paragraph of `block` that begins with `header` ("" when none): the constraints, not the
    recalled memories after them (which may quote any earlier turn)."""
    return next((p for p in block.strip().split("\n\n") if p.startswith(header)), "")


def spy(provider, hook, calls):
    real = getattr(provider, hook)

    def wrapper(*a, **kw):
        t0 = time.monotonic()
        out = real(*a, **kw)
        calls.append((hook, a, kw, out, time.monotonic() - t0))
        return out

    setattr(provider, hook, wrapper)


def run_turns(agent, model, turns, history, task):
    for i, turn in enumerate(turns):
        model.script.append(text_reply(f"Noted ({i}). I will take care of it." + PAD))
        history = agent.run_conversation(turn, conversation_history=history, task_id=task)["messages"]
    return history


def use_rotation(home, rotate):
    if rotate:  # 0.19's default compacts in place; the legacy rotation forks a continuation
        with open(home / "config.yaml", "a") as f:
            f.write("compression:\n  in_place: false\n")


@pytest.mark.parametrize("rotate", [False, True], ids=["in_place", "rotation"])
def test_constraints_reach_the_summary_and_come_back_after_it(hermes_home, engram_server, model, monkeypatch,
                                                              tmp_path, rotate):
    from hermes_state import SessionDB

    monkeypatch.setenv("ENGRAM_URL", engram_server.url)
    use_rotation(hermes_home, rotate)
    model.aux_reply = summariser
    sid = f"cons-{'rot' if rotate else 'inp'}"
    agent = make_agent(model, sid, session_db=SessionDB(db_path=tmp_path / "state.db"))
    provider = agent._memory_manager.get_provider("engram")
    calls = []
    for hook in ("on_pre_compress", "on_session_switch"):
        spy(provider, hook, calls)

    # The journal's sender is held until the compaction begins: every turn is still pending then.
    gate = threading.Event()
    sender = provider._rt.sender
    real_send = sender._send
    sender._send = lambda record: (gate.wait(30), real_send(record))[1]
    real_pre = provider.on_pre_compress

    def open_gate_then(messages):
        gate.set()
        return real_pre(messages)

    provider.on_pre_compress = open_gate_then

    history = run_turns(agent, model, TURNS, [], "cons")
    assert turns_of(engram_server.db, sid) == []  # nothing has reached engram yet
    compressed, _ = agent._compress_context(history, agent._cached_system_prompt, force=True)
    assert len(compressed) < len(history)
    if rotate:
        assert agent.session_id != sid
    else:
        assert agent.session_id == sid

    # on_pre_compress: the constraints first, word for word, within its bound; not the retracted one.
    (_, _, _, out, took), = [c for c in calls if c[0] == "on_pre_compress"]
    assert took < 4, took
    assert out.startswith(PINNED_HEADER), out
    pinned = section(out, PINNED_HEADER)
    assert f"- {VISA}" in pinned.splitlines() and f"- {FLIGHTS}" in pinned.splitlines(), out
    assert "insurance" not in pinned.lower(), out
    assert len(turns_of(engram_server.db, sid)) == 2 * len(TURNS)  # the pending turns went first

    # The summariser's request holds them verbatim (Hermes 0.19 passes the text as provider context).
    summary_requests = [r for r in model.aux_requests if provider_context(r) is not None]
    assert len(summary_requests) == 1
    context = provider_context(summary_requests[0])
    assert VISA in context and FLIGHTS in context and INSURANCE not in context, context
    # The scripted summary kept the first and lost the second; the turns that said them were compacted.
    flat = json.dumps(compressed)
    assert VISA in flat and FLIGHTS not in flat, "the test needs FLIGHTS compacted away"

    # First turn after: the provider has not seen the compacted context, so every constraint comes back.
    seen = len(model.requests)
    history = run_turns(agent, model, ["Please book the hotel near the venue for the three nights."],
                        compressed, "cons")
    block = memory_block(model.requests[seen])
    lost = section(block, LOST_HEADER)
    assert f"- {VISA}" in lost.splitlines() and f"- {FLIGHTS}" in lost.splitlines(), block
    assert "insurance" not in lost.lower(), block

    # From then on, only what the compacted context lost: FLIGHTS (VISA is in the summary verbatim).
    # Hermes runs sync_turn on a background worker: the next turn waits until the provider has seen
    # the compacted context (until then it repeats every constraint, as on the first turn).
    wait_for(lambda: provider._context_after is not None, timeout=30)
    seen = len(model.requests)
    history = run_turns(agent, model, ["Now please look for the flights from Berlin to Lisbon."], history, "cons")
    block = memory_block(model.requests[seen])
    lost = section(block, LOST_HEADER)
    assert lost.splitlines()[1:] == [f"- {FLIGHTS}"], block
    agent.shutdown_memory_provider(history)


@pytest.mark.parametrize("failure", ["stopped", "hung"])
def test_compaction_completes_with_engram_down(hermes_home, engram_server, model, monkeypatch, tmp_path, failure):
    from hermes_state import SessionDB

    hole = None
    monkeypatch.setenv("ENGRAM_URL", engram_server.url)
    if failure == "stopped":
        engram_server.stop()
    else:
        hole = BlackHole()
        monkeypatch.setenv("ENGRAM_URL", f"http://127.0.0.1:{hole.port}")
    try:
        model.aux_reply = summariser
        agent = make_agent(model, f"cons-down-{failure}", session_db=SessionDB(db_path=tmp_path / "state.db"))
        provider = agent._memory_manager.get_provider("engram")
        calls = []
        spy(provider, "on_pre_compress", calls)
        history = run_turns(agent, model, TURNS[:6], [], "down")
        t0 = time.monotonic()
        compressed, _ = agent._compress_context(history, agent._cached_system_prompt, force=True)
        assert time.monotonic() - t0 < 10
        assert len(compressed) < len(history)
        (_, _, _, out, took), = calls
        assert out == "" and took < 5, (out, took)  # bounded at 3 s, with room for a loaded machine
        summary_requests = [r for r in model.aux_requests if "summarization agent" in json.dumps(r)]
        assert len(summary_requests) == 1 and provider_context(summary_requests[0]) is None

        # The next turn completes too (its block is "" within the prefetch budget).
        t0 = time.monotonic()
        model.script.append(text_reply("Still here."))
        res = agent.run_conversation("Please book the hotel near the venue.", conversation_history=compressed,
                                     task_id="down")
        assert res["final_response"] == "Still here." and time.monotonic() - t0 < 10
        agent.shutdown_memory_provider(res["messages"])
    finally:
        if hole:
            hole.close()
