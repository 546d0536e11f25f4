"""The one interface the service, the bots, the rules endpoints and replay use for any ruleset.

A state is an immutable value. Every method is pure: no I/O, no global randomness; a round's
randomness comes from the seed given to `start_round`.

Lifecycle: `new_match` -> `start_round(seed)` -> (`to_act`, `legal_actions`, `apply`)* until
`round_over`; then `round_result`; then, while `table(state).needs_round`, `start_round` again.
`table(state)` gives the facts every caller needs in one shared vocabulary; callers never read
them back out of a view.
"""

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, NamedTuple, TypeVar

from games.engine.actions import Action, Play
from games.engine.cards import RANK_OF, wire
from games.engine.combos import Reading
from games.engine.errors import IllegalAction
from games.engine.specs import Obj, Tagged, parse

S = TypeVar("S")

# Where a match stands, in every ruleset's view and table: no round dealt yet; a round's cut, bid
# and play phases (a ruleset uses those it has); a round over with more to come; the match over.
PHASES = ("waiting", "cut", "bid", "play", "round_over", "match_over")


@dataclass(frozen=True)
class RulesetInfo:
    """What a ruleset is, before any match: the one source for validating options, describing
    them in OpenAPI and in the admin, and for the settle endpoint's facts."""

    name: str
    title: Mapping[str, str]  # {"en": ..., "zh": ...}
    players: tuple[int, ...]  # the table sizes it plays
    options: Obj  # every option, with its default and bounds
    view: Obj  # what `view` returns (games.engine.vocabulary: the words all views share)
    events: Tagged  # what each event `apply` emits may say (games.engine.events.events_spec)
    settle_facts: Obj  # what `settle` takes besides the options
    # How to play, for people ({"en": ..., "zh": ...}): plain text, no markup but this: blocks
    # apart by a blank line, a block's "## " line a heading, its "- " lines a list's items.
    how_to_play: Mapping[str, str]
    settle_example: Mapping = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Table:
    """The facts of a match state that the service stores and shows beside the view."""

    players: int
    phase: str  # one of PHASES
    round: int  # the current or last round's number; 0 before the first deal
    to_act: int | None
    seating: tuple[int, ...]  # seats in turn order this round
    eliminated: tuple[bool, ...]
    scores: tuple[int, ...]

    @property
    def needs_round(self) -> bool:
        return self.phase in ("waiting", "round_over")

    @property
    def match_over(self) -> bool:
        return self.phase == "match_over"


class ViewFacts(NamedTuple):
    """What the shared words of a view are made of, besides the `Table`: facts of a state."""

    options: dict  # as `parse_options` gave them
    humans: Sequence[bool]  # per seat, whether a person plays it
    hands: Sequence[Sequence[int]]  # every seat's cards: each seat's view shows its own only
    trick: Sequence[tuple[int, Sequence[int], Reading]]  # (seat, cards, reading), oldest first
    played: Iterable[int]  # every card played this round: public, every seat saw it


