"""The shapes of ratings, profiles and the leaderboard, built from what ratings.selectors
return."""

from django.conf import settings

from ratings.models import Rating, RatingChange
from ratings.selectors import Profile, recent


def rating_figures(rating: Rating) -> dict:
    """A rating with its uncertainty: mu ± sigma, the ordinal (mu - 3 sigma) that orders the
    leaderboard, and whether it is provisional (too few matches to say much yet)."""
    return {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal,
            "provisional": rating.matches < settings.RATING_PROVISIONAL_MATCHES,
            "matches": rating.matches, "wins": rating.wins}


def player(rating: Rating) -> dict:
    """Who holds a rating: a person (their id, for their profile) or a bot level."""
    if rating.user_id is None:
        return {"id": None, "name": None, "guest": False, "bot_level": rating.bot_level}
    return {"id": rating.user_id, "name": rating.user.name, "guest": rating.user.is_guest,
            "bot_level": None}


def board_entry(rating: Rating, rank: int) -> dict:
    return {"rank": rank, "rating": rating.pk, "player": player(rating),
            **rating_figures(rating)}


def change_summary(change: RatingChange) -> dict:
    return {"match": change.match_id, "at": change.created_at, "mu": change.mu,
            "sigma": change.sigma, "ordinal": change.ordinal, "delta": change.delta}


def profile_view(found: Profile) -> dict:
    user, ratings = found.user, found.ratings
    by_id = {r.pk: r for r in ratings}
    return {
        "id": user.pk, "name": user.name, "guest": user.is_guest, "joined": user.date_joined,
        "matches": sum(r.matches for r in ratings), "wins": sum(r.wins for r in ratings),
        "ratings": [{"ruleset": r.ruleset, **rating_figures(r),
                     "average_score": r.points / r.matches if r.matches else None,
                     "history": [change_summary(c) for c in found.history[r.pk]]}
                    for r in ratings],
        "recent": [{"match": c.match_id, "ruleset": by_id[c.rating_id].ruleset,
                    "at": c.created_at, "place": c.rank, "sides": c.sides,
                    "won": c.rank == 1, "left": c.left, "points": c.points, "delta": c.delta}
                   for c in recent(found)],
    }
