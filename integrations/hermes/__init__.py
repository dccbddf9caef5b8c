"""engram as a Hermes Agent memory provider (a `MemoryProvider` plugin for hermes-agent 0.19).

Installed into `$HERMES_HOME/plugins/engram/` by `engram hermes install`, selected with
`hermes config set memory.provider engram`. It talks to `engram serve` over HTTP (standard library
only), or starts a local one on first use when no url is configured. docs/hermes.md describes the
configuration, every hook and the behaviour when engram is down.

Hooks:
  on_turn_start   starts the recall for this turn's message (and, after a compaction, the check of
                  the user's constraints against the compacted context)
  prefetch        returns the constraints the compacted context lost, then that recall (plain text),
                  within the budget (1.5 s); "" when nothing is ready
  sync_turn       appends the turn to the durable journal; a background thread sends it to engram
                  with an idempotency key per (session, turn), so it is stored exactly once
  on_session_end  a watermark: gives the journal a short flush, once per new turn (it fires on
                  every compression too)
  on_session_switch  the new session's events carry the old one as parent_session_id
  on_pre_compress returns the session's constraints word for word (from engram's working memory,
                  after sending the turns still in the journal) and what long-term memory says
                  about the messages being compressed, for the summary to keep
  on_memory_write mirrors add/replace/remove of Hermes's built-in memory to engram's curated store
  tools           engram_recall, engram_remember, engram_forget (a preview unless confirm)
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
import time
from collections import OrderedDict
from typing import Any, Callable, Dict, List, Optional, Tuple

from agent.memory_provider import MemoryProvider

from .core import render
from .core import runtime as _runtime
from .core.client import EngramError
from .core.config import Config, ConfigError, config_schema, load_config, save_config as _save_config
from .core.local_server import find_engram_binary

logger = logging.getLogger("engram.hermes")

TOOL_TIMEOUT_S = 5.0
PRE_COMPRESS_TIMEOUT_S = 3.0
PRE_COMPRESS_FLUSH_S = 1.5  # of PRE_COMPRESS_TIMEOUT_S: the turns still in the journal go first
SESSION_END_FLUSH_S = 1.0
SHUTDOWN_FLUSH_S = 2.0
RECALL_BUDGET_TOKENS = 800

SYSTEM_PROMPT_BLOCK = (
    "# Long-term memory (engram)\n"
    "Memories from earlier sessions that match the user's message may be recalled and appended to it "
    "as a recalled-memory block: treat them as background facts, which can be out of date. When the "
    "engram_recall, engram_remember and engram_forget tools are offered: engram_recall searches "
    "long-term memory, engram_remember keeps a durable fact the user wants remembered, and "
    "engram_forget deletes memories (it only previews what it would delete until called with "
    "confirm=true)."
)

RECALL_HEADER = "Long-term memory (engram), most relevant first:"
PRE_COMPRESS_HEADER = "Facts and constraints from long-term memory (engram) that the summary must keep:"
PRE_COMPRESS_CONSTRAINTS_HEADER = (
    "Constraints the user set in this conversation (engram). Every one still applies: the summary must "
    "keep each line below word for word, exactly as written (do not paraphrase, merge or drop any):")
LOST_CONSTRAINTS_HEADER = (
    "Constraints the user set earlier in this conversation, which the compacted context no longer states "
    "word for word (engram). They still apply:")
# Hermes 0.19 cuts a pre-compress text over 6,000 characters in the middle (sanitize_memory_context:
# the first 4,000 and the last 1,500 are kept): the constraints come first and stay within the head.
PRE_COMPRESS_MAX_CHARS = 6000
CONSTRAINTS_MAX_CHARS = 3800
CONTEXT_MAX_BYTES = 990_000  # /working takes a summary of at most 1,000,000 bytes

TOOL_SCHEMAS: List[Dict[str, Any]] = [
    {
        "name": "engram_recall",
        "description": "Search engram's long-term memory (earlier sessions, remembered facts) for what "
                       "answers a question. Returns the matching memories, most relevant first.",
        "parameters": {
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "the question or keywords"},
                "limit": {"type": "integer", "minimum": 1, "maximum": 20, "description": "at most this many (default 8)"},
            },
            "required": ["query"],
        },
    },
    {
        "name": "engram_remember",
        "description": "Keep a durable fact in engram's long-term memory, in the user's words "
                       "(e.g. \"I moved to Hangzhou\"). Not for task progress or temporary state.",
        "parameters": {
            "type": "object",
            "properties": {"text": {"type": "string", "description": "the statement to remember"}},
            "required": ["text"],
        },
    },
    {
        "name": "engram_forget",
        "description": "Forget memories that hold every word of `query`, or the memories with these ids "
                       "(from engram_recall). Without confirm it only lists what would be forgotten; "
                       "call again with confirm=true to delete them for good.",
        "parameters": {
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "every memory holding all these words"},
                "ids": {"type": "array", "items": {"type": "string"}, "description": "memory ids from engram_recall"},
                "confirm": {"type": "boolean", "description": "true: delete; false (default): preview only"},
                "reason": {"type": "string", "description": "why (kept in engram's audit log)"},
            },
        },
    },
]


def _default_home() -> str:
    try:
        from hermes_constants import get_hermes_home

        return str(get_hermes_home())
    except Exception:
        return os.environ.get("HERMES_HOME") or os.path.expanduser("~/.hermes")


def _bounded(fn: Callable[[], Any], timeout: float) -> Any:
    """fn() on a daemon thread; its result, or TimeoutError after `timeout` seconds (the call is
    abandoned, not killed: every HTTP call has its own socket timeout)."""
    box: Dict[str, Any] = {}
    done = threading.Event()

    def run() -> None:
        try:
            box["value"] = fn()
        except BaseException as e:  # noqa: BLE001 - re-raised on the caller's thread
            box["error"] = e
        finally:
            done.set()

    threading.Thread(target=run, name="engram-call", daemon=True).start()
    if not done.wait(timeout):
        raise TimeoutError(f"engram did not answer within {timeout:.1f} s")
    if "error" in box:
        raise box["error"]
    return box.get("value")


class _Part:
    """A value that a daemon thread computes: `value` once `done` is set (None on failure)."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.value: Any = None

    def get(self, deadline: float) -> Any:
        """The value when it is ready by `deadline` (monotonic), else None."""
        return self.value if self.done.wait(max(0.0, deadline - time.monotonic())) else None


