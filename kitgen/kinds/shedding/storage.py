"""The labels of a shedding game's kit: one per seat (θ_i and its owner), one per box of cards."""

from __future__ import annotations

from ...bom import Bom
from ...faces import theta_colour
from ...labels import Label, theta_label


def kit_labels(bom: Bom) -> list[Label]:
    """Seat labels (θ_i and its owner) and a storage label for every group of printed cards."""
    labels: list[Label] = []
    for i, owner in enumerate(bom.seats, 1):
        if any(it.key == f"theta{i}" for it in bom.items):
            labels.append(theta_label(i, owner))
    for item in bom.items:
        if item.kind == "card":
            colour = ""
            if item.key.startswith("theta"):
                colour = theta_colour(int(item.key[len("theta") :]))
            labels.append(Label(item.label, f"{item.count} cards", colour, "storage"))
        elif item.kind == "envelope":
            labels.append(Label("Envelopes", f"{item.count}, identical", "", "storage"))
    return labels
