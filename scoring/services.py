"""Settling a finished round into the ledger, idempotently: settling twice changes nothing."""

from collections.abc import Mapping

from django.db import transaction

from scoring.models import ScoreEntry


class UnbalancedRound(ValueError):
    """A round's deltas must sum to zero: the match is zero-sum."""


def _itemised(result: Mapping, seat: int) -> dict:
    breakdown = result.get("breakdown")
    if isinstance(breakdown, list) and seat < len(breakdown) and isinstance(breakdown[seat], dict):
        return dict(breakdown[seat])
    return {"delta": result["deltas"][seat]}


@transaction.atomic
def round_settle(*, round, result: Mapping) -> list[ScoreEntry]:
    """One ScoreEntry per seat from the engine's `round_result`; existing entries are kept."""
    deltas = list(result["deltas"])
    if sum(deltas) != 0:
        raise UnbalancedRound(f"round {round.pk} deltas {deltas} do not sum to zero")
    ScoreEntry.objects.bulk_create(
        [ScoreEntry(round=round, seat=seat, delta=delta, breakdown=_itemised(result, seat))
         for seat, delta in enumerate(deltas)],
        ignore_conflicts=True,
    )
    return list(ScoreEntry.objects.filter(round=round).order_by("seat"))