def _spawn(fn: Callable[[], Any], what: str) -> _Part:
    """A _Part that a daemon thread fills with fn() (a failure is logged and leaves it None)."""
    part = _Part()

    def run() -> None:
        try:
            part.value = fn()
        except EngramError as e:
            logger.debug("engram: %s failed: %s", what, e)
        except Exception:
            logger.debug("engram: %s failed", what, exc_info=True)
        finally:
            part.done.set()

    threading.Thread(target=run, name=f"engram-{what}", daemon=True).start()
    return part


class _Recall:
    """What prefetch returns for one (session, query), in flight or done: the constraints a compaction
    lost (after a compaction), then the recall."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.parts: List[_Part] = []


def _tool_result(obj: Dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False)


class EngramMemoryProvider(MemoryProvider):
    """engram behind Hermes's MemoryProvider interface. Every hook is bounded in time and never
    raises into Hermes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rt: Optional[_runtime.Runtime] = None
        self._config: Optional[Config] = None
        self._home = ""
        self._session_id = ""
        self._writes = True  # false for a non-primary agent context
        self._warn: Optional[Callable[[str], None]] = None
        self._parents: Dict[str, str] = {}  # session -> lineage parent, from on_session_switch
        self._turns: Dict[str, "OrderedDict[str, Tuple[int, str]]"] = {}  # session -> message -> (turn, started_at)
        self._last_turn: Dict[str, int] = {}
        self._recalls: "OrderedDict[Tuple[str, str], _Recall]" = OrderedDict()
        self._enqueued = 0
        # Normalized texts of the messages the model has in its context (from sync_turn's messages):
        # recalled items equal to one of them are not injected again.
        self._context_texts: frozenset = frozenset()
        self._ended: Dict[str, int] = {}  # session -> self._enqueued at its last on_session_end
        # After a compaction (on_pre_compress) in this conversation, every turn checks the user's
        # constraints against the model's context and repeats those it lost. _context_after is the text of
        # that context as the last sync_turn after the compaction saw it; None: not seen since (then every
        # constraint is repeated).
        self._compacted = False
        self._context_after: Optional[str] = None

    # -- identity and availability ---------------------------------------------------------------

    @property
    def name(self) -> str:
        return "engram"

    def is_available(self) -> bool:
        """Configuration only, no network: a url, or an engram binary to start a local server."""
        try:
            config = load_config(_default_home())
        except ConfigError as e:
            logger.warning("engram: %s", e)
            return False
        if config.url:
            return True
        if find_engram_binary(config.engram_bin):
            return True
        logger.warning("engram: no url configured and no engram binary (config engram_bin, $ENGRAM_BIN or PATH)")
        return False

    def initialize(self, session_id: str, **kwargs) -> None:
        """Cheap and idempotent (the gateway calls it again for every new agent): takes a reference
        to the process's runtime for this Hermes home and starts the local server in the background."""
        home = str(kwargs.get("hermes_home") or _default_home())
        try:
            config = load_config(home)
        except ConfigError as e:
            logger.warning("engram: %s; the provider is off", e)
            return
        if self._rt is not None and self._home != home:
            self.shutdown()
        with self._lock:
            if self._rt is None:
                self._rt = _runtime.acquire(home, config)
                self._warn = kwargs.get("warning_callback")
                self._rt.add_warner(self._warn)
            self._home = home
            self._config = self._rt.config
            self._session_id = session_id or self._session_id
            parent = kwargs.get("parent_session_id") or ""
            if parent and parent != session_id:
                self._parents[session_id] = parent
            self._writes = kwargs.get("agent_context", "primary") in ("", "primary", None)
            rt = self._rt
        rt.warm_up()

    # -- prompt --------------------------------------------------------------------------------

    def system_prompt_block(self) -> str:
        return SYSTEM_PROMPT_BLOCK

    # -- recall ----------------------------------------------------------------------------------

    def _recall_items(self, query: str, limit: int, timeout: float) -> List[Dict[str, Any]]:
        rt = self._rt
        if rt is None:
            return []
        reply = rt.client.request("POST", rt.client.ns_path(rt.config.namespace, "/recall"),
                                  {"query": query[:8000], "limit": limit, "budget_tokens": RECALL_BUDGET_TOKENS},
                                  timeout=timeout)
        items = reply.get("items")
        return items if isinstance(items, list) else []

    def _constraints(self, session_id: str, context: Optional[str], timeout: float) -> List[str]:
        """The user's current constraints over the session's lineage, word for word (POST /working);
        with `context`, only those it does not hold (engram's check of a summary). A continuation that
        engram has no turn of yet (they are in the journal, or none was said) is read through its
        parent, which the provider knows from on_session_switch."""
        rt = self._rt
        if rt is None or not session_id:
            return []
        deadline = time.monotonic() + timeout
        path = rt.client.ns_path(rt.config.namespace, "/working")
        reply: Dict[str, Any] = {}
        sid, seen = session_id, set()
        while sid and sid not in seen and time.monotonic() < deadline:
            seen.add(sid)
            body: Dict[str, Any] = {"session_id": sid, "budget_tokens": 1}
            if context:
                body["summary"] = context
            try:
                reply = rt.client.request("POST", path, body, timeout=max(0.1, deadline - time.monotonic()))
            except EngramError as e:
                if e.status != 404:
                    raise
                reply = {}
            if reply.get("total_tokens") or reply.get("constraints"):
                break
            with self._lock:
                sid = self._parents.get(sid, "")
        texts = [str(c.get("text") or "") for c in reply.get("constraints") or [] if isinstance(c, dict)]
        texts = [t for t in texts if t.strip()]
        if context:
            missing = set(reply.get("missing") or [])
            texts = [t for t in texts if t in missing]
        return texts

    def _start_recall(self, session_id: str, query: str) -> _Recall:
        rec = _Recall()
        with self._lock:
            self._recalls[(session_id, query)] = rec
            while len(self._recalls) > 16:
                self._recalls.popitem(last=False)
            compacted, context = self._compacted, self._context_after
        config = self._config
        budget = config.prefetch_budget_ms / 1000.0
        if compacted and session_id:
            # What a compaction lost from the model's context; all of them until a turn has shown it.
            rec.parts.append(_spawn(lambda: render.constraint_block(
                self._constraints(session_id, context, timeout=budget), LOST_CONSTRAINTS_HEADER,
                CONSTRAINTS_MAX_CHARS), "constraints"))
        if config.auto_recall and query.strip():
            def recall() -> str:
                # Twice the limit: the items already in the context are left out.
                items = self._recall_items(query, min(50, 2 * config.recall_limit), timeout=budget)
                skip = self._context_texts | {render.normalize(query)}
                return render.recall_block(items, config.recall_limit, RECALL_HEADER, skip)

            rec.parts.append(_spawn(recall, "recall"))
        return rec

    def on_turn_start(self, turn_number: int, message: str, **kwargs) -> None:
        """Notes the turn's index and starts the recall for its message and, after a compaction, the
        check of the user's constraints (prefetch collects both)."""
        try:
            if self._rt is None or not isinstance(message, str):
                return
            sid = self._session_id
            with self._lock:
                seen = self._turns.setdefault(sid, OrderedDict())
                seen[message] = (int(turn_number), _runtime.utc_now_iso())
                while len(seen) > 16:
                    seen.popitem(last=False)
            if message.strip() and (self._config.auto_recall or self._compacted):
                self._start_recall(sid, message)
        except Exception:
            logger.debug("engram: on_turn_start failed", exc_info=True)

    def prefetch(self, query: str, *, session_id: str = "") -> str:
        """This turn's block, as plain text, within the budget: after a compaction, the user's
        constraints that the compacted context lost; then the recall of this turn's message. A part not
        ready within the budget is left out; "" when none is."""
        try:
            if self._rt is None or not query or not query.strip():
                return ""
            if not (self._config.auto_recall or self._compacted):
                return ""
            sid = session_id or self._session_id
            with self._lock:
                rec = self._recalls.get((sid, query))
            if rec is None:
                rec = self._start_recall(sid, query)
            deadline = rec.started + self._config.prefetch_budget_ms / 1000.0
            texts = [part.get(deadline) for part in rec.parts]
            if not all(p.done.is_set() for p in rec.parts):
                logger.debug("engram: part of the block not ready within %d ms", self._config.prefetch_budget_ms)
            return "\n\n".join(t for t in texts if t)
        except Exception:
            logger.debug("engram: prefetch failed", exc_info=True)
            return ""

    def queue_prefetch(self, query: str, *, session_id: str = "") -> None:
        """Nothing: the next turn's recall starts in on_turn_start with the next message itself."""

    # -- writes ----------------------------------------------------------------------------------

    def _enqueue(self, record: Dict[str, Any]) -> None:
        rt = self._rt
        if rt is None:
            return
        rt.journal.append(record)
        with self._lock:
            self._enqueued += 1
        rt.sender.kick()

    def _turn_index(self, session_id: str, user_content: str) -> Tuple[int, str]:
        with self._lock:
            seen = self._turns.get(session_id, {})
            hit = seen.pop(user_content, None) if isinstance(seen, OrderedDict) else None
            if hit is not None:
                turn, started = hit
            else:
                turn, started = self._last_turn.get(session_id, 0) + 1, ""
            self._last_turn[session_id] = max(turn, self._last_turn.get(session_id, 0))
            return turn, started

    def sync_turn(self, user_content: str, assistant_content: str, *, session_id: str = "",
                  messages: Optional[List[Dict[str, Any]]] = None) -> None:
        """Appends the turn to the journal (durable on return) and wakes the sender; no network."""
        try:
            if self._rt is None or not self._writes:
                return
            sid = session_id or self._session_id
            if not sid:
                return
            user = user_content or ""
            assistant = assistant_content or ""
            if messages:
                snapshot = list(messages)
                self._context_texts = frozenset(
                    render.normalize(render.message_text(m.get("content")))
                    for m in snapshot[-200:] if isinstance(m, dict) and m.get("role") in ("user", "assistant"))
                if self._compacted:
                    # The model's context since the compaction (its summary, the turns kept and the new
                    # ones): the next turns check the user's constraints against it.
                    self._context_after = render.context_text(snapshot, CONTEXT_MAX_BYTES)
            turn, started = self._turn_index(sid, user)
            self._enqueue({
                "id": render.turn_key(sid, turn, user, assistant),
                "kind": "turn",
                "namespace": self._config.namespace,
                "session_id": sid,
                "parent_session_id": self._parents.get(sid, ""),
                "turn": turn,
                "user": user,
                "assistant": assistant,
                "started_at": started,
                "at": _runtime.utc_now_iso(),
            })
        except Exception as e:
            logger.warning("engram: could not journal the turn: %s", e)

    def on_memory_write(self, action: str, target: str, content: str,
                        metadata: Optional[Dict[str, Any]] = None) -> None:
        """Mirrors add/replace/remove of Hermes's built-in memory tool to engram's curated store
        (through the journal: ordered with the turns, durable, never blocking the turn)."""
        try:
            if self._rt is None or not self._writes or action not in ("add", "replace", "remove"):
                return
            if target not in ("memory", "user"):
                return
            meta = metadata or {}
            old_text = str(meta.get("old_text") or "")
            sid = str(meta.get("session_id") or self._session_id)
            basis = f"{action}\x00{target}\x00{content}\x00{old_text}\x00{time.time_ns()}"
            self._enqueue({
                "id": "curated:" + hashlib.sha256(basis.encode("utf-8")).hexdigest()[:24],
                "kind": "curated",
                "namespace": self._config.namespace,
                "target": target,
                "action": action,
                "content": content or "",
                "old_text": old_text,
                "session_id": sid,
                "at": _runtime.utc_now_iso(),
            })
        except Exception as e:
            logger.warning("engram: could not journal the memory write: %s", e)

    # -- session boundaries ----------------------------------------------------------------------

    def on_session_end(self, messages: List[Dict[str, Any]]) -> None:
        """A watermark: the first call after new turns gives the journal a short flush (≤ 1 s);
        a repeat (every compression calls it) with nothing new returns at once."""
        try:
            rt = self._rt
            if rt is None:
                return
            sid = self._session_id
            with self._lock:
                if self._ended.get(sid) == self._enqueued:
                    return
                self._ended[sid] = self._enqueued
            rt.sender.flush(SESSION_END_FLUSH_S)
        except Exception:
            logger.debug("engram: on_session_end failed", exc_info=True)

    def on_session_switch(self, new_session_id: str, *, parent_session_id: str = "", reset: bool = False,
                          rewound: bool = False, **kwargs) -> None:
        """Follows the new session id. A continuation (compression, /branch) records the old session
        as the new one's lineage parent; /new (reset) and /resume (the parent is only the session
        being left) do not."""
        if not new_session_id:
            return
        lineage = not reset and kwargs.get("reason") != "resume"
        with self._lock:
            if parent_session_id and parent_session_id != new_session_id and lineage:
                self._parents[new_session_id] = parent_session_id
            if reset:
                self._context_texts = frozenset()
            if not lineage:  # another conversation: its compactions are not this one's
                self._compacted, self._context_after = False, None
            self._session_id = new_session_id

    def on_pre_compress(self, messages: List[Dict[str, Any]]) -> str:
        """For the summary to keep, within PRE_COMPRESS_TIMEOUT_S (3 s): first the user's current
        constraints over the session's lineage, word for word, from engram's working memory (after
        sending the turns still in the journal, for at most PRE_COMPRESS_FLUSH_S); then what long-term
        memory says about the messages being compressed (a recall on their recent text). Each part that
        engram does not give in time is left out; "" when engram is unreachable."""
        try:
            rt = self._rt
            if rt is None:
                return ""
            with self._lock:
                # From now on every turn checks the constraints against the compacted context.
                self._compacted, self._context_after = True, None
            sid = self._session_id
            deadline = time.monotonic() + PRE_COMPRESS_TIMEOUT_S
            texts = [render.message_text(m.get("content")).strip() for m in messages or []
                     if isinstance(m, dict) and m.get("role") in ("user", "assistant")]
            texts = [t for t in texts if t]

            def constraints() -> str:
                if not rt.breaker.down:
                    # The turns that said them may still be in the journal: send them first.
                    rt.sender.flush(min(PRE_COMPRESS_FLUSH_S, deadline - time.monotonic() - 0.5))
                found = self._constraints(sid, None, timeout=max(0.1, deadline - time.monotonic()))
                return render.constraint_block(found, PRE_COMPRESS_CONSTRAINTS_HEADER, CONSTRAINTS_MAX_CHARS)

            recent, size = [], 0
            for t in reversed(texts):
                recent.append(t)
                size += len(t)
                if size > 1500:
                    break
            query = "\n".join(reversed(recent))[-2000:]
            limit = self._config.recall_limit
            pinned = _spawn(constraints, "pre-compress-constraints")
            recall = _spawn(lambda: self._recall_items(query, min(50, 2 * limit),
                                                       timeout=max(0.1, deadline - time.monotonic())),
                            "pre-compress-recall") if query.strip() else None
            block = pinned.get(deadline) or ""
            items = recall.get(deadline) if recall is not None else None
            if items:
                # What the messages being compressed say is in the summary's input already.
                room = PRE_COMPRESS_MAX_CHARS - len(block) - len(PRE_COMPRESS_HEADER) - 2 - 16 * limit
                recalled = render.recall_block(items, limit, PRE_COMPRESS_HEADER, {render.normalize(t) for t in texts},
                                               min(render.TOTAL_CHARS, room))
                block = "\n\n".join(t for t in (block, recalled) if t)
            return block
        except Exception as e:
            logger.debug("engram: on_pre_compress: %s", e)
            return ""

    # -- tools -------------------------------------------------------------------------------------

    def get_tool_schemas(self) -> List[Dict[str, Any]]:
        return [dict(s) for s in TOOL_SCHEMAS]

    def handle_tool_call(self, tool_name: str, args: Dict[str, Any], **kwargs) -> str:
        """A JSON string, always: the result, or {"error": ...}. Bounded by TOOL_TIMEOUT_S."""
        try:
            if isinstance(args, str):
                args = json.loads(args) if args.strip() else {}
            if not isinstance(args, dict):
                return _tool_result({"error": "arguments must be a JSON object"})
            if self._rt is None:
                return _tool_result({"error": "engram is not initialised (see the Hermes log)"})
            handler = {"engram_recall": self._tool_recall, "engram_remember": self._tool_remember,
                       "engram_forget": self._tool_forget}.get(tool_name)
            if handler is None:
                return _tool_result({"error": f"unknown tool {tool_name}"})
            return _tool_result(_bounded(lambda: handler(args), TOOL_TIMEOUT_S + 0.5))
        except EngramError as e:
            return _tool_result({"error": str(e), "code": e.code or ("unavailable" if e.transient else "")})
        except ValueError as e:  # bad arguments (json.JSONDecodeError is one)
            return _tool_result({"error": str(e)})
        except Exception as e:
            logger.warning("engram: %s failed: %r", tool_name, e)
            return _tool_result({"error": f"{tool_name} failed: {e}"})

    @staticmethod
    def _text_arg(args: Dict[str, Any], name: str, required: bool) -> str:
        value = args.get(name)
        if value is None or (isinstance(value, str) and not value.strip()):
            if required:
                raise ValueError(f'argument "{name}" is required')
            return ""
        if not isinstance(value, str):
            raise ValueError(f'argument "{name}" must be a string')
        return value.strip()

    def _tool_recall(self, args: Dict[str, Any]) -> Dict[str, Any]:
        query = self._text_arg(args, "query", True)
        limit = args.get("limit", 8)
        try:
            limit = max(1, min(20, int(limit)))
        except (TypeError, ValueError):
            raise ValueError('argument "limit" must be an integer') from None
        items = self._recall_items(query, limit, timeout=TOOL_TIMEOUT_S)
        out = [{"id": i.get("id"), "type": i.get("type"), "text": i.get("text"), "score": i.get("score")}
               for i in items[:limit]]
        return {"query": query, "count": len(out), "items": out}

    def _tool_remember(self, args: Dict[str, Any]) -> Dict[str, Any]:
        text = self._text_arg(args, "text", True)
        rt = self._rt
        reply = rt.client.request("POST", rt.client.ns_path(rt.config.namespace, "/memories"), {"text": text},
                                  timeout=TOOL_TIMEOUT_S)
        event = reply.get("event") or {}
        return {"saved": not reply.get("forgotten", False), "duplicate": bool(reply.get("duplicate")),
                "id": event.get("id"), "claims": [c.get("text") for c in reply.get("claims") or []]}

    def _tool_forget(self, args: Dict[str, Any]) -> Dict[str, Any]:
        query = self._text_arg(args, "query", False)
        ids = args.get("ids") or []
        if isinstance(ids, str):
            ids = [ids]
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise ValueError('argument "ids" must be a list of strings')
        if not query and not ids:
            raise ValueError('give "query" or "ids" (engram_forget never forgets everything)')
        confirm = args.get("confirm", False)
        if isinstance(confirm, str):
            confirm = confirm.strip().lower() == "true"
        body: Dict[str, Any] = {"confirm": bool(confirm)}
        if query:
            body["query"] = query
        if ids:
            body["ids"] = ids
        reason = self._text_arg(args, "reason", False)
        if reason:
            body["reason"] = reason[:1000]
        rt = self._rt
        reply = rt.client.request("POST", rt.client.ns_path(rt.config.namespace, "/forget"), body,
                                  timeout=TOOL_TIMEOUT_S)
        preview = bool(reply.get("preview", not confirm))
        out = {"preview": preview, "events": reply.get("events", 0), "claims": reply.get("claims", 0),
               "items": (reply.get("items") or [])[:20]}
        out["note"] = ("nothing was forgotten yet: call engram_forget again with confirm=true to forget these"
                       if preview else "forgotten")
        return out

    # -- setup ---------------------------------------------------------------------------------------

    def get_config_schema(self) -> List[Dict[str, Any]]:
        return config_schema()

    def save_config(self, values: Dict[str, Any], hermes_home: str) -> None:
        """Writes `$HERMES_HOME/engram/config.json`; raises ValueError naming a field that does not parse."""
        _save_config(values, hermes_home)

    def backup_paths(self) -> List[str]:
        return []  # everything engram keeps for Hermes is under HERMES_HOME/engram

    # -- shutdown ------------------------------------------------------------------------------------

    def shutdown(self) -> None:
        """Flushes the journal (≤ 2 s; what is left is sent by the next start) and drops this
        provider's reference to the runtime."""
        try:
            with self._lock:
                rt, self._rt = self._rt, None
            if rt is not None:
                rt.remove_warner(self._warn)
                _runtime.release(rt, SHUTDOWN_FLUSH_S)
        except Exception:
            logger.debug("engram: shutdown failed", exc_info=True)


def register(ctx) -> None:
    """Hermes's plugin entry point."""
    ctx.register_memory_provider(EngramMemoryProvider())
