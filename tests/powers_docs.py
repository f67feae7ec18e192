"""docs/rules.md's shedding power cards, generated from the engine's declared powers.

    python tests/powers_docs.py           # exit 1 if the section is stale
    python tests/powers_docs.py --write   # rewrite it in place

The section stands between ``<!-- powers:shedding -->`` and ``<!-- /powers:shedding -->``
(``engine.shedding.powers.markdown``); tests/engine/test_powers.py fails while it is stale.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.shedding import powers  # noqa: E402

RULES = ROOT / "docs" / "rules.md"
BLOCK = re.compile(r"(<!-- powers:shedding -->\n)(.*?)(<!-- /powers:shedding -->)", re.DOTALL)


def section(text: str) -> str | None:
    """The generated section as the file has it (None: no markers)."""
    found = BLOCK.search(text)
    return None if found is None else found.group(2)


def written(text: str) -> str:
    """``text`` with the section generated afresh."""
    return BLOCK.sub(lambda m: m.group(1) + powers.markdown() + m.group(3), text)


if __name__ == "__main__":
    text = RULES.read_text()
    if "--write" in sys.argv:
        RULES.write_text(written(text))
    elif section(text) != powers.markdown():
        print("docs/rules.md: the power cards are stale; run with --write")
        sys.exit(1)
