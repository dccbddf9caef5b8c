"""Text handed to Hermes: recalled memories and the user's constraints as plain lines (no
`<memory-context>` fences: Hermes adds its own and warns when a provider's text has them), the text of
the model's context, and the idempotency key of a turn."""

from __future__ import annotations

import hashlib
import re
from typing import AbstractSet, Any, Dict, Iterable, List

_FENCE = re.compile(r"</?\s*memory-context\s*>", re.IGNORECASE)
ITEM_CHARS = 600
TOTAL_CHARS = 4000


def normalize(text: str) -> str:
    return " ".join(str(text).split())


def item_lines(items: Iterable[Dict[str, Any]], limit: int, skip: AbstractSet[str] = frozenset(),
               total_chars: int = TOTAL_CHARS) -> List[str]:
    """One "- [YYYY-MM-DD] text" line per distinct recalled item (the day it was said, UTC) whose text
    is not in `skip`, at most `limit`, each at most ITEM_CHARS, all together at most `total_chars`."""
    lines: List[str] = []
    seen = set()
    total = 0
    for item in items:
        text = normalize(_FENCE.sub("", str(item.get("text") or "")))
        if not text or text in seen or text in skip:
            continue
        seen.add(text)
        if len(text) > ITEM_CHARS:
            text = text[:ITEM_CHARS - 1] + "…"
        if total + len(text) > total_chars:
            break
        total += len(text)
        day = str(item.get("occurred_at") or item.get("valid_from") or "")[:10]
        lines.append(f"- [{day}] {text}" if len(day) == 10 else f"- {text}")
        if len(lines) >= limit:
            break
    return lines


def recall_block(items: Iterable[Dict[str, Any]], limit: int, header: str,
                 skip: AbstractSet[str] = frozenset(), total_chars: int = TOTAL_CHARS) -> str:
    """`header` and the item lines, or "" when no item has text. Items whose (normalized) text is in
    `skip` — messages the model already has in its context — are left out."""
    lines = item_lines(items, limit, skip, total_chars)
    return "\n".join([header, *lines]) if lines else ""


def constraint_block(texts: List[str], header: str, max_chars: int) -> str:
    """`header` and one "- text" line per constraint, word for word (never cut: a constraint that does
    not fit is left out whole, the oldest first, and a last line says how many), or "" for none."""
    lines = [f"- {normalize(_FENCE.sub('', t))}" for t in texts if normalize(t)]
    if not lines:
        return ""
    kept, size = [], len(header)
    for line in reversed(lines):  # the newest first: the oldest are left out when they do not fit
        if size + 1 + len(line) > max_chars - 80:
            break
        kept.append(line)
        size += 1 + len(line)
    kept.reverse()
    if len(kept) < len(lines):
        kept.append(f"({len(lines) - len(kept)} older constraint(s) not shown: over the size limit)")
    return "\n".join([header, *kept])


def context_text(messages: Iterable[Any], max_bytes: int) -> str:
    """The text of the user and assistant messages of a conversation (a compaction's summary is one of
    them), one per line, at most `max_bytes` of UTF-8: the head and the tail when longer."""
    text = "\n".join(message_text(m.get("content")) for m in messages
                     if isinstance(m, dict) and m.get("role") in ("user", "assistant"))
    data = text.encode("utf-8")
    if len(data) <= max_bytes:
        return text
    half = max_bytes // 2 - 8
    return (data[:half].decode("utf-8", "ignore") + "\n…\n" + data[-half:].decode("utf-8", "ignore"))


def message_text(content: Any) -> str:
    """The text of an OpenAI-style message content: a string, or the text parts of a list."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") in ("text", "input_text")]
        return "\n".join(t for t in parts if isinstance(t, str))
    return ""


def turn_key(session_id: str, turn: int, user: str, assistant: str) -> str:
    """The idempotency key of one turn: session, turn index and a hash of its text (a resumed session
    counts its turns again, so the index alone could name two different turns). At most 120 chars."""
    digest = hashlib.sha256(f"{user}\x00{assistant}".encode("utf-8")).hexdigest()[:16]
    sid = session_id if len(session_id) <= 80 else "h" + hashlib.sha256(session_id.encode("utf-8")).hexdigest()[:32]
    return f"hermes:{sid}:{turn}:{digest}"
