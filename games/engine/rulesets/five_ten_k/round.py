"""The flow of a 510k round: deal and cut, bids (包庄), teams and the seat swap, tricks, finishing
order, round end and settlement. Every function takes values and returns new ones."""

import random

from games.engine.actions import Action, Bid, Cut, Pass, Play
from games.engine.cards import PER_DECK, RANK_OF, wire
from games.engine.combos import Reading
from games.engine.errors import IllegalAction
from games.engine.rulesets.five_ten_k import settle as settlement
from games.engine.rulesets.five_ten_k.combos import (
    PACK,
    beats,
    points_of,
    rank_counts,
    readings_of,
)
from games.engine.rulesets.five_ten_k.listing import answer_plays, lead_plays
from games.engine.rulesets.five_ten_k.state import Match, Options, Round, TablePlay

HAND_SIZE = 22


def deal_size(options: Options) -> int:
    return HAND_SIZE * options.players


def new_round(match: Match, seed: str) -> Round:
    """Shuffle; the cutter (seat 0, later the last 上游) is to act. The seat the deal starts
    at is drawn too, after the cut a `Cut(None)` takes: the cutter chooses which card turns up,
    never who receives it."""
    rng = random.Random(seed)
    deck = list(PACK)
    rng.shuffle(deck)
    last = match.round
    players = match.options.players
    return Round(
        number=1 if last is None else last.number + 1,
        cutter=0 if last is None else last.finished[0],
        seating=tuple(range(players)) if last is None else last.seating,
        deck=tuple(deck),
        random_cut=rng.randrange(deal_size(match.options)),
        phase="cut",
        to_act=0 if last is None else last.finished[0],
        hands=((),) * players,
        captured=(0,) * players,
        xi_played=((),) * players,
        deal_start=rng.randrange(players),
    )


def _after(rnd: Round, seat: int, steps: int = 1) -> int:
    """The seat `steps` places after `seat` in this round's turn order."""
    seating = rnd.seating
    return seating[(seating.index(seat) + steps) % len(seating)]


def _next_holder(rnd: Round, seat: int) -> int:
    """The next seat after `seat` in turn order that still holds cards."""
    for step in range(1, len(rnd.seating) + 1):
        other = _after(rnd, seat, step)
        if rnd.hands[other]:
            return other
    raise AssertionError("nobody holds cards")  # the round ends before this can happen


def cut(match: Match, rnd: Round, seat: int, action: Cut) -> tuple[Round, list[dict]]:
    size = deal_size(match.options)
    position = rnd.random_cut if action.position is None else action.position
    if not 0 <= position < size:
        raise IllegalAction(
            "invalid_action", f"the cut position is 0..{size - 1}", position=position
        )
    players = match.options.players
    # Card k of the shuffled order goes to the seat k + 1 + deal_start places after the cutter:
    # whatever the position, the 明牌's holder is as random as deal_start.
    hands = [[] for _ in range(players)]
    first = 1 + rnd.deal_start
    for k, card in enumerate(rnd.deck[:size]):
        hands[_after(rnd, seat, k + first)].append(card)
    holder = _after(rnd, seat, position + first)
    face_up = rnd.deck[position]
    rnd = rnd._replace(
        deck=(),
        bottom=rnd.deck[size:],
        hands=tuple(tuple(sorted(h)) for h in hands),
        cut_position=position,
        face_up=face_up,
        holder=holder,
        phase="bid",
        to_act=holder,
    )
    events = [
        {"type": "cut", "seat": seat, "position": position, "face_up": wire(face_up),
         "holder": holder}
    ]
    if players == 2:
        rnd, more = _start_play(rnd, holder, holder, ((holder,), (1 - holder,)), None)
        events += more
    return rnd, events


