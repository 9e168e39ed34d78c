"""`python -m kopipasta` and the `kopipasta` command."""

from __future__ import annotations


def run() -> None:
    # Before importing the CLI: importing it is most of a short run's allocations.
    from kopipasta.startup.shortrun import leave, pace_for_a_short_run

    pace_for_a_short_run()
    from kopipasta.cli import main

    try:
        main()
    except SystemExit as done:
        leave(done)


if __name__ == "__main__":
    run()
