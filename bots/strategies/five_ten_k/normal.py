"""510k `normal`: a sound heuristic. Shed low cards first in the longest cheap combinations, keep
2s, aces and bombs for tricks worth them, never beat the partner's winning play unless it empties
the hand, spend high cards and bombs in proportion to the points on the table and to how close an
opponent is to finishing; never bid 包庄 (see `bid`).

It works on the seat's observation (games.engine.rulesets.five_ten_k.observation), built from the
engine state the same way for a bot's turn and in the hard bot's rollouts.
"""

import random

from bots.strategies.going_out import going_out
from games.engine.actions import Action, Bid, Cut, Pass, Play
from games.engine.cards import ACE, RANK_OF, TWO
from games.engine.rulesets.five_ten_k.combos import POINTS, points_of, rank_counts
from games.engine.rulesets.five_ten_k.listing import extra_candidates
from games.engine.rulesets.five_ten_k.observation import Observation, trick_points
from games.engine.rulesets.five_ten_k.settle import XI_PAYS, xi_tier

# What spending one card of a rank costs: high cards win the tricks that matter later.
KEEP = (0, 0, 0, 0, 0, 0, 0.5, 1, 1.5, 2, 3, 4.5, 7)
JUNK = 1  # extras (带牌) are cards worth at most this
SHED = 1.2  # the gain of each card a play sheds
BOMB_COST = 20  # a bomb is kept for a trick worth it
BOMB_SIZE_COST = 3  # per card above four
# Leaving part of a rank behind: a broken pair or triple is harder to shed, a broken bomb is lost.
BREAK = {1: 0, 2: 2, 3: 3}
BREAK_BOMB = 12
# A 喜 bomb pays its 喜分 whether played whole or held at the round's end: breaking it loses that
# (each other seat pays 1, 2, 4... per tier), worth far more than any trick. This much per unit.
XI_LOST = 40
XI_UNITS = XI_PAYS["multiplicative"]
POINT_EXPOSURE = 0.1  # leading point cards offers them to whoever wins the trick
NEAR_FINISH = 3  # an opponent with this many cards or fewer is about to finish
URGENT = 15
SHORT_HAND = 6
# An answer is worth playing when its cost is at most 2 + this much per point on the table: an
# ace for a K, a 2 for 10 points, a bomb for 20 (measured: ¼ per point passed about one point trick
# a seat-round it could take, and lost to the greedy floor).
POINT_VALUE = 1.0
# Per point card in an answer below an ace: an opponent after it beats it and takes the points.
GIFT = 0.3
# Taking the lead is worth this much by itself, per table size: a pass lets the trick's owner
# lead again, shedding another combination (with two players, always the opponent, and the first
# out takes the round's 20 rank points from the other). Two-player rounds won against greedy,
# 1,000 each (tempo 0 / 4 / 8 / 14 / 30 / 60): 53 / 62 / 67 / 69 / 71 / 71 %. With four players, 4
# gained nothing clear and fed a K into an opponent's 9 (a known blunder, a test): none.
TEMPO = {4: 0.0, 2: 30.0}


def choose(seen: Observation, rng: random.Random) -> Action:
    if seen.phase == "cut":
        return Cut()  # where it cuts decides nothing: the position drawn with the deal
    if seen.phase == "bid":
        return bid(seen.hand)
    return play(seen)


def bid(hand) -> Bid:
    """Never 包庄. Measured over 20,000 deals with `normal` on every seat, a banker wins at most
    about 35 % of rounds at every level of bombs, 2s and aces (more bombs won less: they are kept
    for tricks worth them), and about 55 % with the very best hands against three while the same
    hand wins far more often with a partner; a lost 包庄 pays three defenders."""
    return Bid(False)


