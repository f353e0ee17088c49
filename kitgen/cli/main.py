"""The ``kitgen`` command line: a thin group over the commands in :mod:`kitgen.cli.commands`."""

from __future__ import annotations

import signal

import click

from reference_engine.api import Interrupted, KitgenError, Terminated, UsageError

from .commands import COMMANDS
from .commands.options import flag


class _Main(click.Group):
    """The command group: an interrupt ends a command with one line, never a traceback; so does
    an option click refuses (a number out of its range, an unknown option), with exit code 2."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            where = exc.ctx.command_path if exc.ctx is not None else ctx.command_path
            message = " ".join(exc.format_message().split())
            raise UsageError(f"{message} (see `{where} --help`)") from None
        except KitgenError as exc:
            exc.name_settings(flag)  # the engine names a setting by its field; here it is a flag
            raise
        except KeyboardInterrupt as exc:
            raise (
                Terminated() if getattr(exc, "signum", None) == signal.SIGTERM else Interrupted()
            ) from None
        except click.Abort as exc:
            if isinstance(exc.__context__, KeyboardInterrupt):  # Ctrl-C at a prompt (--pause)
                raise Interrupted() from None
            raise


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="kitgen")
def main() -> None:
    """Printable kits and booklets for card games played with card-based cryptography.

    Every protocol a booklet teaches is a YAML spec that the reference engine runs and
    verifies. Start with `kitgen list`.
    """


for _command in COMMANDS:
    main.add_command(_command)
