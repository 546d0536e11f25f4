"""What the match services announce to other code without importing it: a handler registers in
its app's AppConfig.ready. The turns the server plays (the bots app) are announced once the write
has committed: a hint that saves time, since what is due is in the match row too
(Match.due_at), where the recovery sweep finds it if the announcement is lost. A match's end (the
ratings app) is announced inside its transaction."""

from collections.abc import Callable
from typing import Any, NamedTuple


class Writes(NamedTuple):
    """What a handler has the match's own write carry (games.sql.write): rows to insert, as
    (model, rows), and rows to update by primary key, as (model, fields, rows)."""

    added: list = []
    changed: list = []


# (the match, its seats in order with their users, its sides as Ruleset.sides gives them)
MatchFinishedHandler = Callable[[Any, list, list[dict]], Writes | None]

# (match id, version at which the server is to act: a bot's turn, a seat in 托管, a clock out;
# keyword `delay`: seconds to wait before playing it, the match's pace)
ServerTurnHandler = Callable[..., None]

_server_turn_handlers: list[ServerTurnHandler] = []
_match_finished_handlers: list[MatchFinishedHandler] = []


def on_server_turn(handler: ServerTurnHandler) -> None:
    if handler not in _server_turn_handlers:
        _server_turn_handlers.append(handler)


def announce_server_turn(match_id: int, version: int, *, delay: float = 0.0) -> None:
    for handler in _server_turn_handlers:
        handler(match_id, version, delay=delay)



def on_match_finished(handler: MatchFinishedHandler) -> None:
    if handler not in _match_finished_handlers:
        _match_finished_handlers.append(handler)


def announce_match_finished(match, seats: list, sides: list[dict]) -> list[Writes]:
    """Unlike a server turn, announced inside the transaction that finishes the match (the
    ratings app rates it there): a handler's reads see the match's last settlement, its writes
    commit with it (in the match's one write, what it returns), and a handler that fails undoes
    it all."""
    found = (handler(match, seats, sides) for handler in _match_finished_handlers)
    return [writes for writes in found if writes is not None]
