"""Ratings (段位): one per player per ruleset, a person's or a bot level's, and one change per
player per rated match (the history, and what makes rating a match happen once)."""

from django.conf import settings
from django.db import models


class Rating(models.Model):
    """A player's skill in one ruleset as openskill's Plackett-Luce model estimates it: `mu`
    and its uncertainty `sigma`; `ordinal` (mu - 3 sigma) orders the leaderboard. A person's
    (`user`) or a bot level's (`bot_level`, no user): every bot of that level is one player."""

    ruleset = models.CharField(max_length=20)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True,
                             blank=True, related_name="ratings")
    bot_level = models.CharField(max_length=10, blank=True)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    matches = models.PositiveIntegerField(default=0, help_text="rated matches")
    wins = models.PositiveIntegerField(default=0, help_text="rated matches its side won")
    points = models.IntegerField(default=0, help_text="its seats' points over those matches")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["ruleset", "-ordinal", "-id"]
        indexes = [models.Index(fields=["ruleset", "ordinal", "id"], name="rating_board")]
        constraints = [
            models.UniqueConstraint(fields=["ruleset", "user"], condition=models.Q(
                user__isnull=False), name="rating_one_per_user"),
            models.UniqueConstraint(fields=["ruleset", "bot_level"], condition=models.Q(
                user__isnull=True), name="rating_one_per_bot_level"),
            models.CheckConstraint(condition=models.Q(user__isnull=True, bot_level__gt="")
                                   | models.Q(user__isnull=False, bot_level=""),
                                   name="rating_person_or_bot"),
        ]

    def __str__(self) -> str:
        who = f"user {self.user_id}" if self.user_id else f"bot {self.bot_level}"
        return f"{who} in {self.ruleset}: {self.ordinal:.2f}"


class RatingChange(models.Model):
    """What one rated match did to one rating: the rating after it, the place of the player's
    side. One per (match, rating): a match is rated once, whoever tries again."""

    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="changes")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE,
                              related_name="rating_changes")
    seat = models.PositiveSmallIntegerField(help_text="the player's seat (a bot level's first)")
    rank = models.PositiveSmallIntegerField(help_text="its side's place, 1 the best")
    sides = models.PositiveSmallIntegerField(help_text="how many sides the match had")
    left = models.BooleanField(default=False, help_text="counted last: left the match")
    points = models.IntegerField(help_text="its seats' points in the match")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    delta = models.FloatField(help_text="the ordinal's change")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["rating", "-id"]
        indexes = [models.Index(fields=["rating", "-id"], name="rating_change_history")]
        constraints = [models.UniqueConstraint(fields=["match", "rating"],
                                               name="rating_change_once")]

    def __str__(self) -> str:
        return f"{self.delta:+.2f} for rating {self.rating_id} in match {self.match_id}"