class Ruleset(ABC, Generic[S]):
    info: ClassVar[RulesetInfo]

    @property
    def name(self) -> str:
        return self.info.name

    # -- options and the rules endpoints ---------------------------------------------------------

    def parse_options(self, raw: Mapping[str, Any] | None) -> dict:
        """Validated options with defaults filled in; IllegalAction("invalid_option") otherwise
        (unknown keys, wrong types, out of range)."""
        return parse(self.info.options, {} if raw is None else raw, "invalid_option", "option")

    @abstractmethod
    def pack(self, options: dict) -> tuple[int, ...]:
        """Every card id of the pack these options play with."""

    @abstractmethod
    def readings(self, options: dict, cards: tuple[int, ...]) -> list[Reading]:
        """Every legal reading of `cards` as one play, out of context (empty: not a combination)."""

    @abstractmethod
    def beats(self, options: dict, play: Reading, previous: Reading) -> bool:
        """Whether a play read as `play` may be played on `previous`."""

    def settle(self, options: dict, raw_facts: Mapping) -> dict:
        """A round settled from its facts (`info.settle_facts`), itemised; refused with
        IllegalAction("invalid_settlement") when they are inconsistent."""
        facts = parse(self.info.settle_facts, raw_facts, "invalid_settlement")
        return self.settle_facts(options, facts)

    @abstractmethod
    def settle_facts(self, options: dict, facts: dict) -> dict:
        """`settle` on facts already of the right shape: {"deltas": [per seat], ...}."""

    # -- a match ---------------------------------------------------------------------------------

    @abstractmethod
    def new_match(self, options: dict, humans: Sequence[bool]) -> S:
        """A match with no round dealt yet; one seat per entry of `humans` (True = a person)."""

    @abstractmethod
    def start_round(self, state: S, seed: str) -> S:
        """Deal the next round from `random.Random(seed)`; only when `table(state).needs_round`."""

    @abstractmethod
    def table(self, state: S) -> Table:
        """Where the match stands: players, phase, round, seat to act, seating, eliminations."""

    @abstractmethod
    def to_act(self, state: S) -> int | None:
        """`table(state).to_act`, cheaply: search loops ask it on every step."""

    @abstractmethod
    def round_over(self, state: S) -> bool:
        """The current round has ended (its result is final); cheap, like `to_act`."""

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[Action]:
        """Everything `seat` may do now; plays carry their reading (one entry per reading and per
        distinct set of ranks, suits never matter) and, where 带牌 apply, `extras`."""

    def extra_candidates(self, hand: tuple[int, ...], play: Play) -> tuple[int, ...]:
        """Cards of `hand` of which any `play.extras` or fewer may be added to the listed `play`
        (带牌); rulesets without extras have none."""
        return ()

    @abstractmethod
    def apply(self, state: S, seat: int, action: Action) -> tuple[S, list[dict]]:
        """The new state and the public events the action caused (no hidden card in them).
        Raises IllegalAction with a stable code and leaves `state` as it was."""

    def step(self, state: S, seat: int, action: Action) -> S:
        """`apply`'s new state, for an action `legal_actions` listed (with any of its extras): the
        search's rollouts, where checks and events are wasted. A ruleset may skip both, and leave
        a round the action ends unsettled (`round_over` holds; the scores are not yet counted)."""
        return self.apply(state, seat, action)[0]

    # True when `remember` keeps something: a bot's turn then reads the round's stored events.
    remembers: ClassVar[bool] = False

    def remember(self, state: S, events: Sequence[dict], whole: bool = False) -> S:
        """`state` with what its views keep of `events`, an action's as `apply` returned them (a
        bounded tail of the round's public events, say; a ruleset that keeps none: `state`).
        `apply` keeps nothing of them, which spares the search's rollouts the cost: the service
        calls this once per action. With `whole`, `events` are all of the current round's so far
        as stored, and all are kept: a bot's copy of the state, never stored."""
        return state

    def is_legal(self, state: S, seat: int, action: Action) -> bool:
        try:
            self.apply(state, seat, action)
        except IllegalAction:
            return False
        return True

    @abstractmethod
    def forced_action(self, state: S) -> Action | None:
        """The action taken for the seat to act when it has no choice (a pass with no legal
        answer): the service applies it automatically and logs it as actor `auto`."""

    # -- what is shown ---------------------------------------------------------------------------

    def view(self, state: S, seat: int | None, legal: list[Action] | None = None) -> dict:
        """What `seat` may know, JSON-ready, cards as `cards.wire(card)`. seat None = an
        onlooker: public facts only. The words every ruleset shares (`vocabulary.core_fields`)
        come from `table(state)` and `view_facts(state)`, then `view_fields` adds the ruleset's
        own; a seat's view ends with its `hand`, each card flagged `playable` when some legal
        action uses its rank (`legal`, when the caller holds the seat's legal actions already,
        spares listing them again)."""
        table = self.table(state)
        if seat is not None and not 0 <= seat < table.players:
            raise ValueError(f"no seat {seat!r} in a {table.players}-seat match")
        facts = self.view_facts(state)
        hands, trick = facts.hands, facts.trick
        data = {
            "ruleset": self.name,
            "options": facts.options,
            "phase": table.phase,
            "round": table.round,
            "to_act": table.to_act,
            "seat": seat,
            "players": table.players,
            "humans": list(facts.humans),
            "scores": list(table.scores),
            "counts": [len(hand) for hand in hands],
            "seating": list(table.seating),
            "trick": [{"seat": player, "cards": [wire(c) for c in cards],
                       "reading": reading.to_dict(), "latest": i == len(trick) - 1}
                      for i, (player, cards, reading) in enumerate(trick)],
            "played": [wire(c) for c in facts.played],
            **self.view_fields(state),
        }
        if seat is not None:
            hand = hands[seat]
            usable = self._usable_ranks(
                hand, self.legal_actions(state, seat) if legal is None else legal)
            data["hand"] = [{**wire(c), "playable": RANK_OF[c] in usable} for c in hand]
        return data

    def _usable_ranks(self, hand: Sequence[int], legal: list[Action]) -> set[int]:
        """Ranks of which some card may be used in a listed play, as part of it or an extra."""
        ranks = set()
        for play in legal:
            if type(play) is Play:
                ranks.update(RANK_OF[c] for c in play.cards)
                if play.extras:
                    ranks.update(RANK_OF[c] for c in self.extra_candidates(tuple(hand), play))
        return ranks

    @abstractmethod
    def view_facts(self, state: S) -> ViewFacts:
        """What `view` makes the shared words of, besides `table(state)`."""

    @abstractmethod
    def view_fields(self, state: S) -> dict:
        """The ruleset's own keys of every view (its `info.view` beyond the shared words):
        public facts only, JSON-ready."""

    @abstractmethod
    def full_view(self, state: S) -> dict:
        """Every hand open (`hands`): for staff review and for players once a round is over."""

    @abstractmethod
    def round_result(self, state: S) -> dict:
        """For the round just ended: {"deltas": [per seat], "winners": [seats of the winning
        side], "breakdown": [per seat dicts], "summary": {...}, "hands": [remaining cards per seat
        as wire dicts], ...}."""

    @abstractmethod
    def standings(self, state: S) -> list[dict]:
        """Final ranking, best first: [{"seat", "score", "rank"}]."""

    def sides(self, state: S) -> list[dict]:
        """The match's sides as it ended, for ratings, best first: [{"seats": [...], "rank"}],
        equal ranks for a tie. Here each seat is a side, ranked by its final score (equal
        scores share a rank, whatever order `standings` lists them in); a ruleset with teams
        says its own."""
        scores = {s["seat"]: s["score"] for s in self.standings(state)}
        return [{"seats": [seat], "rank": 1 + sum(1 for x in scores.values() if x > score)}
                for seat, score in sorted(scores.items(), key=lambda item: (-item[1], item[0]))]

    @abstractmethod
    def to_json(self, state: S) -> dict:
        """The snapshot stored with the match (hidden cards included; never sent to players)."""

    @abstractmethod
    def from_json(self, data: dict) -> S:
        """Inverse of `to_json`: `from_json(to_json(s)) == s`."""
