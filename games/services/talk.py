"""Table talk: a player's quick phrase, told to the match's streams (its seats and spectators)
at once and stored nowhere: not in the move log, not in the events."""

from django.utils import timezone

from games import live, selectors
from games.errors import Conflict, Forbidden
from games.models import Match


def talk_send(*, user, match_id: int, phrase: str) -> dict:
    """`user` says `phrase` (a key of games.talk) at their seat; what the streams are told."""
    read = selectors.match_for(user, match_id)
    if read.mine is None:
        raise Forbidden("only the match's players talk at its table")
    if read.match.status not in (Match.Status.WAITING, Match.Status.ACTIVE):
        raise Conflict("match_over", f"the match is {read.match.status}",
                       status=read.match.status)
    said = {"seat": read.mine.index, "phrase": phrase, "at": timezone.now().isoformat()}
    live.publish(live.match_channel(match_id), {"match": match_id, "talk": said})
    return said
