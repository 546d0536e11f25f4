"""Reads of ratings: a person's profile and a ruleset's leaderboard, each a fixed number of
indexed queries whatever the number of rated players (bench/ratings.py measures it)."""

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Q

from games.errors import NotFound
from ratings.models import Rating, RatingChange

HISTORY = 20  # rating changes shown per ruleset, newest first
RECENT = 10  # recent matches shown, all rulesets together


@dataclass(frozen=True)
class Profile:
    user: object
    ratings: list[Rating]
    history: dict[int, list[RatingChange]]  # by rating id, newest first


def profile(user_id: int) -> Profile:
    """A person's ratings with their latest changes: one query for the person, one for the
    ratings, one per ruleset rated (its changes, from its own index)."""
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None:
        raise NotFound("no such player")
    ratings = list(Rating.objects.filter(user=user).order_by("ruleset"))
    history = {r.pk: list(r.changes.order_by("-id")[:HISTORY])
               for r in ratings}
    return Profile(user, ratings, history)


def recent(found: Profile) -> list[RatingChange]:
    """The person's latest rated matches, every ruleset's history merged."""
    changes = [c for changes in found.history.values() for c in changes]
    return sorted(changes, key=lambda c: c.pk, reverse=True)[:RECENT]


def leaderboard(ruleset: str, after: int | None, limit: int) -> list[Rating]:
    """A page of `ruleset`'s ratings, best first (ordinal, then the later rating), after the
    rating `after` (a keyset page: read from the index where the previous one ended, however
    deep). A rating the page starts after that has since moved is taken where it stands now.
    Deactivated accounts are left out, as their profiles are."""
    board = (Rating.objects.filter(Q(user__isnull=True) | Q(user__is_active=True),
                                   ruleset=ruleset)
             .select_related("user").order_by("-ordinal", "-id"))
    if after is not None:
        mark = Rating.objects.filter(pk=after, ruleset=ruleset).values_list("ordinal",
                                                                          flat=True).first()
        if mark is None:
            raise NotFound("no such rating on this leaderboard", field="after")
        # The first condition alone is what the index answers; the second drops the ties
        # already shown.
        board = board.filter(ordinal__lte=mark).filter(Q(ordinal__lt=mark) | Q(id__lt=after))
    return list(board[:limit])
