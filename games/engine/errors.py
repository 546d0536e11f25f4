"""One error type for everything the engine refuses, each with a stable machine code.

Codes clients can rely on: not_your_turn, does_not_beat, not_a_combination, ambiguous_play
(details.readings lists the legal ones), unknown_card, card_not_in_hand, card_not_in_pack,
too_many_copies, duplicate_card, must_play (a pass on a free lead), wrong_phase, invalid_option,
invalid_action, round_over, match_over.
"""


class IllegalAction(Exception):
    def __init__(self, code: str, message: str, **details):
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details
