"""The commands of ``kitgen``: each parses its options and calls library code.

Options several commands share are defined once in :mod:`.options`.
"""

from __future__ import annotations

import click

from .booklet import booklet_cmd
from .build import build_cmd
from .listing import list_cmd
from .play import play_cmd
from .replay import replay_cmd
from .simulate import simulate_cmd
from .solve import solve_cmd
from .verify import verify_cmd
from .view import view_cmd

COMMANDS: list[click.Command] = [
    list_cmd,
    verify_cmd,
    simulate_cmd,
    build_cmd,
    booklet_cmd,
    play_cmd,
    replay_cmd,
    solve_cmd,
    view_cmd,
]

__all__ = ["COMMANDS"]
