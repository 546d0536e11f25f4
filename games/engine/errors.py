"""Refusals: everything the service turns down, each with a stable machine code and its context.

The API maps each code to its HTTP status in one table (games/api/errors.py), so nothing below
the API knows HTTP.

The engine's codes: not_your_turn, does_not_beat, not_a_combination, ambiguous_play
(details.readings lists the legal ones), unknown_card, card_not_in_hand, card_not_in_pack,
too_many_copies, duplicate_card, must_play (a pass on a free lead), wrong_phase, invalid_option,
invalid_action, invalid_reading, invalid_settlement, invalid_input, unknown_ruleset, round_over,
match_over.
"""


class Refusal(Exception):
    def __init__(self, code: str, message: str, **details):
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details


class IllegalAction(Refusal):
    """The rules refuse it: an action, a set of cards, options, settlement facts."""
