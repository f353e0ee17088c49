"""The ``kitgen`` command line: the click group, one module per command, the options of
the commands that run protocols, the terminal rendering and game records. It may import
every other subpackage; nothing imports it.
"""
