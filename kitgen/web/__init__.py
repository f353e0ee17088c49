"""The kit in a browser: the kit's index page, the step-through viewer and a booklet's
first chapters as HTML. It may import :mod:`kitgen.core`, :mod:`kitgen.paper`,
:mod:`kitgen.cost`, :mod:`kitgen.booklet` and :mod:`kitgen.kinds`.
"""
