"""Building a kit: the build pipeline, its artifact writers, protocol kits for a class,
exports for print services and every game kit's figures in one place. It may import
every subpackage but :mod:`kitgen.cli`.
"""
