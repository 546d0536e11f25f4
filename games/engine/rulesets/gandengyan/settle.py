"""Gandengyan settlement, pure: a round's facts in, an itemised breakdown out, deltas summing to
zero. The engine settles its rounds with it; the rules endpoint settles facts a client sends."""

from collections.abc import Sequence

from games.engine.errors import IllegalAction
from games.engine.specs import Bool, Field, Int, List, Obj
from games.engine.vocabulary import per_seat

PLAYERS = (4, 5, 6)
MAX_BOMBS = 64
MOST_CARDS = 108  # two decks

FACTS = Obj({
    "winner": Field(Int(0, max(PLAYERS) - 1, "the seat that went out (or held cards last)")),
    "remaining": Field(per_seat(Int(0, MOST_CARDS), "cards left in each seat's hand")),
    "played_any": Field(per_seat(Bool(), "whether each seat played any card")),
    "forfeited": Field(per_seat(Bool(), "whether each seat forfeited (jokers only)")),
    "bombs": Field(List(Int(3, 8), MAX_BOMBS, description="the size of every bomb played"), []),
})
EXAMPLE = {"options": {"players": 4, "decks": 1}, "winner": 0, "remaining": [0, 2, 5, 1],
           "played_any": [True, True, True, False], "forfeited": [False, False, False, False],
           "bombs": [3, 4]}


def refuse(message: str, field: str):
    raise IllegalAction("invalid_settlement", message, field=field)


def settle(
    *,
    winner: int,
    remaining: Sequence[int],
    played_any: Sequence[bool],
    forfeited: Sequence[bool],
    bombs: Sequence[int],
    decks: int,
    absent: Sequence[bool] | None = None,
) -> dict:
    """Losers pay cards left, ×2 once for no card played or 5+ left, × 2^(k-2) per bomb of k cards;
    the winner takes it all. Forfeited and absent (eliminated) seats pay nothing."""
    players = len(remaining)
    absent = absent or [False] * players
    for name, values in (("played_any", played_any), ("forfeited", forfeited), ("absent", absent)):
        if len(values) != players:
            refuse(f"{name} needs one entry per seat ({players})", name)
    if not 0 <= winner < players:
        refuse(f"winner must be a seat number 0..{players - 1}", "winner")
    if forfeited[winner] or absent[winner]:
        refuse("the winner cannot have forfeited or be absent", "winner")
    cap = 4 * decks
    if any(not 3 <= k <= cap for k in bombs):
        refuse(f"a bomb has 3 to {cap} cards", "bombs")

    bomb_factor = 1
    for size in bombs:
        bomb_factor *= 2 ** (size - 2)
    breakdown = []
    for seat in range(players):
        pays = seat != winner and not forfeited[seat] and not absent[seat]
        cards_left = remaining[seat] if pays else 0
        doubled = pays and (not played_any[seat] or cards_left >= 5)
        delta = -cards_left * (2 if doubled else 1) * bomb_factor
        breakdown.append(
            {"seat": seat, "cards_left": cards_left, "doubled": doubled,
             "bomb_factor": bomb_factor if pays else 1, "delta": delta}
        )
    breakdown[winner]["delta"] = -sum(item["delta"] for item in breakdown)
    return {
        "deltas": [item["delta"] for item in breakdown],
        "bomb_factor": bomb_factor,
        "breakdown": breakdown,
    }


def settle_facts(options: dict, facts: dict) -> dict:
    """The rules endpoint's settlement: the facts of one round of a table of `options`."""
    players = options["players"]
    for name in ("remaining", "played_any", "forfeited"):
        if len(facts[name]) != players:
            refuse(f"{name} needs one entry per seat ({players})", name)
    return settle(decks=options["decks"], **facts)