def junk_extras(hand, core: Play, counts: dict[int, int]) -> tuple[int, ...]:
    """Up to `core.extras` low cards nothing else needs: lone cards first (least kept, no points,
    lowest), then whole low pairs; never a card of a triple or a bomb."""
    if not core.extras:
        return ()
    singles, pairs = [], {}
    for card in extra_candidates(hand, core):
        rank = RANK_OF[card]
        if KEEP[rank] > JUNK:
            continue
        if counts[rank] == 1:
            singles.append(card)
        elif counts[rank] == 2:
            pairs.setdefault(rank, []).append(card)
    singles.sort(key=lambda c: (KEEP[RANK_OF[c]], RANK_OF[c] in POINTS, RANK_OF[c]))
    chosen = singles[: core.extras]
    for rank in sorted(pairs):
        if len(chosen) + 2 <= core.extras:
            chosen.extend(pairs[rank])
    return tuple(chosen)


def cost(play: Play, extras: tuple[int, ...], counts: dict[int, int]) -> float:
    """What a play spends: the cards' worth, broken groups, bombs; less what it sheds."""
    used = rank_counts(play.cards)
    total = sum(KEEP[RANK_OF[c]] for c in play.cards) + sum(KEEP[RANK_OF[c]] for c in extras)
    bomb = play.reading.type == "bomb"
    for rank, n in used.items():
        held = counts[rank]
        if held > n:
            total += BREAK_BOMB if held >= 4 else BREAK[held]
            kept = XI_UNITS[xi_tier(rank, held - n)] + (XI_UNITS[xi_tier(rank, n)] if bomb else 0)
            total += XI_LOST * (XI_UNITS[xi_tier(rank, held)] - kept)
    if bomb:
        total += BOMB_COST + BOMB_SIZE_COST * (play.reading.length - 4)
    return total - SHED * (len(play.cards) + len(extras))


def play(seen: Observation) -> Action:
    return play_on(seen.hand, seen.legal, seen.counts, seen.side, seen.trick,
                   seen.options.players)


def play_on(hand, legal, counts_of: tuple[int, ...], side, trick, players: int) -> Action:
    """`play` on what it reads of the observation: the hand, its listed actions, every seat's
    count of cards, the seat's side, the trick and the table's size (the rollouts pass them from
    the state: building a whole observation at every step cost a tenth of a search's CPU)."""
    counts = rank_counts(hand)
    plays = [a for a in legal if isinstance(a, Play)]
    if not plays:
        return Pass()
    out = going_out(hand, plays, extra_candidates)
    if out is not None:
        return out  # it empties the hand, with any extras: nothing is worth more
    options = [(p, junk_extras(hand, p, counts)) for p in plays]
    opponents = [n for s, n in enumerate(counts_of) if s not in side and n]
    threatened = bool(opponents) and min(opponents) <= NEAR_FINISH
    if not trick:
        best = min(options, key=lambda o: _lead_cost(o, counts, threatened))
        return best[0].with_extras(best[1])
    top_seat = trick[-1].seat
    if top_seat in side:
        return Pass()  # the partner is winning this trick
    best = min(options, key=lambda o: _answer_cost(o, counts))
    threshold = 2 + POINT_VALUE * trick_points(trick) + TEMPO[players]
    if counts_of and counts_of[top_seat] <= NEAR_FINISH:
        threshold += URGENT
    if len(hand) <= SHORT_HAND:
        threshold += SHORT_HAND
    if _answer_cost(best, counts) <= threshold:
        return best[0].with_extras(best[1])
    return Pass()


def _answer_cost(option: tuple[Play, tuple[int, ...]], counts) -> float:
    """A low play's point cards are a gift: an opponent after it beats it and takes them."""
    p, extras = option
    total = cost(p, extras, counts)
    if p.reading.type != "bomb" and p.reading.rank < ACE:
        total += GIFT * points_of(p.cards + extras)
    return total


def _lead_cost(option: tuple[Play, tuple[int, ...]], counts, threatened: bool) -> float:
    p, extras = option
    total = cost(p, extras, counts) + 0.05 * p.reading.rank
    total += POINT_EXPOSURE * points_of(p.cards + extras)
    if threatened and p.reading.type == "single" and p.reading.rank < TWO:
        total += URGENT  # a single is what an opponent about to finish can most easily beat
    return total
