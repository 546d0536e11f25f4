"""What the match services announce to other code without importing it: a handler registers
(the bots app in its AppConfig.ready for bot turns; games.tasks for quick matches' bots), the
services announce once the write has committed."""

from collections.abc import Callable
from datetime import datetime

BotTurnHandler = Callable[[int, int], None]  # (match id, version at which the bot is to act)
BotsDueHandler = Callable[[int, datetime], None]  # (match id, when bots take the open seats)

_bot_turn_handlers: list[BotTurnHandler] = []
_bots_due_handlers: list[BotsDueHandler] = []


def on_bot_turn(handler: BotTurnHandler) -> None:
    if handler not in _bot_turn_handlers:
        _bot_turn_handlers.append(handler)


def announce_bot_turn(match_id: int, version: int) -> None:
    for handler in _bot_turn_handlers:
        handler(match_id, version)


def on_bots_due(handler: BotsDueHandler) -> None:
    if handler not in _bots_due_handlers:
        _bots_due_handlers.append(handler)


def announce_bots_due(match_id: int, when: datetime) -> None:
    for handler in _bots_due_handlers:
        handler(match_id, when)
