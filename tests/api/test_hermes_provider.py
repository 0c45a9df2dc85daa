"""``manage.py hermes install-provider``: the plugin copied, its settings written without
the token, ``memory.provider`` set in a config.yaml whose other settings are kept, and
every refusal before anything is written."""

from __future__ import annotations

import json
import stat

import pytest
import yaml
from django.core.management import call_command
from django.core.management.base import CommandError

from api.hermes_provider import PLUGIN_FILES, plugin_source

TOKEN = "pw_live_abcdefghijklmnopqrstuvwxyz0123456789"


@pytest.fixture
def token_file(tmp_path):
    path = tmp_path / "hermes.token"
    path.write_text(TOKEN + "\n")
    path.chmod(0o600)
    return path


@pytest.fixture
def home(tmp_path):
    return tmp_path / "hermes-home"


def install(home, token_file, *extra, url="http://127.0.0.1:8000/"):
    call_command(
        "hermes", "install-provider", "--hermes-home", str(home), "--url", url,
        "--token-file", str(token_file), "--agent", "helper", "--principal", "ana", *extra,
    )  # fmt: skip


def files_under(folder):
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def test_install_sets_the_provider_and_keeps_the_rest_of_config_yaml(home, token_file):
    home.mkdir()
    config = {
        "model": {"default": "some-model", "provider": "openrouter"},
        "memory": {"memory_enabled": True, "user_char_limit": 1375, "provider": "honcho"},
        "toolsets": ["web", "memory"],
    }
    (home / "config.yaml").write_text(yaml.safe_dump(config))
    install(home, token_file)
    after = yaml.safe_load((home / "config.yaml").read_text())
    assert after == {**config, "memory": {**config["memory"], "provider": "personaweb"}}


def test_install_copies_the_shipped_plugin_where_hermes_looks_for_user_plugins(home, token_file):
    install(home, token_file)
    plugin = home / "plugins" / "personaweb"
    assert files_under(plugin) == sorted(PLUGIN_FILES)
    for name in PLUGIN_FILES:
        assert (plugin / name).read_bytes() == (plugin_source() / name).read_bytes()
    # Hermes takes a user plugin folder for a memory provider when its __init__.py names
    # MemoryProvider (or register_memory_provider) in its first 8 KB
    head = (plugin / "__init__.py").read_text()[:8192]
    assert "MemoryProvider" in head and "register_memory_provider" in head


def test_the_settings_name_the_token_file_and_never_hold_the_token(home, token_file):
    install(home, token_file, "--timeout", "2.5")
    settings = home / "personaweb.json"
    assert json.loads(settings.read_text()) == {
        "url": "http://127.0.0.1:8000",
        "token_file": str(token_file.resolve()),
        "agent": "helper",
        "principal": "ana",
        "timeout": 2.5,
    }
    assert stat.S_IMODE(settings.stat().st_mode) == 0o600
    assert not any(TOKEN in p.read_text() for p in home.rglob("*") if p.is_file())


def test_installing_again_replaces_the_plugin_and_settings(home, token_file, tmp_path):
    install(home, token_file)
    stale = home / "plugins" / "personaweb" / "stale.py"
    stale.write_text("x = 1\n")
    other = tmp_path / "other.token"
    other.write_text("pw_other\n")
    other.chmod(0o600)
    install(home, other, url="https://memory.example.org")
    assert not stale.exists()
    settings = json.loads((home / "personaweb.json").read_text())
    assert settings["url"] == "https://memory.example.org"
    assert settings["token_file"] == str(other.resolve())
    assert files_under(home) == sorted(
        ["config.yaml", "personaweb.json", *(f"plugins/personaweb/{n}" for n in PLUGIN_FILES)]
    )


def test_a_config_yaml_that_is_not_yaml_is_refused_and_left_as_it_is(home, token_file):
    home.mkdir()
    broken = "model: [unclosed\nmemory:\n  provider: honcho\n"
    (home / "config.yaml").write_text(broken)
    with pytest.raises(CommandError, match="not readable YAML") as caught:
        install(home, token_file)
    assert caught.value.returncode == 2
    assert (home / "config.yaml").read_text() == broken
    assert files_under(home) == ["config.yaml"]


@pytest.mark.parametrize("text", ["- a list\n- not a mapping\n", "memory: honcho\n"])
def test_a_config_yaml_of_another_shape_is_refused(home, token_file, text):
    home.mkdir()
    (home / "config.yaml").write_text(text)
    with pytest.raises(CommandError, match="left as it is"):
        install(home, token_file)
    assert files_under(home) == ["config.yaml"]


def test_a_token_file_others_can_read_is_refused(home, token_file):
    token_file.chmod(0o644)
    with pytest.raises(CommandError, match="chmod 600"):
        install(home, token_file)
    assert not home.exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [(None, "cannot be read"), ("", "one API token"), ("two words\n", "one API token")],
)
def test_a_token_file_without_one_token_is_refused(home, tmp_path, content, message):
    path = tmp_path / "token"
    if content is not None:
        path.write_text(content)
        path.chmod(0o600)
    with pytest.raises(CommandError, match=message):
        install(home, path)
    assert not home.exists()


@pytest.mark.parametrize("url", ["127.0.0.1:8000", "ftp://host", "http://host/?a=1", "http://"])
def test_an_address_that_is_not_http_is_refused(home, token_file, url):
    with pytest.raises(CommandError, match="address"):
        install(home, token_file, url=url)
    assert not home.exists()


def test_an_agent_that_is_not_a_slug_is_refused(home, token_file):
    with pytest.raises(CommandError, match="not an agent slug"):
        call_command(
            "hermes", "install-provider", "--hermes-home", str(home), "--url",
            "http://127.0.0.1:8000", "--token-file", str(token_file), "--agent", "a/b",
            "--principal", "ana",
        )  # fmt: skip
    assert not home.exists()
