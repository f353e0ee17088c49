"""What a kit costs at the table and in the shop: table time, game time, the kit's costed
figures, the bill of materials, consumables, sleeves to buy and the printing guide. It
may import :mod:`kitgen.core` and :mod:`kitgen.paper`.
"""
