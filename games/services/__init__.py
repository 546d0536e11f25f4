"""Every write to a match, one function per use case, each one transaction (an act's usual path:
one compare-and-set write). Callers import them from here; the modules hold them by use case:

- `progress`: a match's progress within one write (the engine state, rounds, the rows written);
- `matches`: create, join, leave, abort;
- `act`: one action and what it sets off, and a person's act as the API answers it;
- `due`: 托管, what is due without anyone acting (the sweep's claims, overdue reads, a paused
  match's return and abandonment);
- `tables`: quick matches and their bots;
- `rematch`: a finished match played again by the same people;
- `watch`: spectators' presence, staff's exhibition matches;
- `talk`: a quick phrase told to the match's streams, stored nowhere.
"""

from games.services.act import (
    Answer,
    Replayed,
    Submitted,
    action_submit,
    player_act,
    turns_submit,
)
from games.services.due import (
    autoplay_set,
    clocks_claim,
    due_claim,
    due_do,
    match_abandon,
    match_read,
    match_reads,
)
from games.services.matches import match_abort, match_create, match_join, match_leave
from games.services.progress import PROGRESS_FIELDS
from games.services.rematch import rematch_accept, rematch_decline
from games.services.tables import Seated, match_fill_due, table_play
from games.services.talk import talk_send
from games.services.watch import exhibition_open, spectator_gone, spectator_seen

__all__ = [
    "PROGRESS_FIELDS", "Answer", "Replayed", "Seated", "Submitted", "action_submit",
    "autoplay_set", "clocks_claim", "due_claim", "due_do", "exhibition_open", "match_abandon",
    "match_abort", "match_create", "match_fill_due", "match_join", "match_leave", "match_read",
    "match_reads", "player_act", "rematch_accept", "rematch_decline", "spectator_gone",
    "spectator_seen", "table_play", "talk_send", "turns_submit",
]
