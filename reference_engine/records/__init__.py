"""Game records: one JSON document per game, the referee's copy (docs/records.md).

A record holds the rule set and its options, the seed, the seats, the deal, every event with
what every seat saw and what was hidden, every protocol run's public view and counts, and the
result. :mod:`.document` builds, writes and reads records (checked against
``record.schema.json``); :mod:`.recorder` is what a game loop tells; :mod:`.referee` is the
base of the kinds' independent referees. :mod:`reference_engine.replay` (a layer up, beside
:mod:`reference_engine.games`: it finds the record's kind) plays a recorded game again and has
the kind's referee check it.
"""

from __future__ import annotations

FORMAT = "kitgen game record"
VERSION = 1
# How every record file kitgen writes begins (document.dumps: the format is the first key, on
# the second line). A file that begins so is a record kitgen may write over (kitgen play --record).
HEADER = ('{\n "format": "' + FORMAT + '",\n').encode("utf-8")

__all__ = ["FORMAT", "HEADER", "VERSION"]
