"""JSON as it crosses a file boundary (a cache entry, a ``--json`` output, a state given on the
command line): what :mod:`json` reads and writes, before a checker turns it into typed data."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

# Read as covariant containers, so typed data (a TypedDict, a list of them) is JSON as it is.
JSONValue = Mapping[str, "JSONValue"] | Sequence["JSONValue"] | str | int | float | bool | None
JSONObject = dict[str, JSONValue]
