"""The provider's configuration: `$HERMES_HOME/engram/config.json`, then the environment.

Fields (every one optional):
  url                 engram serve's base URL, e.g. http://127.0.0.1:8420; "" = start a local
                      `engram serve` on `$HERMES_HOME/engram/engram.db` on first use
  api_key             sent as `Authorization: Bearer ...` (also $ENGRAM_API_KEY)
  namespace           the engram namespace of this Hermes home (default "hermes")
  engram_bin          the `engram` binary of the local server (else $ENGRAM_BIN, else PATH)
  recall_limit        memories recalled per turn, 1-50 (default 8)
  auto_recall         recall for every turn (default true); false: only the tools recall
  prefetch_budget_ms  how long a turn waits for its recall, 50-5000 (default 1500)

Values are parsed strictly: `hermes memory setup` passes every value as a string, so "false" is
false, "8" is 8, and anything else ("maybe", "8x", an unknown key) is a ConfigError naming the
field. Standard library only.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional
from urllib.parse import urlsplit

DEFAULT_NAMESPACE = "hermes"
CONFIG_DIR = "engram"
CONFIG_FILE = "config.json"

# Environment variables that override the file, as Hermes's other providers do.
ENV_OVERRIDES = {
    "url": "ENGRAM_URL",
    "api_key": "ENGRAM_API_KEY",
    "namespace": "ENGRAM_NAMESPACE",
    "engram_bin": "ENGRAM_BIN",
}


class ConfigError(ValueError):
    """A configuration value that does not parse; the message names the field."""


@dataclass(frozen=True)
class Config:
    url: str = ""
    api_key: str = ""
    namespace: str = DEFAULT_NAMESPACE
    engram_bin: str = ""
    recall_limit: int = 8
    auto_recall: bool = True
    prefetch_budget_ms: int = 1500

    def public(self) -> Dict[str, Any]:
        """The fields with the api key masked (for logs and status)."""
        d = asdict(self)
        if d["api_key"]:
            d["api_key"] = "***"
        return d


def _parse_str(field: str, value: Any) -> str:
    if not isinstance(value, str):
        raise ConfigError(f'field "{field}": expected a string, got {type(value).__name__}')
    return value.strip()


def _parse_url(field: str, value: Any) -> str:
    text = _parse_str(field, value)
    if not text:
        return ""
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(f'field "{field}": "{text}" is not an http(s) URL (e.g. http://127.0.0.1:8420)')
    try:
        parts.port  # noqa: B018 - raises on a bad port
    except ValueError as e:
        raise ConfigError(f'field "{field}": {e}') from None
    return text.rstrip("/")


def _parse_namespace(field: str, value: Any) -> str:
    text = _parse_str(field, value)
    if not text:
        raise ConfigError(f'field "{field}": is blank (leave it out for "{DEFAULT_NAMESPACE}")')
    if len(text) > 200:
        raise ConfigError(f'field "{field}": longer than 200 characters')
    return text


def _parse_int(field: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool):
        raise ConfigError(f'field "{field}": expected an integer, got a boolean')
    if isinstance(value, str):
        if not re.fullmatch(r"\s*[0-9]+\s*", value):
            raise ConfigError(f'field "{field}": "{value}" is not a whole number')
        value = int(value)
    if not isinstance(value, int):
        raise ConfigError(f'field "{field}": expected an integer, got {type(value).__name__}')
    if not low <= value <= high:
        raise ConfigError(f'field "{field}": {value} is out of range {low}-{high}')
    return value


_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def _parse_bool(field: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    raise ConfigError(f'field "{field}": "{value}" is not true or false')


_PARSERS = {
    "url": _parse_url,
    "api_key": _parse_str,
    "namespace": _parse_namespace,
    "engram_bin": _parse_str,
    "recall_limit": lambda f, v: _parse_int(f, v, 1, 50),
    "auto_recall": _parse_bool,
    "prefetch_budget_ms": lambda f, v: _parse_int(f, v, 50, 5000),
}


def parse_values(values: Dict[str, Any]) -> Dict[str, Any]:
    """Parses each field of `values` strictly. Raises ConfigError on an unknown key or bad value."""
    if not isinstance(values, dict):
        raise ConfigError("the configuration must be a JSON object")
    out: Dict[str, Any] = {}
    for key, value in values.items():
        parser = _PARSERS.get(key)
        if parser is None:
            raise ConfigError(f'unknown field "{key}" (expected one of: {", ".join(_PARSERS)})')
        out[key] = parser(key, value)
    return out


def config_dir(hermes_home: str | os.PathLike) -> Path:
    return Path(hermes_home) / CONFIG_DIR


def config_path(hermes_home: str | os.PathLike) -> Path:
    return config_dir(hermes_home) / CONFIG_FILE


def _read_file(path: Path) -> Dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as e:
        raise ConfigError(f"{path}: {e}") from None
    try:
        data = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as e:
        raise ConfigError(f"{path}: not JSON ({e})") from None
    try:
        return parse_values(data)
    except ConfigError as e:
        raise ConfigError(f"{path}: {e}") from None


def load_config(hermes_home: str | os.PathLike, environ: Optional[Dict[str, str]] = None) -> Config:
    """The file's values, overridden by $ENGRAM_URL, $ENGRAM_API_KEY, $ENGRAM_NAMESPACE, $ENGRAM_BIN
    (an empty variable is ignored). Raises ConfigError naming the file or variable and field."""
    env = os.environ if environ is None else environ
    values = _read_file(config_path(hermes_home))
    for key, variable in ENV_OVERRIDES.items():
        raw = env.get(variable, "")
        if raw.strip():
            try:
                values[key] = _PARSERS[key](key, raw)
            except ConfigError as e:
                raise ConfigError(f"${variable}: {e}") from None
    return Config(**values)


def save_config(values: Dict[str, Any], hermes_home: str | os.PathLike) -> Path:
    """Merges `values` (strings from the setup wizard, or typed values) into config.json, written
    atomically with mode 0600 (it may hold the api key). Raises ConfigError before writing anything
    when a value does not parse. Returns the file's path."""
    parsed = parse_values(values)
    path = config_path(hermes_home)
    current = _read_file(path) if path.exists() else {}
    current.update(parsed)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".config.", suffix=".tmp", dir=str(path.parent))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(current, f, indent=2, sort_keys=True)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return path


def config_schema() -> List[Dict[str, Any]]:
    """The fields `hermes memory setup` asks for (its generic wizard; values come back as strings)."""
    return [
        {"key": "url", "description": "engram serve URL (blank: start a local engram serve on first use)",
         "default": ""},
        {"key": "api_key", "description": "engram API key (blank for a loopback server without keys)",
         "secret": True, "env_var": "ENGRAM_API_KEY"},
        {"key": "namespace", "description": "engram namespace for this Hermes home", "default": DEFAULT_NAMESPACE},
        {"key": "engram_bin", "description": "path of the engram binary for the local server (blank: engram on PATH)",
         "default": ""},
        {"key": "recall_limit", "description": "memories recalled for each turn (1-50)", "default": "8"},
        {"key": "auto_recall", "description": "recall for every turn", "default": "true",
         "choices": ["true", "false"]},
    ]
