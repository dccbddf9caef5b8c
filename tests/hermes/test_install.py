"""`engram hermes install` and Hermes 0.19's loader: the plugin the binary carries is the repository's
integrations/hermes/, written atomically into $HERMES_HOME/plugins/engram/, found and loaded by
`plugins.memory.load_memory_provider("engram")`; and its setup (config schema, save_config)."""

import json
import os
import subprocess

import pytest

from conftest import ENGRAM, REPO, engram_cli

PLUGIN_SRC = REPO / "integrations" / "hermes"


def source_files():
    out = {}
    for path in PLUGIN_SRC.rglob("*"):
        rel = path.relative_to(PLUGIN_SRC).as_posix()
        if path.is_file() and "__pycache__" not in rel and not rel.endswith(".pyc") and not path.name.startswith("."):
            out[rel] = path.read_bytes()
    return out


def installed_files(plugin_dir):
    return {p.relative_to(plugin_dir).as_posix(): p.read_bytes()
            for p in plugin_dir.rglob("*") if p.is_file() and "__pycache__" not in p.parts}


def test_install_writes_the_repository_plugin(tmp_path):
    home = tmp_path / "home"
    out = engram_cli("hermes", "install", "--home", str(home)).stdout
    plugin = home / "plugins" / "engram"
    assert installed_files(plugin) == source_files()
    assert "hermes config set memory.provider engram" in out
    head = (plugin / "__init__.py").read_text()[:8192]
    assert "MemoryProvider" in head  # the 0.19 loader's test for a provider folder
    # No sibling *.py next to __init__.py (the loader executes those first).
    assert sorted(p.name for p in plugin.glob("*.py")) == ["__init__.py"]
    config = json.loads((home / "engram" / "config.json").read_text())
    assert config == {"engram_bin": os.path.realpath(ENGRAM), "namespace": "hermes"}
    assert oct((home / "engram" / "config.json").stat().st_mode & 0o777) == "0o600"


def test_reinstall_replaces_the_folder_and_keeps_the_config(tmp_path):
    home = tmp_path / "home"
    engram_cli("hermes", "install", "--home", str(home))
    plugin = home / "plugins" / "engram"
    (plugin / "stale.txt").write_text("from an older install")
    (home / "engram" / "config.json").write_text('{"url": "http://127.0.0.1:9", "namespace": "mine"}\n')
    out = json.loads(engram_cli("--json", "hermes", "install", "--home", str(home)).stdout)
    assert out["plugin_dir"] == str(plugin) and out["config_written"] is False
    assert out["files"] == len(source_files())
    assert not (plugin / "stale.txt").exists()
    assert installed_files(plugin) == source_files()
    assert json.loads((home / "engram" / "config.json").read_text())["namespace"] == "mine"
    assert [p.name for p in (home / "plugins").iterdir()] == ["engram"]  # no staging folder left


def test_home_defaults_to_hermes_home(tmp_path, monkeypatch):
    home = tmp_path / "from-env"
    env = dict(os.environ, HERMES_HOME=str(home))
    r = subprocess.run([ENGRAM, "hermes", "install", "--no-config"], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert (home / "plugins" / "engram" / "__init__.py").exists()
    assert not (home / "engram" / "config.json").exists()
    assert "HERMES_HOME=" not in r.stdout  # the default home needs no prefix


def test_loader_finds_the_installed_plugin(hermes_home):
    from plugins.memory import discover_memory_providers, find_provider_dir, load_memory_provider

    assert find_provider_dir("engram") == hermes_home / "plugins" / "engram"
    provider = load_memory_provider("engram")
    assert provider is not None, "load_memory_provider logs why at debug level"
    assert type(provider).__name__ == "EngramMemoryProvider" and provider.name == "engram"
    assert provider.is_available()  # config.json names the binary under test
    found = {name: (desc, available) for name, desc, available in discover_memory_providers()}
    assert found["engram"][1] is True and "engram" in found["engram"][0]


def test_plugin_manifest_is_exclusive(hermes_home):
    import yaml

    meta = yaml.safe_load((hermes_home / "plugins" / "engram" / "plugin.yaml").read_text())
    assert meta["kind"] == "exclusive" and meta["name"] == "engram"
    assert "sync_turn" in meta["hooks"]


def test_not_available_without_url_or_binary(hermes_home, monkeypatch):
    from plugins.memory import load_memory_provider

    (hermes_home / "engram" / "config.json").write_text('{"engram_bin": "/nonexistent/engram"}')
    monkeypatch.setenv("PATH", "/nonexistent")
    assert load_memory_provider("engram").is_available() is False
    monkeypatch.setenv("ENGRAM_URL", "http://127.0.0.1:9")
    assert load_memory_provider("engram").is_available() is True


def test_config_schema_and_strict_save_config(hermes_home):
    from plugins.memory import load_memory_provider

    provider = load_memory_provider("engram")
    keys = [f["key"] for f in provider.get_config_schema()]
    assert keys[:3] == ["url", "api_key", "namespace"]
    assert next(f for f in provider.get_config_schema() if f["key"] == "api_key")["secret"] is True
    # The wizard passes strings.
    provider.save_config({"url": "http://127.0.0.1:8420/", "namespace": "team", "recall_limit": "5",
                          "auto_recall": "false"}, str(hermes_home))
    saved = json.loads((hermes_home / "engram" / "config.json").read_text())
    assert saved["url"] == "http://127.0.0.1:8420" and saved["namespace"] == "team"
    assert saved["recall_limit"] == 5 and saved["auto_recall"] is False
    assert saved["engram_bin"] == os.path.realpath(ENGRAM)  # merged, not replaced
    for bad in ({"auto_recall": "maybe"}, {"recall_limit": "8x"}, {"recall_limit": "0"}, {"url": "ftp://x"},
                {"namespace": "  "}, {"colour": "blue"}):
        with pytest.raises(ValueError):
            provider.save_config(bad, str(hermes_home))
    assert json.loads((hermes_home / "engram" / "config.json").read_text()) == saved  # nothing half-written


def test_environment_overrides_the_file(hermes_home, monkeypatch):
    import sys

    from plugins.memory import load_memory_provider

    load_memory_provider("engram")  # imports the plugin package
    cfg = sys.modules["_hermes_user_memory.engram.core.config"]
    (hermes_home / "engram" / "config.json").write_text('{"url": "http://127.0.0.1:1", "namespace": "file"}')
    monkeypatch.setenv("ENGRAM_URL", "http://127.0.0.1:2")
    monkeypatch.setenv("ENGRAM_NAMESPACE", "env")
    monkeypatch.setenv("ENGRAM_API_KEY", "ek_secret")
    c = cfg.load_config(hermes_home)
    assert (c.url, c.namespace, c.api_key) == ("http://127.0.0.1:2", "env", "ek_secret")
    monkeypatch.setenv("ENGRAM_NAMESPACE", " ")  # blank: ignored
    assert cfg.load_config(hermes_home).namespace == "file"
    monkeypatch.delenv("ENGRAM_URL")
    monkeypatch.delenv("ENGRAM_NAMESPACE")
    assert cfg.load_config(hermes_home).namespace == "file"
