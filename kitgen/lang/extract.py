"""Extract the catalogue template ``kitgen/lang/locale/kitgen.pot`` with Babel: the ``_()`` and
``ngettext()`` calls of ``kitgen/**.py``, the player-facing strings of ``templates/*.yaml``
(booklet.yaml's ``words``, the ``name`` and ``word`` of cards.yaml's designs, the label sheets'
``product`` of layout.yaml) and the texts marked ``{{...}}`` in the viewer's templates
(templates/viewer/*, :mod:`kitgen.lang.marked`).

``python -m kitgen.lang.extract`` rewrites the template; ``--check`` exits 1 when it is stale.
The template carries no source line numbers and a fixed date, so it changes only when the
strings do.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import yaml
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import write_po

from .catalogue import DOMAIN, TEMPLATE
from .marked import marked_ids

ROOT = Path(__file__).resolve().parent.parent.parent
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)
CARD_TEXT_KEYS = ("name", "word")


def _yaml_words(node: object, where: str) -> Iterator[tuple[str, str]]:
    """Every string under ``node`` (booklet.yaml's words), with its key path."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _yaml_words(v, f"{where}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node, 1):
            yield from _yaml_words(v, f"{where}[{i}]")
    elif isinstance(node, str) and node.strip():
        yield node, where


def _card_words(node: object, where: str) -> Iterator[tuple[str, str]]:
    """cards.yaml's card names and words (``name:``, ``word:``)."""
    if isinstance(node, dict):
        for k, v in node.items():
            if k in CARD_TEXT_KEYS and isinstance(v, str):
                yield v, f"{where}.{k}"
            else:
                yield from _card_words(v, f"{where}.{k}")


def yaml_strings(root: Path = ROOT) -> Iterator[tuple[str, str]]:
    """(msgid, comment) for the player-facing strings of templates/*.yaml."""
    booklet = yaml.safe_load((root / "templates" / "booklet.yaml").read_text(encoding="utf-8"))
    yield from _yaml_words(booklet.get("words", {}), "templates/booklet.yaml words")
    cards = yaml.safe_load((root / "templates" / "cards.yaml").read_text(encoding="utf-8"))
    yield from _card_words(cards, "templates/cards.yaml")
    for path in sorted((root / "templates" / "viewer").glob("*.*")):
        where = f"templates/viewer/{path.name}"
        for msgid in marked_ids(path.read_text(encoding="utf-8")):
            yield msgid, f"{where} {{{{...}}}}"
    layout = yaml.safe_load((root / "templates" / "layout.yaml").read_text(encoding="utf-8"))
    for key, sheet in layout.get("labels", {}).items():  # what the shopping list asks for
        if isinstance(sheet, dict) and sheet.get("product"):
            yield str(sheet["product"]), f"templates/layout.yaml labels.{key}.product"
        if isinstance(sheet, dict) and sheet.get("name"):  # the label pages' and the index's words
            yield str(sheet["name"]), f"templates/layout.yaml labels.{key}.name"


def template(root: Path = ROOT) -> str:
    """The text of the template, as it should be."""
    cat = Catalog(project="kitgen", domain=DOMAIN, creation_date=FIXED_DATE, revision_date=FIXED_DATE)
    cat.fuzzy = False
    for filename, _lineno, message, comments, context in extract_from_dir(
        str(root / "kitgen"), method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=("i18n:",)
    ):
        cat.add(message, None, [(f"kitgen/{filename}", 0)], auto_comments=comments, context=context)
    for msgid, where in yaml_strings(root):
        cat.add(msgid, None, [(where.split(" ")[0], 0)], auto_comments=[where])
    buf = io.BytesIO()
    write_po(buf, cat, width=100, no_location=False, include_lineno=False, sort_output=True)
    lines = buf.getvalue().decode("utf-8").splitlines(keepends=True)
    return "".join(line for line in lines if not line.startswith('"Generated-By:'))  # no Babel version


def main(argv: list[str]) -> int:
    text = template()
    if "--check" in argv:
        current = TEMPLATE.read_text(encoding="utf-8") if TEMPLATE.is_file() else ""
        if current != text:
            print(
                f"{TEMPLATE.relative_to(ROOT)} is stale: run python -m kitgen.lang.extract", file=sys.stderr
            )
            return 1
        return 0
    tmp = TEMPLATE.with_suffix(".pot.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(TEMPLATE)
    print(f"wrote {TEMPLATE.relative_to(ROOT)}: {text.count(chr(10) + 'msgid ')} messages")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
