"""Shared by the 510k engine tests: cards from codes, hand-built states."""

from itertools import combinations

from games.engine.cards import RANK_OF, cards_from_codes
from games.engine.rulesets.five_ten_k import RULESET
from games.engine.rulesets.five_ten_k.combos import PACK
from games.engine.rulesets.five_ten_k.listing import extra_candidates
from games.engine.rulesets.five_ten_k.state import Match, Options, Round, TablePlay

RULES = RULESET


def cards(text: str) -> tuple[int, ...]:
    """`"5H 5D 10S"` → card ids; a repeated code is the second copy."""
    return cards_from_codes(text.split(), PACK)


def deal(*hands: str) -> tuple[tuple[int, ...], ...]:
    """Hands from codes, parsed together so a code in two hands is two different copies."""
    ids = cards(" ".join(hands))
    out, at = [], 0
    for hand in hands:
        size = len(hand.split())
        out.append(tuple(sorted(ids[at : at + size])))
        at += size
    return tuple(out)


def playing(
    *hands: str,
    teams=((0, 2), (1, 3)),
    banker=None,
    to_act=0,
    trick=(),
    finished=(),
    seating=None,
    **options,
) -> Match:
    """A match in the play phase of round 1 with the given hands; `trick` = (seat, codes) plays."""
    players = len(hands)
    dealt = deal(*hands, *(codes for _, codes in trick))
    table = tuple(
        TablePlay(seat, dealt[players + i], RULES.readings({}, dealt[players + i])[0])
        for i, (seat, _) in enumerate(trick)
    )
    rnd = Round(
        number=1,
        cutter=0,
        seating=seating or tuple(range(players)),
        deck=(),
        random_cut=0,
        phase="play",
        to_act=to_act,
        hands=dealt[:players],
        holder=0,
        banker=banker,
        teams=teams,
        trick=table,
        captured=(0,) * players,
        finished=finished,
        xi_played=((),) * players,
    )
    parsed = Options(**RULES.parse_options({"players": players, **options}))
    return Match(parsed, (False,) * players, (0,) * players, rnd)


def ranks(ids) -> tuple[int, ...]:
    return tuple(sorted(RANK_OF[c] for c in ids))


def listed_sets(hand, plays) -> set[tuple]:
    """Every (reading, ranks) a listing allows: each core with every allowed choice of extras."""
    out = set()
    for play in plays:
        candidates = extra_candidates(hand, play)
        for k in range(play.extras + 1):
            for extras in set(combinations(sorted(candidates), k)):
                full = play.with_extras(extras)
                out.add((full.reading, ranks(full.cards)))
    return out
