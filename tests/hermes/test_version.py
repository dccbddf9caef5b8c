"""The version guard (hermes_provider.md §3.5): these tests are about hermes-agent 0.19.0 exactly.
Also logs which of the behaviours marked [changed ≤0.19?] the installed wheel has; the provider
works either way."""

import importlib
import importlib.metadata
import inspect
import re


def test_hermes_agent_is_0_19_0():
    assert importlib.metadata.version("hermes-agent") == "0.19.0"


def test_log_changed_items(capsys):
    mm = importlib.import_module("agent.memory_manager")
    cc = importlib.import_module("agent.conversation_compression")
    items = {
        "prefetch timeout (_EXTERNAL_PREFETCH_TIMEOUT_S)": getattr(mm, "_EXTERNAL_PREFETCH_TIMEOUT_S", None),
        "on_pre_compress result used":
            re.search(r"=\s*agent\._memory_manager\.on_pre_compress\(", inspect.getsource(cc)) is not None,
        "shutdown drain cancels queued writes (cancel_futures=True)":
            "cancel_futures=True" in inspect.getsource(mm.MemoryManager._drain_sync_executor),
    }
    with capsys.disabled():
        for name, value in items.items():
            print(f"\nhermes-agent 0.19.0: {name}: {value}")
    # What 0.19.0 has (checked when these tests were written); a different wheel would say so here.
    assert items["prefetch timeout (_EXTERNAL_PREFETCH_TIMEOUT_S)"] == 8.0
    assert items["on_pre_compress result used"] is True
    assert items["shutdown drain cancels queued writes (cancel_futures=True)"] is False
