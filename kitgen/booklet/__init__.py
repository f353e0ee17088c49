"""The booklet: what it says (its model, sections and steps, examples, prose helpers), its
first chapters, pictures (step diagrams, the table plan), legend, glossary, the jargon
check, the handout, and typesetting it into PDF (page elements, the writer, the pages).
It may import :mod:`kitgen.core`, :mod:`kitgen.paper` and :mod:`kitgen.cost`.
"""
