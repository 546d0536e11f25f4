"""What the match services announce to other apps without importing them: an app registers a
handler (the bots app, in its AppConfig.ready), the services call `announce_bot_turn` once a
write that leaves a bot to act has committed."""

from collections.abc import Callable

BotTurnHandler = Callable[[int, int], None]  # (match id, version at which the bot is to act)

_bot_turn_handlers: list[BotTurnHandler] = []


def on_bot_turn(handler: BotTurnHandler) -> None:
    if handler not in _bot_turn_handlers:
        _bot_turn_handlers.append(handler)


def announce_bot_turn(match_id: int, version: int) -> None:
    for handler in _bot_turn_handlers:
        handler(match_id, version)
