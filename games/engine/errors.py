"""Refusals: everything the service turns down, each with a stable machine code and its context.

`Refusal.kind` says what sort of refusal it is, in words of the domain (the request is invalid,
not allowed, names nothing, conflicts with the current state, or cannot be served now); the API
maps kinds to HTTP statuses in its one error handler, so nothing below the API knows HTTP.

The engine's codes: not_your_turn, does_not_beat, not_a_combination, ambiguous_play
(details.readings lists the legal ones), unknown_card, card_not_in_hand, card_not_in_pack,
too_many_copies, duplicate_card, must_play (a pass on a free lead), wrong_phase, invalid_option,
invalid_action, invalid_reading, invalid_settlement, invalid_input, unknown_ruleset, round_over,
match_over.
"""


class Refusal(Exception):
    kind = "invalid"

    def __init__(self, code: str, message: str, **details):
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details


class IllegalAction(Refusal):
    """The rules refuse it: an action, a set of cards, options, settlement facts."""
