"""The terminal client's colours and emphasis: one prompt_toolkit ``Style`` of class names.

The drawings (boards, panels, log) name a class (``class:card.red``); this is the
one place that says what each looks like, shared by the client and the replayer.
"""

from __future__ import annotations

from prompt_toolkit.styles import Style

STYLE = Style.from_dict(
    {
        "title": "reverse bold",
        "bar": "reverse",
        "bar.key": "reverse bold",
        "card.red": "bg:ansiwhite fg:ansired bold",
        "card.black": "bg:ansiwhite fg:ansiblack bold",
        "card.joker": "bg:ansiwhite fg:ansimagenta bold",
        "best": "underline",
        "playable": "underline",
        "top": "",
        "square.target": "bg:ansibrightblack",
        "blank": "fg:ansibrightblack",
        "piece.s0": "bg:ansiblue fg:ansiwhite bold",
        "piece.s1": "bg:ansiyellow fg:ansiblack bold",
        "piece.s2": "bg:ansigreen fg:ansiblack bold",
        "piece.s3": "bg:ansimagenta fg:ansiwhite bold",
        "label": "fg:ansibrightblack",
        "dim": "fg:ansibrightblack",
        "turn": "fg:ansiyellow bold",
        "seat.turn": "fg:ansiyellow bold",
        "seat.me": "bold",
        "warn": "fg:ansired bold",
        "score": "fg:ansicyan",
        "count": "",
        "category": "fg:ansigreen",
        "ally": "fg:ansigreen bold",
        "log.seat": "bold",
        "log.event": "fg:ansicyan bold",
        "talk.name": "fg:ansigreen bold",
        "error": "fg:ansired bold",
        "ok": "fg:ansigreen",
        "heading": "bold underline",
        "picker.selected": "reverse",
        "clock.low": "fg:ansired bold",
    }
)
