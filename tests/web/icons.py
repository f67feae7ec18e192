"""The web client's PNG icons (``web/static/icon-192.png``, ``icon-512.png``, named by its
manifest for "Add to home screen"), drawn from ``web/static/icon.svg`` by headless
Chromium, so the PNGs are made in the repository from the one drawing:

    python tests/web/icons.py
"""

from __future__ import annotations

import base64
from pathlib import Path

from conftest import make_driver

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"


def main() -> None:
    svg = (STATIC / "icon.svg").read_text(encoding="utf-8")
    for size in (192, 512):
        driver = make_driver((size, size))
        try:
            data = base64.b64encode(svg.encode()).decode()
            driver.get(f"data:image/svg+xml;base64,{data}")
            driver.execute_script(
                "const s = document.documentElement;"
                "s.setAttribute('width', arguments[0]); s.setAttribute('height', arguments[0])",
                size,
            )
            shot = driver.execute_cdp_cmd(
                "Page.captureScreenshot",
                {
                    "format": "png",
                    "clip": {"x": 0, "y": 0, "width": size, "height": size, "scale": 1},
                },
            )
            (STATIC / f"icon-{size}.png").write_bytes(base64.b64decode(shot["data"]))
        finally:
            driver.quit()


if __name__ == "__main__":
    main()
