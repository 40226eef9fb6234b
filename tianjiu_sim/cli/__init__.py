"""The `tjsim` command line: a thin layer over the library.

Commands live in their own modules and are imported only when run, so `tjsim --help`
and light commands start without compiling or loading the numba engine.
Every user error ends as one line on stderr and exit code 2 (INTERFACES.md, Errors).
"""
from __future__ import annotations

import gc
import importlib
import importlib.util
import sys

import click

from .._numba_cache import notice_when_numba_loads
from ..errors import TjsimError

GC_THRESHOLDS = (100_000, 20, 100)  # Python's default: (700, 10, 10)

# command name → "module:function" inside tianjiu_sim.cli
COMMANDS = {
    "rules": "rules_cmd:rules",
    "score": "score_cmd:score",
    "hand": "hand_cmd:hand",
    "deal-odds": "odds_cmd:deal_odds",
    "play": "play_cmd:play",
    "simulate": "simulate_cmd:simulate",
    "compare": "compare_cmd:compare",
    "value": "value_cmd:value",
    "experiment": "experiment_cmd:experiment",
    "report": "report_cmd:report",
    "paigow": "paigow_cmd:paigow",
    "nine-cards": "nine_cards_cmd:nine_cards",
    "solve": "solve_cmd:solve",
    "advise": "advise_cmd:advise",
    "review": "review_cmd:review",
}


class LazyGroup(click.Group):
    """A group whose commands are imported on first use; errors become one line."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [name for name in COMMANDS if self._spec_exists(name)]

    @staticmethod
    def _spec_exists(name: str) -> bool:
        module = COMMANDS[name].split(":")[0]
        return importlib.util.find_spec(f"{__name__}.{module}") is not None

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS or not self._spec_exists(name):
            return None
        module, attr = COMMANDS[name].split(":")
        return getattr(importlib.import_module(f"{__name__}.{module}"), attr)

    def main(self, args=None, prog_name=None, **extra):  # noqa: D401
        """Run the CLI; user errors → one line on stderr, exit code 2."""
        # Start-up imports (numba, pandas) allocate hundreds of thousands of long-lived objects:
        # with the default thresholds the collector walks them over and over, 0.1-0.2 s of a
        # short command.  Rarer collections still collect (benchmarks/README.md, "Start-up").
        gc.set_threshold(*GC_THRESHOLDS)
        notice_when_numba_loads()
        try:
            rv = super().main(args=args, prog_name=prog_name or "tjsim", standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as e:
            click.echo(e.ctx.get_help())
            sys.exit(0)
        except click.UsageError as e:
            cmd = e.ctx.command_path if e.ctx else "tjsim"
            click.echo(f"{cmd}: error: {e.format_message()}".replace("\n", " "), err=True)
            sys.exit(2)
        except click.ClickException as e:
            click.echo(f"tjsim: error: {e.format_message()}".replace("\n", " "), err=True)
            sys.exit(2)
        except TjsimError as e:
            click.echo(f"tjsim: error: {e}".replace("\n", " "), err=True)
            sys.exit(2)
        except click.exceptions.Abort:
            click.echo("tjsim: interrupted", err=True)
            sys.exit(130)
        except KeyboardInterrupt:
            click.echo("tjsim: interrupted", err=True)
            sys.exit(130)
        except BrokenPipeError:
            sys.exit(0)
        if isinstance(rv, int):
            sys.exit(rv)
        sys.exit(0)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="tianjiu_sim", prog_name="tjsim")
def main() -> None:
    """tjsim — Monte Carlo strategy analyser and statistics for Tien Gow (天九).

    \b
    Start here:
      tjsim rules                 the tiles, plays and settings of a rule set
      tjsim deal-odds             how likely each kind of hand is
      tjsim score --dong 1,4,0,3 --closer 3    settle one deal
    """
