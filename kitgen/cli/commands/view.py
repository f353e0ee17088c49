"""``kitgen view``: a step-through page of a seeded run, for a browser."""

from __future__ import annotations

import json

import click

from ...web.viewer import ViewOptions, write_view
from .. import runspec
from . import options
from .progress import progress_line, write_errors

VIEW_HELP = """Write a step-through page of a seeded run of a protocol (index.html).

PROTOCOL is a built-in protocol (six-card-and, card-selection, gakmoro-round, ...) or your own
spec file (my-protocol.yaml). The page steps through the run: each step's number and
sentence as the spec says them, the table as the booklet pictures it (changed places framed,
shuffle piles outlined), at each reveal what a correct table shows, then the outcome and the
verification verdicts of the protocol and everything it calls. Buttons and keys: Right or
Space next, Left previous, Home first, End last, H shows the faces of face-down cards (for a
teacher; players never see them).

The page is one self-contained file: no network, no fonts or scripts from elsewhere; open it
in any browser. The protocols are verified exactly first (reports come from the verification
cache when the spec and the engine are unchanged); a failing check does not stop the page, it
is shown in red at the end. Default folder: output/view/<protocol>/. A folder that holds files
kitgen did not write is refused (--force writes beside them, never over them).
"""


@click.command("view", help=VIEW_HELP)
@click.argument("protocol")
@options.declared_all(runspec.VIEW)
def view_cmd(
    protocol: str,
    output: str | None,
    seed: int | None,
    inputs: tuple[str, ...],
    params: tuple[str, ...],
    deck: str | None,
    no_cache: bool,
    as_json: bool,
    force: bool,
) -> None:
    opts = ViewOptions(protocol, seed, inputs, params, deck, output, not no_cache, force)
    with write_errors(), progress_line(as_json):
        done = write_view(opts)
    if as_json:
        click.echo(json.dumps(done, indent=2))
        return
    steps = done["steps"]
    verdict = "verified" if done["verified"] else "NOT VERIFIED (see the last step)"
    click.echo(f"Viewer for {done['protocol']} written to {done['file']}")
    click.echo(f"  {steps} numbered steps in {done['frames']} frames; {verdict}")
    click.echo("  Open it in a browser: Right/Left to step, H to show hidden faces.")
