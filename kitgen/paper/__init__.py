"""What is printed and how it is checked: card faces (one module per card family), card
sheets, labels, the sheet layout, imposition, page checks and previews, and card pictures.
It may import :mod:`kitgen.core` only.
"""
