"""510k state values: options, one round, the match; and their lossless JSON form."""

from typing import NamedTuple

from games.engine.combos import Reading
from games.engine.rulesets.five_ten_k.settle import DRY_OPTIONS, XI_MODES
from games.engine.specs import Choice, Field, Int, Obj

OPTIONS = Obj({
    "players": Field(Choice((4, 2), "4: two sides (or 包庄 1 against 3); 2: one against one"),
                     4, {"en": "Players", "zh": "人数"}),
    "base_score": Field(Int(1, 10, "the stake's unit (底分)"), 1,
                        {"en": "Base score", "zh": "底分"}),
    "dry": Field(Choice(DRY_OPTIONS, "how far dry levels go: none, half-dry only, or full-dry",
                        labels={"none": {"en": "no dry", "zh": "不算干"},
                                "half": {"en": "half-dry", "zh": "半干"},
                                "full": {"en": "half- and full-dry", "zh": "半干和全干"}}),
                 "full", {"en": "Dry levels", "zh": "干"}),
    "xi_mode": Field(Choice(XI_MODES, "how 喜分 grow with the bomb's tier",
                            labels={"multiplicative": {"en": "multiplicative (1/2/4/8/16)",
                                                       "zh": "翻倍"},
                                    "additive": {"en": "additive (1/2/3/4/5)", "zh": "累加"}}),
                     "multiplicative", {"en": "喜分 mode", "zh": "喜分算法"}),
    "rounds": Field(Int(1, 100, "rounds in the match"), 8, {"en": "Rounds", "zh": "局数"}),
})


class Options(NamedTuple):
    """The options as the state holds them, always parsed (their defaults are `OPTIONS`'s):
    attribute access on the hot paths."""

    players: int
    base_score: int
    dry: str
    xi_mode: str
    rounds: int


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
    # The deal starts this many seats further on (drawn with the shuffle, hidden like the deck):
    # it makes the 明牌's holder uniformly random whatever the cut position.
    deal_start: int = 0


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
