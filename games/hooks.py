"""What the match services announce to other code without importing it: a handler registers
(the bots app in its AppConfig.ready, for the turns the server plays), the services announce
once the write has committed. An announcement is a hint that saves time: what is due is in the
match row too (Match.due_at), where the recovery sweep finds it if the announcement is lost."""

from collections.abc import Callable

# (match id, version at which the server is to act: a bot's turn, a seat in 托管, a clock out;
# keyword `delay`: seconds to wait before playing it, the match's pace)
ServerTurnHandler = Callable[..., None]

_server_turn_handlers: list[ServerTurnHandler] = []


def on_server_turn(handler: ServerTurnHandler) -> None:
    if handler not in _server_turn_handlers:
        _server_turn_handlers.append(handler)


def announce_server_turn(match_id: int, version: int, *, delay: float = 0.0) -> None:
    for handler in _server_turn_handlers:
        handler(match_id, version, delay=delay)

