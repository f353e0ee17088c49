"""The handlers of the actions, one module per kind of job; importing a module registers its
handlers (see :func:`reference_engine.machine.runner.handles`)."""

from __future__ import annotations

from . import control, layout, reveal, shuffling, sleeving

__all__ = ["control", "layout", "reveal", "shuffling", "sleeving"]
