"""docs/protocol.md's family sections, generated from the engine's declared vocabularies.

    python tests/vocabulary_docs.py           # exit 1 and say which section is stale
    python tests/vocabulary_docs.py --write   # rewrite the sections in place

Each family's section stands between ``<!-- vocabulary:FAMILY -->`` and
``<!-- /vocabulary:FAMILY -->``; tests/engine/test_vocabulary.py fails while one is stale.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine.vocabulary import Vocabulary, markdown  # noqa: E402

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


def stale(text: str) -> list[str]:
    """The families whose section in ``text`` is missing or differs from its declaration."""
    out = []
    for family, vocabulary in vocabularies().items():
        found = _block(family).search(text)
        if found is None or found.group(2) != markdown(vocabulary):
            out.append(family)
    return out


def rewrite(text: str) -> str:
    for family, vocabulary in vocabularies().items():
        text = _block(family).sub(
            lambda m, v=vocabulary: m.group(1) + markdown(v) + m.group(3), text
        )
    return text


if __name__ == "__main__":
    text = SPEC.read_text()
    if "--write" in sys.argv:
        SPEC.write_text(rewrite(text))
    elif found := stale(text):
        sys.exit(f"stale family sections in docs/protocol.md: {', '.join(found)}")
