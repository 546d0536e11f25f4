"""A match as stored: the move log is the truth, the snapshot a cache of it (see
games.engine.replay). Every write goes through games.services."""

from django.conf import settings
from django.db import models

# The bot levels a seat may have; the bots app plays each of them for every ruleset.
BOT_LEVELS = ("random", "normal", "hard")


class Match(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting"  # open human seats still to be filled
        ACTIVE = "active"
        FINISHED = "finished"

    ruleset = models.CharField(max_length=20, db_index=True)
    options = models.JSONField(help_text="as validated by the ruleset, defaults filled in")
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.WAITING, db_index=True
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="owned_matches"
    )
    invite_code = models.CharField(max_length=12, unique=True)
    # Bumped by every accepted write; clients send it back as `expected_version`.
    version = models.PositiveIntegerField(default=0)
    snapshot = models.JSONField(null=True, blank=True, help_text="ruleset.to_json(state)")
    round_number = models.PositiveIntegerField(default=0)
    current_round = models.ForeignKey(
        "Round", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    round_moves = models.PositiveIntegerField(default=0, help_text="moves in the current round")
    # The seat whose action is awaited (None between rounds, before the start, after the end),
    # kept beside the snapshot so bots and lists need not decode it.
    to_act = models.PositiveSmallIntegerField(null=True, blank=True)
    last_event_seq = models.PositiveIntegerField(default=0)
    # Fixed at creation; kept here so the write path knows a bot's turn without reading seats.
    bot_seats = models.JSONField(default=list, help_text="indices of the bot seats")
    standings = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "matches"
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return f"{self.ruleset} match {self.pk} ({self.status})"


class Seat(models.Model):
    class Kind(models.TextChoices):
        HUMAN = "human"
        BOT = "bot"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=5, choices=Kind.choices)
    # A human seat with no user is open: someone may join it with the invite code.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
    )
    bot_level = models.CharField(max_length=10, blank=True)
    score = models.IntegerField(default=0)
    eliminated = models.BooleanField(default=False)
    # The match's status, copied here so that a person's matches are listed, filtered by status
    # and paged from one index, however many they have.
    match_status = models.CharField(max_length=10, choices=Match.Status.choices,
                                    default=Match.Status.WAITING)

    class Meta:
        ordering = ["match", "index"]
        indexes = [
            models.Index(fields=["user", "-match"], name="seat_user_matches"),
            models.Index(fields=["user", "match_status", "-match"], name="seat_user_status"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="seat_unique_index"),
            models.UniqueConstraint(
                fields=["match", "user"],
                condition=models.Q(user__isnull=False),
                name="seat_one_per_user",
            ),
        ]

    def __str__(self) -> str:
        who = self.user or (f"bot ({self.bot_level})" if self.kind == "bot" else "open")
        return f"seat {self.index}: {who}"


class Round(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    # Secret while the round runs; its SHA-256 is public from the start so anyone can check
    # the deal afterwards.
    seed = models.CharField(max_length=64)
    seed_hash = models.CharField(max_length=64)
    seating = models.JSONField(default=list, help_text="seats in turn order as played")
    result = models.JSONField(null=True, blank=True, help_text="ruleset.round_result")
    final_view = models.JSONField(
        null=True, blank=True, help_text="ruleset.full_view at the round's end: every hand"
    )
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="round_unique_number"),
        ]

    def __str__(self) -> str:
        return f"round {self.number} of match {self.match_id}"

    @property
    def is_over(self) -> bool:
        return self.ended_at is not None


class Move(models.Model):
    class Actor(models.TextChoices):
        HUMAN = "human"
        BOT = "bot"
        AUTO = "auto"  # the engine's forced action (a pass with no legal answer)

    # The match too, not only the round: the admin lists and replays a match's moves in one query.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField(help_text="Action.to_dict()")
    actor = models.CharField(max_length=5, choices=Actor.choices)
    # The match version this move produced: the admin replays "up to version N".
    version = models.PositiveIntegerField()
    # The client's Idempotency-Key of the act that made this move ("": none): a retry with it is
    # answered without acting again.
    idempotency_key = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["round", "seq"], name="move_unique_seq"),
            models.UniqueConstraint(fields=["match", "seat", "idempotency_key"],
                                    condition=~models.Q(idempotency_key=""),
                                    name="move_unique_idempotency_key"),
        ]

    def __str__(self) -> str:
        return f"move {self.seq} of round {self.round_id}: seat {self.seat} {self.action}"


class Event(models.Model):
    """Public facts in order (engine events plus the service's own): what polling clients read."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    round_number = models.PositiveIntegerField(default=0)
    version = models.PositiveIntegerField()
    data = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="event_unique_seq"),
        ]

    def __str__(self) -> str:
        return f"event {self.seq} of match {self.match_id}: {self.data.get('type')}"
