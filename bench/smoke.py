"""`--smoke`, which every bench takes: one small, fast run, so that none can rot (`.ci/run` runs
each so); a smoke run's figures mean nothing."""

import argparse


def parser(doc: str) -> argparse.ArgumentParser:
    """An argument parser described by the first line of `doc`, with `--smoke`."""
    made = argparse.ArgumentParser(description=doc.strip().splitlines()[0])
    made.add_argument("--smoke", action="store_true",
                      help="one small, fast run (CI): its figures mean nothing")
    return made