def bid(match: Match, rnd: Round, seat: int, action: Bid) -> tuple[Round, list[dict]]:
    rnd = rnd._replace(bids=rnd.bids + ((seat, action.solo),))
    events = [{"type": "bid", "seat": seat, "solo": action.solo}]
    if action.solo:
        defenders = tuple(s for s in rnd.seating if s != seat)
        rnd, more = _start_play(rnd, seat, seat, ((seat,), tuple(sorted(defenders))), None)
    elif len(rnd.bids) < match.options.players:
        return rnd._replace(to_act=_after(rnd, seat)), events
    else:
        rnd, more = _teams_by_twin(rnd)
    return rnd, events + more


def _teams_by_twin(rnd: Round) -> tuple[Round, list[dict]]:
    """Nobody went solo: the holder of the 明牌's twin partners its holder, moved opposite it."""
    holder = rnd.holder
    twin = (rnd.face_up + PER_DECK) % (2 * PER_DECK)
    twin_holder = next(s for s, hand in enumerate(rnd.hands) if twin in hand)
    opposite = _after(rnd, holder, 2)
    swapped = None
    seating = rnd.seating
    if twin_holder not in (holder, opposite):
        swapped = (twin_holder, opposite)
        seating = tuple(
            opposite if s == twin_holder else twin_holder if s == opposite else s for s in seating
        )
    rnd = rnd._replace(seating=seating)
    partners = tuple(sorted((holder, _after(rnd, holder, 2))))
    others = tuple(sorted(s for s in seating if s not in partners))
    return _start_play(rnd, holder, None, (partners, others), swapped)


def _start_play(
    rnd: Round, leader: int, banker: int | None, teams, swapped
) -> tuple[Round, list[dict]]:
    """Teams are (leader's side, the other side); the banker leads, else the face-up holder."""
    rnd = rnd._replace(phase="play", to_act=leader, banker=banker, teams=teams)
    event = {"type": "teams", "banker": banker, "teams": [list(t) for t in teams],
             "seating": list(rnd.seating), "swapped": None if swapped is None else list(swapped),
             "leader": leader}
    return rnd, [event]


def _check_cards(hand: tuple[int, ...], cards: tuple[int, ...]) -> None:
    if not cards:
        raise IllegalAction("not_a_combination", "a play needs at least one card")
    for card in cards:
        if not isinstance(card, int) or not 0 <= card < len(RANK_OF):
            raise IllegalAction("unknown_card", f"{card!r} is not a card id", card=repr(card))
    if len(set(cards)) != len(cards):
        raise IllegalAction("duplicate_card", "a card appears twice in the play")
    missing = [c for c in cards if c not in hand]
    if missing:
        raise IllegalAction(
            "card_not_in_hand", "the play holds cards not in your hand", cards=missing
        )


def choose_reading(cards: tuple[int, ...], previous: Reading | None, named: Reading | None):
    """The one reading `cards` are played as, on `previous` (None: a free lead)."""
    found = readings_of(cards)
    if not found:
        raise IllegalAction("not_a_combination", "these cards are not a 510k combination")
    if named is not None:
        found = [r for r in found if r.named_by(named)]
        if not found:
            raise IllegalAction(
                "not_a_combination", "the cards cannot be read as named", reading=named.to_dict()
            )
    legal = found if previous is None else [r for r in found if beats(r, previous)]
    if not legal:
        raise IllegalAction(
            "does_not_beat", "the play does not beat the table", previous=previous.to_dict()
        )
    if len(legal) > 1:
        raise IllegalAction(
            "ambiguous_play", "name one of the readings", readings=[r.to_dict() for r in legal]
        )
    return legal[0]


def play(match: Match, rnd: Round, seat: int, action: Play) -> tuple[Round, list[dict]]:
    hand = rnd.hands[seat]
    cards = tuple(action.cards)
    _check_cards(hand, cards)
    previous = rnd.trick[-1].reading if rnd.trick else None
    reading = choose_reading(cards, previous, action.reading)
    after = played(rnd, seat, cards, reading)
    events = [{"type": "play", "seat": seat, "cards": [wire(c) for c in cards],
               "reading": reading.to_dict()}]
    if not after.hands[seat]:
        events.append({"type": "finished", "seat": seat, "place": len(after.finished)})
    if not after.trick:  # the round is over: the last trick is taken
        events.append(_trick_won(seat, rnd, after))
    return after, events


