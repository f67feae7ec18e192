"""The client's small persistent state: the secret behind each name it has claimed, and
the name it last used on each server.

A name on a server is claimed with a secret on first use and must be claimed
with the same secret ever after, so the client makes one (random, URL-safe)
the first time and keeps it in the user's config directory (platformdirs),
in a file only the user may read (mode 0600). Secrets are kept per server
(``name@host:port``), so no server ever learns the secret another server
knows. The name last used on a server (``names.json``, keyed ``host:port``) is what a
client started again comes back as, seats and all; a client with none claims no name until
the person chooses one. ``SWITCHBOARD_CONFIG_DIR`` moves the directory (tests use it).
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

import platformdirs

APP = "switchboard"
SECRETS_FILE = "secrets.json"
NAMES_FILE = "names.json"


def config_dir() -> Path:
    """Where the client keeps its files."""
    override = os.environ.get("SWITCHBOARD_CONFIG_DIR")
    return Path(override) if override else Path(platformdirs.user_config_dir(APP))


def records_dir() -> Path:
    """Where the client saves game records (the ``record`` command): ``records`` in the
    user's data directory (platformdirs: ``~/.local/share/switchboard/records`` on Linux,
    ``~/Library/Application Support/switchboard/records`` on macOS,
    ``%LOCALAPPDATA%\\switchboard\\records`` on Windows); ``SWITCHBOARD_RECORDS_DIR`` moves it."""
    override = os.environ.get("SWITCHBOARD_RECORDS_DIR")
    if override:
        return Path(override)
    return Path(platformdirs.user_data_dir(APP, appauthor=False)) / "records"


def _read(path: Path) -> dict[str, str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def secret_for(name: str, server: str, directory: Path | None = None) -> str:
    """The secret for ``name`` on ``server`` (``host:port``), made and saved on first use."""
    directory = directory or config_dir()
    path = directory / SECRETS_FILE
    key = f"{name}@{server}"
    known = _read(path)
    if key in known:
        return known[key]
    secret = secrets.token_urlsafe(24)
    known[key] = secret
    write_private(path, known)
    return secret


def last_name(server: str, directory: Path | None = None) -> str | None:
    """The name last used on ``server`` (``host:port``); None if none was ever claimed there."""
    return _read((directory or config_dir()) / NAMES_FILE).get(server) or None


def remember_name(server: str, name: str, directory: Path | None = None) -> None:
    """Keep ``name`` as the one to come back as on ``server`` (``host:port``)."""
    path = (directory or config_dir()) / NAMES_FILE
    known = _read(path)
    if known.get(server) != name:
        known[server] = name
        write_private(path, known)


def write_private(path: Path, data: object) -> None:
    """``data`` as JSON in a file only the user may read (mode 0600): written beside it,
    then moved over the old one, so there is never a world-readable moment."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, sort_keys=True)
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)


def default_name() -> str:
    """The login name, cleaned into a protocol word: the player's name at the practice
    server a client runs for itself (it keeps nothing and nobody else sees it); never
    claimed at a real server unless the person types it."""
    import getpass

    try:
        raw = getpass.getuser()
    except Exception:
        raw = "player"
    cleaned = "".join(ch for ch in raw if ch.isalnum() or ch in "-_.")[:24]
    return cleaned or "player"
