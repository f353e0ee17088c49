"""``python -m kitgen``: the same as the ``kitgen`` command."""

from kitgen.cli.main import main

main()
