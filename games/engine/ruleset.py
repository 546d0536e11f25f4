"""The one interface the service, the bots and replay use for either ruleset.

A state is an immutable value (frozen dataclasses, tuples). Every method is pure: no I/O, no
global randomness; a round's randomness comes from the seed given to `start_round`.

Lifecycle: `new_match` -> `start_round(seed)` -> (`to_act`, `legal_actions`, `apply`)* until
`round_over`; then `round_result`; then, unless `match_over`, `start_round(next seed)` again.
"""

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.actions import Action
from games.engine.combos import Reading


class Ruleset(ABC):
    name: str

    @abstractmethod
    def parse_options(self, raw: Mapping[str, Any] | None) -> dict:
        """Validated options with defaults filled in; IllegalAction("invalid_option") otherwise
        (unknown keys, wrong types, out of range)."""

    @abstractmethod
    def pack(self, options: dict) -> tuple[int, ...]:
        """Every card id of the pack these options play with."""

    @abstractmethod
    def readings(self, options: dict, cards: tuple[int, ...]) -> list[Reading]:
        """Every legal reading of `cards` as one play, out of context (empty: not a combination)."""

    @abstractmethod
    def beats(self, options: dict, play: Reading, previous: Reading) -> bool:
        """Whether a play read as `play` may be played on `previous`."""

    @abstractmethod
    def new_match(self, options: dict, humans: Sequence[bool]) -> Any:
        """A match with no round dealt yet; one seat per entry of `humans` (True = a person)."""

    @abstractmethod
    def start_round(self, state: Any, seed: str) -> Any:
        """Deal the next round from `random.Random(seed)`; only when `needs_round(state)`."""

    @abstractmethod
    def needs_round(self, state: Any) -> bool:
        """True before the first round and between rounds, while the match is not over."""

    @abstractmethod
    def to_act(self, state: Any) -> int | None:
        """The seat whose action is awaited, or None (between rounds, match over)."""

    @abstractmethod
    def legal_actions(self, state: Any, seat: int) -> list[Action]:
        """Everything `seat` may do now; plays carry their reading (one entry per reading and per
        distinct set of ranks, suits never matter) and, where 带牌 apply, `extras`."""

    @abstractmethod
    def apply(self, state: Any, seat: int, action: Action) -> tuple[Any, list[dict]]:
        """The new state and the public events the action caused (no hidden card in them).
        Raises IllegalAction with a stable code and leaves `state` as it was."""

    @abstractmethod
    def forced_action(self, state: Any) -> Action | None:
        """The action taken for the seat to act when it has no choice (a pass with no legal
        answer): the service applies it automatically and logs it as actor `auto`."""

    @abstractmethod
    def view(self, state: Any, seat: int | None) -> dict:
        """What `seat` may know, JSON-ready, cards as `cards.wire(card)` (own hand with
        `playable` flags). seat None = an onlooker: public facts only."""

    @abstractmethod
    def full_view(self, state: Any) -> dict:
        """Every hand open: for staff review and for players once a round is over."""

    @abstractmethod
    def round_over(self, state: Any) -> bool:
        """The current round has ended (its result is final)."""

    @abstractmethod
    def round_result(self, state: Any) -> dict:
        """For the round just ended: {"deltas": [per seat], "breakdown": [per seat dicts],
        "summary": {...}, "hands": [remaining cards per seat as wire dicts], ...}."""

    @abstractmethod
    def match_over(self, state: Any) -> bool:
        """No more rounds will be dealt."""

    @abstractmethod
    def scores(self, state: Any) -> list[int]:
        """Each seat's match score now."""

    @abstractmethod
    def standings(self, state: Any) -> list[dict]:
        """Final ranking, best first: [{"seat", "score", "rank"}]."""

    @abstractmethod
    def to_json(self, state: Any) -> dict:
        """The snapshot stored with the match (hidden cards included; never sent to players)."""

    @abstractmethod
    def from_json(self, data: dict) -> Any:
        """Inverse of `to_json`: `from_json(to_json(s)) == s`."""