def played(rnd: Round, seat: int, cards: tuple[int, ...], reading: Reading) -> Round:
    """`seat` plays `cards` (checked legal, read as `reading`). No events: the search's rollouts
    call it on every step, and `play` tells them from the rounds before and after."""
    hand = rnd.hands[seat]
    hands = list(rnd.hands)
    hands[seat] = tuple(c for c in hand if c not in cards)
    xi_played = rnd.xi_played
    if reading.type == "bomb" and settlement.xi_tier(reading.rank, reading.length):
        xi_played = list(xi_played)
        xi_played[seat] += ((reading.rank, reading.length),)
        xi_played = tuple(xi_played)
    finished = rnd.finished
    if not hands[seat]:
        finished += (seat,)
    rnd = rnd._replace(
        hands=tuple(hands),
        trick=rnd.trick + (TablePlay(seat, cards, reading),),
        passes=0,
        finished=finished,
        xi_played=xi_played,
    )
    if _round_done(rnd):
        return _take_trick(rnd)._replace(phase="over", to_act=None)
    return rnd._replace(to_act=_next_holder(rnd, seat))


def pass_turn(rnd: Round, seat: int) -> tuple[Round, list[dict]]:
    if not rnd.trick:
        raise IllegalAction("must_play", "you lead: play something")
    after = passed(rnd, seat)
    events = [{"type": "pass", "seat": seat}]
    if not after.trick:
        events.append(_trick_won(rnd.trick[-1].seat, rnd, after))
    return after, events


def passed(rnd: Round, seat: int) -> Round:
    """`seat` passes (a trick is on the table); without events, as `played`."""
    owner = rnd.trick[-1].seat
    answering = sum(1 for s, hand in enumerate(rnd.hands) if hand and s != owner)
    if rnd.passes + 1 < answering:
        return rnd._replace(passes=rnd.passes + 1, to_act=_next_holder(rnd, seat))
    rnd = _take_trick(rnd)
    return rnd._replace(to_act=owner if rnd.hands[owner] else _next_holder(rnd, owner))


def _take_trick(rnd: Round) -> Round:
    """The trick goes to its latest play's player: their seat keeps its 5s, 10s and Ks."""
    owner = rnd.trick[-1].seat
    captured = list(rnd.captured)
    captured[owner] += sum(points_of(p.cards) for p in rnd.trick)
    return rnd._replace(trick=(), passes=0, captured=tuple(captured))


def _trick_won(owner: int, before: Round, after: Round) -> dict:
    return {"type": "trick_won", "seat": owner,
            "points": after.captured[owner] - before.captured[owner]}


def _round_done(rnd: Round) -> bool:
    """A whole side has finished, or only one player still holds cards."""
    hands = rnd.hands
    if sum(1 for hand in hands if hand) <= 1:
        return True
    return any(all(not hands[s] for s in team) for team in rnd.teams)


def held_xi(hand) -> tuple[tuple[int, int], ...]:
    """Every 喜炸 still in a hand: (rank, count) of each rank held 5+ times, or 4+ for twos."""
    return tuple((r, n) for r, n in sorted(rank_counts(hand).items()) if settlement.xi_tier(r, n))


def xi_bombs(rnd: Round) -> list[list[tuple[int, int]]]:
    """Per seat, the 喜 bombs that count: played this round and held at its end."""
    return [list(rnd.xi_played[s]) + list(held_xi(hand)) for s, hand in enumerate(rnd.hands)]


def settle(options: Options, rnd: Round) -> dict:
    return settlement.settle(
        players=options.players,
        base_score=options.base_score,
        dry=options.dry,
        xi_mode=options.xi_mode,
        banker=rnd.banker,
        teams=rnd.teams,
        finish_order=rnd.finished,
        captured=rnd.captured,
        xi_bombs=xi_bombs(rnd),
    )


