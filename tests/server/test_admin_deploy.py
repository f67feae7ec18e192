"""deploy/: the example configuration names every setting with its default; the unit is sane."""

from __future__ import annotations

import configparser
import dataclasses
import re
import tomllib
from pathlib import Path

from server.core.config import ServerConfig

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
LINE = re.compile(r"^#?\s?([a-z0-9_]+) = (.+?)(\s+#.*)?$")


def _example_settings() -> dict[str, object]:
    found: dict[str, object] = {}
    for line in (DEPLOY / "switchboard.toml").read_text().splitlines():
        match = LINE.match(line)
        if match:
            key, value = match.group(1), match.group(2)
            found[key] = tomllib.loads(f"v = {value}")["v"]
    return found


def test_example_config_lists_every_setting_with_its_default() -> None:
    shown = _example_settings()
    for f in dataclasses.fields(ServerConfig):
        if f.name == "extra":
            continue
        assert f.name in shown, f"deploy/switchboard.toml does not mention {f.name}"
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()  # type: ignore[misc]
        if default is None or f.name == "operator_secret_file":
            continue  # an example value is shown instead of "unset"
        value = shown[f.name]
        if isinstance(default, tuple):
            default = list(default)
        assert value == default, f"{f.name}: the example says {value!r}, the default is {default!r}"


def test_example_config_loads_as_a_server_config() -> None:
    data = tomllib.loads((DEPLOY / "switchboard.toml").read_text())
    config = ServerConfig.from_mapping(data["server"])
    assert config.operator_secret_file is not None


def test_systemd_unit_has_its_own_user_restarts_and_keeps_state() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(DEPLOY / "switchboard.service")
    service = unit["Service"]
    assert service["DynamicUser"] == "yes"
    assert service["Restart"] == "on-failure"
    assert service["StateDirectory"] == "switchboard"
    assert "${STATE_DIRECTORY}" in service["ExecStart"]
    assert service["KillSignal"] == "SIGTERM"


def test_container_file_runs_unprivileged_with_a_data_volume() -> None:
    text = (DEPLOY / "Containerfile").read_text()
    assert re.search(r"^USER switchboard$", text, re.M)
    assert 'VOLUME ["/data"]' in text
    assert "--data" in text and "/data" in text
