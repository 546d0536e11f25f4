"""510k state values: options, one round, the match; and their lossless JSON form."""

from collections.abc import Mapping
from typing import Any, NamedTuple

from games.engine.combos import Reading
from games.engine.errors import IllegalAction
from scoring.rules import DRY_OPTIONS, XI_MODES


class Options(NamedTuple):
    players: int = 4
    base_score: int = 1
    dry: str = "full"
    xi_mode: str = "multiplicative"
    rounds: int = 8


_INT_RANGES = {"base_score": (1, 10), "rounds": (1, 100)}
_CHOICES = {"players": (2, 4), "dry": DRY_OPTIONS, "xi_mode": XI_MODES}
_TYPES = {"players": int, "dry": str, "xi_mode": str}


def parse_options(raw: Mapping[str, Any] | None) -> Options:
    if raw is None:
        return Options()
    if not isinstance(raw, Mapping):
        raise IllegalAction("invalid_option", "options are a JSON object", option=None)
    for key, value in raw.items():
        if key in _INT_RANGES:
            low, high = _INT_RANGES[key]
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise IllegalAction(
                    "invalid_option", f"{key} is an integer {low}..{high}", option=key
                )
        elif key in _CHOICES:
            if type(value) is not _TYPES[key] or value not in _CHOICES[key]:
                choices = ", ".join(map(str, _CHOICES[key]))
                raise IllegalAction("invalid_option", f"{key} is one of {choices}", option=key)
        else:
            raise IllegalAction("invalid_option", f"unknown option {key!r}", option=str(key))
    return Options(**raw)


class TablePlay(NamedTuple):
    """One play of the trick on the table."""

    seat: int
    cards: tuple[int, ...]
    reading: Reading


class Round(NamedTuple):
    """One round. A named tuple rather than a dataclass: `_replace` is several times cheaper, and
    random playouts replace the round on every action."""

    number: int
    cutter: int
    seating: tuple[int, ...]  # seats in turn order around the table, this round
    deck: tuple[int, ...]  # the shuffled order; the hands are dealt from it at the cut
    random_cut: int  # the position a Cut(None) takes, drawn with the deal
    phase: str  # cut, bid, play, over
    to_act: int | None
    hands: tuple[tuple[int, ...], ...]
    captured: tuple[int, ...]  # points each seat won in tricks
    xi_played: tuple[tuple[tuple[int, int], ...], ...]  # per seat: (rank, count) 喜 bombs played
    bottom: tuple[int, ...] = ()
    cut_position: int | None = None
    face_up: int | None = None
    holder: int | None = None
    bids: tuple[tuple[int, bool], ...] = ()
    banker: int | None = None
    teams: tuple[tuple[int, ...], ...] = ()
    trick: tuple[TablePlay, ...] = ()
    passes: int = 0  # passes in a row since the trick's latest play
    finished: tuple[int, ...] = ()


class Match(NamedTuple):
    options: Options
    humans: tuple[bool, ...]
    scores: tuple[int, ...]
    round: Round | None = None  # the round in play, or the last one (its seating carries over)


def _tuples(value):
    """JSON lists back to the nested tuples the state is made of."""
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def round_to_json(rnd: Round) -> dict:
    data = rnd._asdict()
    data["trick"] = [
        {"seat": p.seat, "cards": list(p.cards), "reading": list(p.reading)} for p in rnd.trick
    ]
    return data


def round_from_json(data: dict) -> Round:
    values = {key: _tuples(value) for key, value in data.items() if key != "trick"}
    trick = tuple(
        TablePlay(p["seat"], tuple(p["cards"]), Reading(*p["reading"])) for p in data["trick"]
    )
    return Round(**values, trick=trick)


def match_to_json(match: Match) -> dict:
    data = match._asdict()
    data["options"] = match.options._asdict()
    data["round"] = None if match.round is None else round_to_json(match.round)
    return data


def match_from_json(data: dict) -> Match:
    values = {key: _tuples(value) for key, value in data.items() if key not in ("options", "round")}
    rnd = data["round"]
    return Match(
        options=Options(**data["options"]),
        round=None if rnd is None else round_from_json(rnd),
        **values,
    )
