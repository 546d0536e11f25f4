"""Rating a finished match, inside the transaction that finished it (games.hooks): once, whoever
tries again, since a match's changes are unique per (match, rating) and a match whose players'
ratings have one is not rated again.

Who is who: a person's seat is that person, a bot's seat its level (every bot of a level is one
player, per ruleset). Sides and their places are the ruleset's (Ruleset.sides); a side with a
person who left (their seat still in 托管 because their clock ran out, when the match ended) is
placed after every side without one. A bot level with several seats in a match moves by the mean
of what each of its seats would have moved it.

One statement of its own when every player has a rating already (they are read and locked); the
changes are written with the match's own write, in its one statement on PostgreSQL: the match's
last act pays little for it (bench/ratings.py).
"""

from collections import defaultdict
from statistics import fmean

from django.db.models import Exists, OuterRef, Q
from openskill.models import PlackettLuce

from games import hooks
from games.engine.registry import get_ruleset
from games.models import Seat
from games.services.progress import AUTOPLAY_TIMEOUT
from ratings.models import Rating, RatingChange

MODEL = PlackettLuce()
RATED = ("mu", "sigma", "ordinal", "matches", "wins", "points")  # what a match changes
Player = tuple[int | None, str]  # (user id, bot level): whose rating a seat plays for


def ordinal(mu: float, sigma: float) -> float:
    return MODEL.rating(mu=mu, sigma=sigma).ordinal()


def player_of(seat: Seat) -> Player:
    return (None, seat.bot_level) if seat.kind == Seat.Kind.BOT else (seat.user_id, "")


def places(sides: list[dict], left: set[int]) -> list[int]:
    """Each side's place: the ruleset's, except that sides with a person who left come after
    every other (among themselves, in the ruleset's order); equal places stay equal."""
    keys = [(bool(left & set(side["seats"])), side["rank"]) for side in sides]
    return [1 + sum(1 for other in keys if other < key) for key in keys]


def match_points(match, seats: list[Seat]) -> list[int]:
    """Each seat's points in the match: its final score less the score it started with (the
    sum of its rounds' deltas)."""
    engine = get_ruleset(match.ruleset)
    humans = [seat.kind == Seat.Kind.HUMAN for seat in seats]
    start = engine.table(engine.new_match(match.options, humans)).scores
    return [seat.score - start[seat.index] for seat in seats]


def match_rate(match, seats: list[Seat], sides: list[dict]) -> hooks.Writes | None:
    """The match's rating changes and its players' new ratings, for the match's own write
    (None: rated already)."""
    seats_of: dict[Player, list[int]] = defaultdict(list)
    for seat in seats:
        seats_of[player_of(seat)].append(seat.index)
    ratings = _locked_ratings(match, list(seats_of))
    if ratings is None:
        return
    left = {int(seat) for seat, why in match.autoplay.items() if why == AUTOPLAY_TIMEOUT}
    place_of = {s: place for side, place in zip(sides, places(sides, left), strict=True)
                for s in side["seats"]}
    points = match_points(match, seats)
    teams = [[MODEL.rating(mu=ratings[player_of(seats[s])].mu,
                           sigma=ratings[player_of(seats[s])].sigma) for s in side["seats"]]
             for side in sides]
    rated = MODEL.rate(teams, ranks=[place_of[side["seats"][0]] for side in sides])
    after = {s: new for side, team in zip(sides, rated, strict=True)
             for s, new in zip(side["seats"], team, strict=True)}
    changes = []
    for player, indices in seats_of.items():
        rating = ratings[player]
        best = min(indices, key=lambda s: (place_of[s], s))
        before = rating.ordinal
        rating.mu += fmean(after[s].mu - rating.mu for s in indices)
        rating.sigma = fmean(after[s].sigma for s in indices)
        rating.ordinal = ordinal(rating.mu, rating.sigma)
        rating.matches += 1
        rating.wins += place_of[best] == 1
        rating.points += points[best]
        changes.append({"rating_id": rating.pk, "match_id": match.pk, "seat": best,
                        "rank": place_of[best], "sides": len(sides), "left": best in left,
                        "points": points[best], "mu": rating.mu, "sigma": rating.sigma,
                        "ordinal": rating.ordinal, "delta": rating.ordinal - before})
    updated = [{"id": r.pk, **{name: getattr(r, name) for name in RATED}}
               for r in ratings.values()]
    return hooks.Writes([(RatingChange, changes)], [(Rating, (*RATED, "updated_at"), updated)])


def _locked_ratings(match, players: list[Player]) -> dict[Player, Rating] | None:
    """The players' ratings, locked in id order (two matches finishing at once that share a
    bot level wait for each other and never deadlock), made at the model's start where
    missing; None if this match rated them already."""
    users = [user for user, _ in players if user is not None]
    levels = [level for user, level in players if user is None]
    wanted = (Rating.objects.select_for_update().order_by("id")
              .filter(Q(user_id__in=users) | Q(user__isnull=True, bot_level__in=levels),
                      ruleset=match.ruleset)
              .annotate(rated=Exists(RatingChange.objects.filter(match=match,
                                                                 rating=OuterRef("pk")))))
    found = list(wanted)
    if any(r.rated for r in found):
        return None
    if len(found) < len(players):
        have = {(r.user_id, r.bot_level) for r in found}
        start = MODEL.rating()
        Rating.objects.bulk_create(
            [Rating(ruleset=match.ruleset, user_id=user, bot_level=level, mu=start.mu,
                    sigma=start.sigma, ordinal=start.ordinal())
             for user, level in players if (user, level) not in have],
            ignore_conflicts=True)  # another match may have made one since
        found = list(wanted.all())
    return {(r.user_id, r.bot_level): r for r in found}