def legal_actions(match: Match, seat: int) -> list[Action]:
    rnd = match.round
    if rnd is None or rnd.to_act != seat:
        return []
    if rnd.phase == "cut":
        return [Cut()]
    if rnd.phase == "bid":
        return [Bid(True), Bid(False)]
    if not rnd.trick:
        return lead_plays(rnd.hands[seat])
    return [*answer_plays(rnd.hands[seat], rnd.trick[-1].reading), Pass()]


def forced_action(match: Match) -> Action | None:
    """A pass for a seat that must answer and cannot."""
    rnd = match.round
    if rnd is None or rnd.phase != "play" or not rnd.trick:
        return None
    if answer_plays(rnd.hands[rnd.to_act], rnd.trick[-1].reading):
        return None
    return Pass()


def apply(match: Match, seat: int, action: Action) -> tuple[Match, list[dict]]:
    rnd = match.round
    if rnd is None or rnd.phase == "over":
        over = rnd is not None and rnd.number >= match.options.rounds
        code = "match_over" if over else "round_over"
        raise IllegalAction(code, "no round is in play; start the next one")
    if seat != rnd.to_act:
        raise IllegalAction("not_your_turn", f"seat {rnd.to_act} is to act", to_act=rnd.to_act)
    phase = rnd.phase
    if isinstance(action, Cut) and phase == "cut":
        rnd, events = cut(match, rnd, seat, action)
    elif isinstance(action, Bid) and phase == "bid":
        rnd, events = bid(match, rnd, seat, action)
    elif isinstance(action, (Play, Pass)) and phase != "play":
        raise IllegalAction("wrong_phase", f"the round is in its {phase} phase", phase=phase)
    elif isinstance(action, Play):
        rnd, events = play(match, rnd, seat, action)
    elif isinstance(action, Pass):
        rnd, events = pass_turn(rnd, seat)
    else:
        raise IllegalAction(
            "invalid_action", f"{type(action).__name__} is not an action of the {phase} phase",
            phase=phase,
        )
    match = match._replace(round=rnd)
    if rnd.phase == "over":
        match, more = _end_round(match)
        events += more
    return match, events


def step(match: Match, seat: int, action: Action) -> Match:
    """`apply`'s new state for a listed action (the search's rollouts): no checks, no events,
    and a round the action ends left unsettled (the search settles it once, for its
    value)."""
    rnd = match.round
    if type(action) is Play:
        rnd = played(rnd, seat, tuple(action.cards), action.reading)
    elif type(action) is Pass:
        rnd = passed(rnd, seat)
    else:
        return apply(match, seat, action)[0]  # a cut or a bid: once a round
    return match._replace(round=rnd)


def _end_round(match: Match) -> tuple[Match, list[dict]]:
    result = settle(match.options, match.round)
    scores = tuple(s + d for s, d in zip(match.scores, result["deltas"], strict=True))
    match = match._replace(scores=scores)
    events = [{"type": "round_end", "round": match.round.number, "deltas": result["deltas"],
               "scores": list(scores), "winner_seats": result["winner_seats"],
               "level": result["level"]}]
    if match.round.number >= match.options.rounds:
        events.append({"type": "match_end", "scores": list(scores), "standings": standings(scores)})
    return match, events


def sides(match: Match) -> list[dict]:
    """With 4 players, the two sides of the last round (partners, or 包庄's one against three),
    ranked by their seats' match scores summed; with 2, each seat, by its score."""
    rnd, scores = match.round, match.scores
    teams = [list(t) for t in rnd.teams] if rnd is not None and len(scores) == 4 else []
    if not teams:
        teams = [[seat] for seat in range(len(scores))]
    totals = [sum(scores[s] for s in team) for team in teams]
    order = sorted(range(len(teams)), key=lambda i: (-totals[i], teams[i]))
    return [{"seats": teams[i], "rank": 1 + sum(1 for t in totals if t > totals[i])}
            for i in order]


def standings(scores) -> list[dict]:
    """Best first; equal scores share a rank (and keep seat order)."""
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    return [
        {"seat": s, "score": scores[s], "rank": 1 + sum(1 for x in scores if x > scores[s])}
        for s in order
    ]
