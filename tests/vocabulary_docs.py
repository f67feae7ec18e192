"""docs/protocol.md's family sections, generated from the engine's declared vocabularies.

    python tests/vocabulary_docs.py           # exit 1 and say which section is stale
    python tests/vocabulary_docs.py --write   # rewrite the sections in place

Each section stands between ``<!-- vocabulary:NAME -->`` and ``<!-- /vocabulary:NAME -->``
(NAME: ``common`` for the keys of every view, or a family); tests/engine/test_vocabulary.py
fails while one is stale.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine.vocabulary import Vocabulary, common_markdown, markdown  # noqa: E402

SPEC = ROOT / "docs" / "protocol.md"


def vocabularies() -> dict[str, Vocabulary]:
    """Each family's vocabulary, found through the registered rulesets."""
    out: dict[str, Vocabulary] = {}
    for rs in engine.registry.all_rulesets():
        vocabulary = getattr(rs.game_class, "vocabulary", None)
        if vocabulary is not None:
            out.setdefault(rs.family, vocabulary)
    return out


def _block(family: str) -> re.Pattern[str]:
    return re.compile(
        rf"(<!-- vocabulary:{family} -->\n)(.*?)(<!-- /vocabulary:{family} -->)", re.DOTALL
    )


def sections() -> dict[str, str]:
    """Each generated section's text by its marker name: ``common`` (the keys of every
    view), then one per family."""
    out = {"common": common_markdown()}
    out.update((family, markdown(v)) for family, v in vocabularies().items())
    return out


def stale(text: str) -> list[str]:
    """The sections of ``text`` that are missing or differ from their declaration."""
    out = []
    for name, wanted in sections().items():
        found = _block(name).search(text)
        if found is None or found.group(2) != wanted:
            out.append(name)
    return out


def rewrite(text: str) -> str:
    for name, wanted in sections().items():
        text = _block(name).sub(lambda m, w=wanted: m.group(1) + w + m.group(3), text)
    return text


if __name__ == "__main__":
    text = SPEC.read_text()
    if "--write" in sys.argv:
        SPEC.write_text(rewrite(text))
    elif found := stale(text):
        sys.exit(f"stale family sections in docs/protocol.md: {', '.join(found)}")
