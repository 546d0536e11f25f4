"""A match as stored: the move log is the truth, the snapshot a cache of it (see
games.engine.replay). Every write goes through games.services. Tables are the house's presets a
match may be opened from; their options are copied into the match, never referred to."""

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import models
from django.utils import timezone

# The bot levels a seat may have; the bots app plays each of them for every ruleset.
BOT_LEVELS = ("random", "normal", "hard")
# A bot seat's level when nobody chose one, and the level the server plays a person's seat at.
DEFAULT_BOT_LEVEL = "normal"
# A turn clock: seconds a person has for each decision, within these bounds; 0 is no clock.
TURN_SECONDS = (5, 300)
DEFAULT_TURN_SECONDS = 30  # when two or more people share a table and nobody chose


def turn_seconds_valid(value: int) -> None:
    if value != 0 and not TURN_SECONDS[0] <= value <= TURN_SECONDS[1]:
        raise ValidationError(f"0 (no clock) or {TURN_SECONDS[0]}..{TURN_SECONDS[1]} seconds")
MAX_BOTS_WAIT = 3600  # seconds a quick match may wait for people before bots take the seats
# The server's pace: milliseconds between its consecutive moves a person can see (0: at once).
MAX_SERVER_PACE_MS = 5000


def options_hash(options: Mapping) -> str:
    """SHA-256 of the options' canonical JSON (keys sorted, no spaces, UTF-8): equal options,
    equal hash, whichever table or client they came from."""
    canonical = json.dumps(options, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


class Table(models.Model):
    """A house rule set people pick: a ruleset with every option fixed by staff, the bots that
    take empty seats, and how long a quick match waits for people."""

    name = models.CharField(max_length=80)
    slug = models.SlugField(max_length=50, unique=True, help_text="the name clients send")
    ruleset = models.CharField(max_length=20)
    options = models.JSONField(help_text="every option, as validated by the ruleset")
    bot_levels = models.JSONField(
        default=list, help_text="one level for every bot seat, or one per seat after the first")
    allow_override = models.BooleanField(
        default=False, help_text="clients creating a match from this table may change options")
    bots_after = models.PositiveIntegerField(
        "bots after (seconds)", default=30, validators=[MaxValueValidator(MAX_BOTS_WAIT)],
        help_text=f"a quick match waits this long for people, then bots take the open seats; "
        f"0: at once (at most {MAX_BOTS_WAIT})")
    turn_seconds = models.PositiveSmallIntegerField(
        "turn clock (seconds)", null=True, blank=True, validators=[turn_seconds_valid],
        help_text=f"seconds a person has for each decision; 0: no clock; empty: none when one "
        f"person plays against bots, {DEFAULT_TURN_SECONDS} when people share the table")
    server_pace_ms = models.PositiveIntegerField(
        "server pace (ms)", null=True, blank=True,
        validators=[MaxValueValidator(MAX_SERVER_PACE_MS)],
        help_text="milliseconds between the server's consecutive moves (bots, 托管); 0: at once; "
        "empty: the house's pace (SERVER_PACE_MS)")
    active = models.BooleanField(default=True, help_text="listed and playable")
    watchable = models.BooleanField(
        default=True, help_text="anyone may watch its matches (public facts only) and replay "
        "them once finished")
    position = models.PositiveSmallIntegerField(default=0, help_text="display order, lowest "
                                                "first")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["position", "name"]

    def __str__(self) -> str:
        return self.name

    def pace_ms(self) -> int:
        """The server's pace in its matches: its own, else the house's."""
        return settings.SERVER_PACE_MS if self.server_pace_ms is None else self.server_pace_ms

    def bot_level(self, seat: int) -> str:
        """The level of the bot taking seat `seat` (1 and up)."""
        levels = self.bot_levels or [DEFAULT_BOT_LEVEL]
        return levels[(seat - 1) % len(levels)]


class RulesetDefaults(models.Model):
    """The site's options for a ruleset: a match created without a table starts from them (the
    client's own options over them)."""

    ruleset = models.CharField(max_length=20, unique=True)
    options = models.JSONField(help_text="every option, as validated by the ruleset")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "site-wide defaults"
        verbose_name_plural = "site-wide defaults"
        ordering = ["ruleset"]

    def __str__(self) -> str:
        return f"defaults for {self.ruleset}"


@dataclass(frozen=True)
class ServerTurn:
    """The server plays the seat to act: a bot seat (actor bot), or a person's seat (actor auto)
    in 托管 or whose clock ran out (the reason)."""

    seat: int
    actor: str  # Move.Actor
    reason: str  # Move.Reason, "" for a bot

    def level(self, seats: Sequence) -> str:
        """The bot level that plays it: the bot seat's own (`seats`: the match's, in order)."""
        return seats[self.seat].bot_level if self.actor == Move.Actor.BOT else DEFAULT_BOT_LEVEL


class Match(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting"  # open human seats still to be filled
        ACTIVE = "active"
        PAUSED = "paused"  # every person away (their clocks ran out): waits for one to come back
        FINISHED = "finished"
        ABORTED = "aborted"  # stopped by staff; scores stay as they were

    OPEN = (Status.WAITING, Status.ACTIVE, Status.PAUSED)  # someone may still act
    FINAL = (Status.FINISHED, Status.ABORTED)

    ruleset = models.CharField(max_length=20, db_index=True)
    options = models.JSONField(help_text="as validated by the ruleset, defaults filled in")
    # The options as they were frozen at creation, whatever their table has become since.
    options_hash = models.CharField(max_length=64, db_index=True, help_text="options_hash()")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, null=True, blank=True,
                              related_name="matches")
    # A quick match or a rematch: people may take its open seats until then, bots take the rest
    # at that time.
    bots_fill_at = models.DateTimeField(null=True, blank=True)
    # The finished match this one plays again, with the same options and seats (one each).
    rematch_of = models.OneToOneField("self", on_delete=models.SET_NULL, null=True, blank=True,
                                      related_name="rematch")
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
    # Fixed when the match starts; kept here so the write path knows a bot's turn without
    # reading seats.
    bot_seats = models.JSONField(default=list, help_text="indices of the bot seats")
    # 托管: the people's seats the server plays for now, {seat: why} ("timeout": their clock ran
    # out; "asked": they asked for it), until they take them back.
    autoplay = models.JSONField(default=dict, blank=True, help_text="seats in 托管: {seat: why}")
    # The turn clock: seconds a person has for each decision, 0 for none; None until the match
    # starts when nobody chose (it then depends on how many people sit at the table).
    turn_seconds = models.PositiveSmallIntegerField(null=True, blank=True)
    deadline_at = models.DateTimeField(null=True, blank=True,
                                       help_text="when the person to act runs out of time")
    # Milliseconds between the server's consecutive moves, so that people can follow them
    # (twice as long after a trick is taken and before a round); 0: at once.
    server_pace_ms = models.PositiveIntegerField(default=0)
    # When the server must act unless someone did first: a bot's or a 托管 seat's turn (its
    # pace, and a grace after it became due, so that the queued task normally gets there
    # first), a clock's deadline, a quick match's bots, a paused match's abandonment. The
    # recovery sweep reads it, from its own index, so a pending turn never depends on a message
    # that can be lost.
    due_at = models.DateTimeField(null=True, blank=True)
    standings = models.JSONField(null=True, blank=True)
    # Anyone may watch it (public facts only) and replay it once finished; its players and
    # staff always may. A table's matches take the table's word, an invite match its creator's.
    watchable = models.BooleanField(default=False)
    # A finished match's moves and events, once compacted, are in its RoundArchive rows.
    compacted_at = models.DateTimeField(null=True, blank=True,
                                        help_text="when its moves and events were archived")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "matches"
        ordering = ["-updated_at"]
        permissions = [("abort_match", "Can abort a stuck match"),
                       ("start_exhibition", "Can start an all-bot exhibition match")]
        indexes = [models.Index(fields=["due_at"], condition=models.Q(due_at__isnull=False),
                                name="match_due")]

    def __str__(self) -> str:
        return f"{self.ruleset} match {self.pk} ({self.status})"

    @property
    def bots_due(self) -> bool:
        """A quick match whose wait is over: its open seats are the bots' now."""
        return (self.status == self.Status.WAITING and self.bots_fill_at is not None
                and self.bots_fill_at <= timezone.now())

    def server_turn(self, now: datetime | None = None) -> ServerTurn | None:
        """Who plays the seat to act if the server does: its bot, or the server for a person's
        seat in 托管, or (only when `now` is given) for a person whose clock ran out by `now`.
        None: nobody, the person to act plays (or the match is not in play)."""
        seat = self.to_act
        if self.status != self.Status.ACTIVE or seat is None:
            return None
        if seat in self.bot_seats:
            return ServerTurn(seat, Move.Actor.BOT, "")
        if str(seat) in self.autoplay:
            return ServerTurn(seat, Move.Actor.AUTO, Move.Reason.AUTOPLAY)
        if now is not None and self.deadline_at is not None and self.deadline_at <= now:
            return ServerTurn(seat, Move.Actor.AUTO, Move.Reason.TIMEOUT)
        return None


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
    # A rematch's seat, kept for the person who held it in the finished match: open to them
    # only, until they take it, decline (a bot takes it) or the wait is over.
    reserved_for = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                     null=True, blank=True, related_name="+")
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
        AUTO = "auto"  # played by the server for a person's seat: see `reason`

    class Reason(models.TextChoices):
        FORCED = "forced"  # the engine's forced action (a pass with no legal answer)
        TIMEOUT = "timeout"  # the person's clock ran out: the seat goes into 托管
        AUTOPLAY = "autoplay"  # the seat is in 托管
        LATE = "late"  # a `hard` bot's turn started after its time budget: `normal` played it

    # The match too, not only the round: the admin lists and replays a match's moves in one query.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField(help_text="Action.to_dict()")
    actor = models.CharField(max_length=5, choices=Actor.choices)
    reason = models.CharField(max_length=8, choices=Reason.choices, blank=True,
                              help_text="why the server played it (actor auto)")
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


class Spectator(models.Model):
    """Someone watching a match now: one row per (match, person) while one of their streams of
    it is open, its time renewed as the stream goes on (a row left by a process that died is
    counted until it is stale)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="spectators")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    seen_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "user"],
                                               name="spectator_unique_user")]
        indexes = [models.Index(fields=["match", "seen_at"], name="spectator_match_seen")]

    def __str__(self) -> str:
        return f"{self.user} watching match {self.match_id}"


class RoundArchive(models.Model):
    """A finished match's round after compaction (games.archive): its moves and events, as one
    compressed document, in place of their rows. Round 0 holds the events before the first
    deal. Every read of moves and events falls back to these (games.selectors)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="archives")
    number = models.PositiveIntegerField()
    data = models.BinaryField(help_text="zlib-compressed JSON: {moves, events}")
    moves = models.PositiveIntegerField(help_text="how many moves it holds")
    events = models.PositiveIntegerField(help_text="how many events it holds")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="archive_unique_number"),
        ]

    def __str__(self) -> str:
        return f"archive of round {self.number} of match {self.match_id}"
