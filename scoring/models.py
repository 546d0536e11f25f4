"""The ledger: one entry per (round, seat), integer points; every round sums to zero."""

from django.db import models


class ScoreEntry(models.Model):
    round = models.ForeignKey("games.Round", on_delete=models.CASCADE, related_name="score_entries")
    seat = models.PositiveSmallIntegerField()
    delta = models.IntegerField()
    breakdown = models.JSONField(default=dict, help_text="the engine's itemised settlement")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round", "seat"]
        verbose_name_plural = "score entries"
        constraints = [
            models.UniqueConstraint(fields=["round", "seat"], name="score_entry_unique_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.delta:+d} for seat {self.seat} in round {self.round_id}"
