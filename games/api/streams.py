"""Live streams, as Server-Sent Events (`text/event-stream`), served by the ASGI server.

`GET /api/v1/matches/{id}/stream/`: first the reader's whole view (`event: view`); then, for each
version committed, `event: update` with that version's public events and, on the latest, what
changed in the reader's own view (`changed`: its top-level keys that changed, `state` holding only
the state's keys that changed). Each message's `id` is the last event seq it covers: a client
that reconnects with `Last-Event-ID` gets the updates it missed, then a whole view again. A match
that is over and fully sent answers 204, which tells a browser to stop reconnecting.
A reader with no seat at a match they may watch (games.selectors.may_watch) gets the spectator's
view, and counts as a spectator while the stream lasts (games.services.spectator_seen).

A phrase said at the table (POST /matches/{id}/talk/) comes as `event: talk` (`seat`, `phrase`,
`at`), without an id: it is stored nowhere, so a reconnecting reader does not get it again.

`GET /api/v1/stream/`: the reader's account: `matches` (every waiting or active match of theirs),
then `seated`, `player_joined`, `match_started`, `your_turn`, `match_finished` and
`rematch_offered` as they happen.

Authentication: the token header, or `?ticket=` (POST /api/v1/auth/stream-ticket/) where headers
cannot be sent. Heartbeat comments keep idle connections open through proxies. A stream never
carries what the reader's view would not: it is built from the same view. When its web process
stops, a stream ends with `event: restarting` and a `retry` hint: come back in a moment. When its
token is logged out, revoked or expires, or its account is deactivated, it ends with
`event: revoked`; when its account opens more than STREAM_MAX_PER_ACCOUNT streams, the oldest
ends with `event: closed`: a client does not reconnect after either (games.live).
"""

import asyncio
import functools
import json
import logging
import threading
import time
from datetime import datetime
from typing import NamedTuple

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import InterfaceError, OperationalError, close_old_connections
from django.http import HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from rest_framework import exceptions
from rest_framework.settings import import_from_string
from rest_framework.utils.encoders import JSONEncoder

from games import live, metrics, presenters, selectors, services
from games.api.errors import error_body, exception_handler
from games.api.params import QueryInt, takes, whole_number
from games.api.serializers import WHOLE
from games.engine.errors import Refusal
from games.engine.registry import get_ruleset
from games.models import Match, Seat

logger = logging.getLogger(__name__)
MAX_ACCOUNT_MATCHES = 1000
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}  # nginx: do not buffer
# What opening a stream may meet, answered as the API answers it (a database away: 503).
REFUSED = (exceptions.APIException, Refusal, OperationalError, InterfaceError)


def sse(event: str, data, message_id: int | None = None) -> bytes:
    head = f"id: {message_id}\n" if message_id is not None else ""
    body = json.dumps(data, cls=JSONEncoder, ensure_ascii=False)  # as the REST answers spell it
    return f"{head}event: {event}\ndata: {body}\n\n".encode()


HEARTBEAT = b": heartbeat\n\n"
# A stream's last message when its web process stops: `retry` tells an EventSource when to
# reconnect (to the process that replaces it), `restarting` tells any client why it ended.
RESTARTING = (f"retry: {live.RESTART_RETRY_MS}\n".encode() + sse(
    "restarting", {"code": "restarting", "message": "The server is restarting: reconnect.",
                   "retry_ms": live.RESTART_RETRY_MS}))
# A stream's last message when it ends for good, by live.Ended's reason: do not reconnect.
ENDED = {
    "revoked": sse("revoked", {"code": "revoked", "message": "Signed out: the token was logged "
                               "out, revoked or expired, or the account deactivated."}),
    "too_many_streams": sse("closed", {"code": "too_many_streams", "message": "Closed: this "
                                       "account opened more streams than it may keep open."}),
}


async def counted(kind: str, messages):
    """The stream's messages, counted while it is open (games.metrics)."""
    metrics.STREAMS_OPEN.labels(kind).inc()
    pushed = metrics.PUSHED.labels(kind)
    try:
        async for message in messages:
            pushed.inc()
            yield message
    finally:
        metrics.STREAMS_OPEN.labels(kind).dec()


def only_get(view):
    """GET only; any other method is a 405 in the API's error shape."""

    @functools.wraps(view)
    async def checked(request, *args, **kwargs):
        if request.method != "GET":
            response = JsonResponse(error_body(
                "method_not_allowed", f'Method "{request.method}" not allowed.'), status=405)
            response["Allow"] = "GET"
            return response
        return await view(request, *args, **kwargs)

    return checked


def in_thread(function):
    """A blocking read run off the event loop, as a request would run it: its database
    connection is checked (and replaced if the database dropped it) when it is done."""

    def run(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        finally:
            close_old_connections()

    return sync_to_async(run, thread_sensitive=False)


def _reader(request) -> tuple:
    """The stream's reader and their token, by the first of STREAM_AUTHENTICATION_CLASSES that
    finds one."""
    for authentication in (import_from_string(name, "STREAM_AUTHENTICATION_CLASSES")
                           for name in settings.STREAM_AUTHENTICATION_CLASSES):
        found = authentication().authenticate(request)
        if found is not None:
            return found
    raise exceptions.NotAuthenticated()


def _subscribe(user, token, channels) -> live.Subscription:
    """A stream's subscription, which ends with its token's access."""
    return live.HUB.subscribe(channels, user=user.pk, token=token.pk)


def _views(users: list, match_id: int, after: int | None) -> list:
    """Each reader's view with the events after `after` (None: the latest few), and, when the
    server is to act (a bot, a seat in 托管), when its turn is due (after the match's pace); or
    the error their read met. What is overdue in the match is done first, as a read over the API
    does it."""
    events = selectors.MAX_EVENTS if after is not None else selectors.RECENT_EVENTS
    reads = services.match_reads(users, match_id, events_after=after, events=events)
    match = next((r.match for r in reads if isinstance(r, selectors.MatchRead)), None)
    if match is None:
        return reads
    state = None if match.snapshot is None else get_ruleset(match.ruleset).from_json(
        match.snapshot)  # decoded once for every reader
    due = (match.due_at or timezone.now()) if match.server_turn() is not None else None
    return [r if isinstance(r, Exception) else (presenters.match_view(r, state), due)
            for r in reads]


class Reads:
    """The views this process's streams wait for, read together: the streams of a match wake
    on the same notice, and one read of the match, in one thread, serves all that ask for it
    before that read starts (readers of the same events). One hop from the event loop and one
    query per notice, not one of each per stream: the hops were most of a message's wait with
    many streams (docs/performance.md)."""

    def __init__(self):
        self.lock = threading.Lock()
        # By loop (each has its own futures), match and the events after.
        self.waiting: dict[tuple, list] = {}
        self.running: set[asyncio.Task] = set()

    async def view(self, user, match_id: int, after: int | None) -> tuple:
        loop = asyncio.get_running_loop()
        key, future = (loop, match_id, after), loop.create_future()
        with self.lock:
            batch = self.waiting.get(key)
            first = batch is None
            if first:
                batch = self.waiting[key] = []
            batch.append((user, future))
        if first:
            task = loop.create_task(self._read(key, batch))
            self.running.add(task)
            task.add_done_callback(self.running.discard)
        return await future

    def _close(self, key, batch: list) -> list:
        """The readers of `batch`, which no other joins from now on (its read starts)."""
        with self.lock:
            if self.waiting.get(key) is batch:
                del self.waiting[key]
        return list(batch)

    def _served(self, key, batch: list) -> list:
        """In the read's thread: each future of `batch` with its reader's view, or their error."""
        readers = self._close(key, batch)
        try:
            found = _views([user for user, _ in readers], *key[1:])
        except Exception as error:  # the match's own read: every reader meets it
            found = [error] * len(readers)
        return list(zip((future for _, future in readers), found, strict=True))

    async def _read(self, key, batch: list) -> None:
        try:
            found = await in_thread(self._served)(key, batch)
        except Exception as error:  # the hop itself failed
            found = [(future, error) for _, future in self._close(key, batch)]
        except BaseException:  # cancelled: the loop is closing
            for _, future in self._close(key, batch):
                future.cancel()
            raise
        for future, outcome in found:
            if future.done():  # its stream ended meanwhile
                continue
            if isinstance(outcome, Exception):
                future.set_exception(outcome)
            else:
                future.set_result(outcome)


READS = Reads()


def _refused(error: Exception) -> JsonResponse:
    """What a DRF view of the API answers to this error (these views are plain Django ones)."""
    answer = exception_handler(error, {})
    response = JsonResponse(answer.data, status=answer.status_code)
    if "Retry-After" in answer:
        response["Retry-After"] = answer["Retry-After"]
    if answer.status_code == 401:
        response["WWW-Authenticate"] = "Token"
    return response


def _ended(error: Exception) -> None:
    """A stream whose database went away ends; its client reconnects (with Last-Event-ID) and
    resumes where it was, or is told 503 until the database is back."""
    logger.warning("live stream ended, the database is away: %s", error)


LAST_EVENT_ID = QueryInt("last_event_id", 0, WHOLE)


def _last_event_id(request) -> int | None:
    """Where a reader who reconnects was: the Last-Event-ID header (EventSource sends it), else
    `?last_event_id=`; None for a reader who starts."""
    if header := request.headers.get("Last-Event-ID"):
        return whole_number("Last-Event-ID", header, LAST_EVENT_ID.low, LAST_EVENT_ID.high)
    return LAST_EVENT_ID.parse(request)


class Sent(NamedTuple):
    """What a stream keeps of the view it sent last, to tell what a new one changed: each
    top-level key's value, and the state's one level down, as JSON text. Dicts of strings are
    not tracked by the garbage collector: a thousand streams holding their views as dicts and
    lists made each full collection walk millions of objects (pauses of 100-500 ms)."""

    status: str
    version: int
    last_event_seq: int
    deadline: datetime | None
    top: dict[str, str]
    state: dict[str, str]

    @classmethod
    def of(cls, view: dict) -> "Sent":
        top = {k: _text(v) for k, v in view.items() if k not in ("events", "state")}
        state = {k: _text(v) for k, v in (view.get("state") or {}).items()}
        return cls(view["status"], view["version"], view["last_event_seq"], _deadline(view),
                   top, state)


def _text(value) -> str:
    return json.dumps(value, cls=JSONEncoder)


def _differences(before: dict[str, str], after: dict[str, str], values: dict) -> dict:
    """The keys whose text differs from `before`'s (with their value, from `values`), and those
    gone as None, so that applying them over the view held gives the new one."""
    found = {k: values[k] for k, text in after.items() if before.get(k) != text}
    found.update((k, None) for k in before.keys() - after.keys())
    return found


def _changed(before: Sent, after: Sent, view: dict) -> dict:
    """What of the reader's view changed (`view`, kept as `after`): top-level keys, and the
    state's keys one level down."""
    changed = _differences(before.top, after.top, view)
    if after.state != before.state:
        changed["state"] = _differences(before.state, after.state, view.get("state") or {})
    return changed


def _updates(events: list[dict], changed: dict | None = None) -> list[bytes]:
    """One message per version the events belong to; `changed` goes with the last."""
    by_version: dict[int, list[dict]] = {}
    for event in events:
        by_version.setdefault(event["version"], []).append(event)
    messages = []
    versions = sorted(by_version)
    for version in versions:
        data = {"version": version, "events": by_version[version]}
        if changed is not None and version == versions[-1]:
            data["changed"] = changed
        messages.append(sse("update", data, by_version[version][-1]["seq"]))
    return messages


def _deadline(view: dict) -> datetime | None:
    """When a read may find something due: a person's clock running out, or a waiting match's
    empty seats going to bots (the read does either, even with no sweep running)."""
    clock = view.get("clock")
    if clock and clock["deadline"]:
        return parse_datetime(clock["deadline"])
    return view.get("bots_fill_at")


async def _first(read, user, match_id: int, last_id: int | None):
    """The messages a stream starts with, what it keeps of its view, and whether the server
    is to act (the view itself is not kept: see Sent)."""
    view, server = await read(user, match_id, last_id)
    messages = []
    if last_id is not None:
        messages = _updates(view["events"])
        # The catch-up just delivered these: the view carries none of them again.
        view = {**view, "events": []}
    messages.append(sse("view", view, view["last_event_seq"]))
    return messages, Sent.of(view), server


async def _next(read, user, match_id: int, sent: Sent):
    """The update messages since `sent`, if its version moved: (messages, kept, server)."""
    latest, server = await read(user, match_id, sent.last_event_seq)
    if latest["version"] == sent.version:
        return None
    now = Sent.of(latest)
    return _updates(latest["events"], _changed(sent, now, latest)), now, server


async def _match_messages(user, token, match_id: int, last_id: int | None, watching: bool):
    """`watching`: the reader has no seat, and counts as a spectator while the stream lasts."""
    subscription = _subscribe(user, token, [live.match_channel(match_id)])
    read = READS.view
    heartbeat = settings.STREAM_HEARTBEAT_SECONDS
    try:
        messages, sent, server = await _first(read, user, match_id, last_id)
        for message in messages:
            yield message
        del messages
        renewed = time.monotonic()
        quiet, looked = time.monotonic(), None
        while sent.status not in Match.FINAL:
            # A clock that runs out is read at once (the read plays what is overdue), not
            # left to the recovery sweep; once per deadline. A server turn that does not come
            # is read again and again (see STREAM_SERVER_TURN_SECONDS), and when it is due (a
            # paced turn, which the embedded mode plays on that read).
            deadline = sent.deadline
            due = deadline is not None and deadline != looked
            left = (deadline - timezone.now()).total_seconds() + 0.1 if due else heartbeat
            if server is not None:
                left = min(left, settings.STREAM_SERVER_TURN_SECONDS,
                           (server - timezone.now()).total_seconds() + 0.02)
            notice = await subscription.next(max(0.1, min(left, heartbeat)))
            if notice is not None and "talk" in notice:  # a phrase: told, stored nowhere
                yield sse("talk", notice["talk"])
                quiet = time.monotonic()
                continue
            if notice is None:
                fresh = due and timezone.now() >= deadline
                looked = deadline if fresh else looked
                fresh = fresh or server is not None
            else:
                fresh = notice.get("resync") or notice["version"] > sent.version
            if fresh and (update := await _next(read, user, match_id, sent)) is not None:
                for message in update[0]:
                    yield message
                _, sent, server = update
                del update
                quiet = time.monotonic()
            if time.monotonic() - quiet >= heartbeat:
                yield HEARTBEAT
                quiet = time.monotonic()
            if watching and time.monotonic() - renewed >= heartbeat:
                await in_thread(services.spectator_seen)(match_id=match_id, user=user)
                renewed = time.monotonic()
    except live.Stopping:
        yield RESTARTING
    except live.Ended as ended:
        yield ENDED[ended.reason]
    except (OperationalError, InterfaceError) as error:
        _ended(error)
    finally:
        subscription.close()
        if watching:
            await in_thread(services.spectator_gone)(match_id=match_id, user=user)


@takes("ticket", LAST_EVENT_ID)
@only_get
async def match_stream(request, match_id: int):
    try:
        last_id = _last_event_id(request)
        user, token = await in_thread(_reader)(request)
        match = await in_thread(selectors.match_for)(user, match_id)
    except REFUSED as error:
        return _refused(error)
    if match.match.status in Match.FINAL and last_id is not None \
            and last_id >= match.match.last_event_seq:
        return HttpResponse(status=204)  # nothing more will come: do not reconnect
    watching = match.mine is None and match.match.status not in Match.FINAL
    if watching:
        try:
            await in_thread(services.spectator_seen)(match_id=match_id, user=user)
        except REFUSED as error:
            return _refused(error)
    return StreamingHttpResponse(counted("match", _match_messages(user, token, match_id, last_id,
                                                                  watching)),
                                 content_type="text/event-stream", headers=HEADERS)


def _open_matches(user) -> tuple[dict[int, dict], dict[int, datetime]]:
    """The reader's open matches, and when each waiting one's empty seats go to bots."""
    seats = (Seat.objects.filter(user=user, match_status__in=Match.OPEN).order_by("-match_id")
             .values_list("match_id", "index", "match__status", "match__version",
                          "match__to_act", "match__bots_fill_at")[:MAX_ACCOUNT_MATCHES])
    mine, fills = {}, {}
    for m, seat, status, version, to_act, fill_at in seats:
        mine[m] = {"match": m, "seat": seat, "status": status, "version": version,
                   "your_turn": status == Match.Status.ACTIVE and to_act == seat}
        if status == Match.Status.WAITING and fill_at is not None:
            fills[m] = fill_at
    return mine, fills


def _now(match_id: int) -> dict | None:
    """The match's notice as it stands, and when a waiting one's empty seats go to bots."""
    row = Match.objects.filter(pk=match_id).values(
        "version", "status", "to_act", "bots_fill_at").first()
    return row and {"match": match_id, "types": [], **row}


def _fill(match_ids: list[int]) -> None:
    """Bots take the seats of these waiting matches, as a read of each would (with no sweep
    running, as in the embedded mode, nothing else would); their commits announce the start."""
    for match_id in match_ids:
        services.match_fill_due(match_id=match_id)


def _wait(fills: dict[int, datetime], heartbeat: float) -> float:
    if not fills:
        return heartbeat
    left = (min(fills.values()) - timezone.now()).total_seconds() + 0.1
    return max(0.1, min(left, heartbeat))


def _account_events(mine: dict, notice: dict) -> list[tuple[str, dict]]:
    """What an account stream says of a match's notice (`mine`: the reader's seat there)."""
    said = {"match": notice["match"], "version": notice["version"]}
    types = set(notice["types"])
    if mine["status"] == Match.Status.WAITING and notice["status"] == Match.Status.ACTIVE:
        types.add("match_started")  # also when the notice was made up by a look (no types)
    found = []
    if "player_joined" in types:
        found.append(("player_joined", said))
    if "match_started" in types:
        found.append(("match_started", said))
    paused = Match.Status.PAUSED
    if notice["status"] == paused and mine["status"] != paused:
        found.append(("match_paused", said))
    elif mine["status"] == paused and notice["status"] != paused:
        found.append(("match_resumed", said))
    if notice["status"] in Match.FINAL:
        found.append(("match_finished", {**said, "status": notice["status"]}))
    elif notice["status"] == Match.Status.ACTIVE and notice["to_act"] == mine["seat"]:
        found.append(("your_turn", said))
    elif mine.get("your_turn"):
        found.append(("turn_passed", said))  # played (here, elsewhere, or for you): not yours
    return found


async def _account_messages(user, token):
    subscription = _subscribe(user, token, [live.user_channel(user.pk)])
    try:
        mine, fills = await in_thread(_open_matches)(user)
        subscription.listen(live.match_channel(m) for m in mine)
        yield sse("matches", list(mine.values()))
        heartbeat, quiet = settings.STREAM_HEARTBEAT_SECONDS, time.monotonic()
        while True:
            notice = await subscription.next(_wait(fills, heartbeat))
            if notice is None:
                due = [m for m, at in fills.items() if at <= timezone.now()]
                if due:
                    for m in due:
                        del fills[m]
                    await in_thread(_fill)(due)
                if time.monotonic() - quiet >= heartbeat:
                    yield HEARTBEAT
                    quiet = time.monotonic()
                continue
            quiet = time.monotonic()
            if "talk" in notice:  # said at a table: that match's stream tells it
                continue
            if notice.get("resync"):
                mine, fills = await in_thread(_open_matches)(user)
                subscription.listen(live.match_channel(m) for m in mine)
                yield sse("matches", list(mine.values()))
            elif "rematch" in notice:  # someone asks the reader to play a finished match again
                yield sse("rematch_offered", {k: notice[k] for k in ("match", "rematch", "seat")})
            elif "seat" in notice and notice["match"] not in mine:
                # The reader sat down in a match (created or joined; or found by the look).
                mine[notice["match"]] = {"match": notice["match"], "seat": notice["seat"],
                                         "status": notice["status"],
                                         "version": notice["version"]}
                subscription.listen([live.match_channel(notice["match"])])
                yield sse("seated", {k: notice[k] for k in ("match", "seat", "status",
                                                            "version")})
                for event, data in _account_events(mine[notice["match"]], notice):
                    yield sse(event, data)
                # What the match did before this stream listened to it (bots that moved as
                # the reader joined) is read now rather than left to the next look.
                if (now := await in_thread(_now)(notice["match"])) is not None:
                    subscription.deliver(now)
                    if now["status"] == Match.Status.WAITING and now["bots_fill_at"]:
                        fills[notice["match"]] = now["bots_fill_at"]
            elif notice["match"] in mine and notice["version"] > mine[notice["match"]]["version"]:
                entry = mine[notice["match"]]
                for event, data in _account_events(entry, notice):
                    yield sse(event, data)
                entry.update(version=notice["version"], status=notice["status"],
                             your_turn=notice["status"] == Match.Status.ACTIVE
                             and notice["to_act"] == entry["seat"])
                if notice["status"] != Match.Status.WAITING:
                    fills.pop(notice["match"], None)
    except live.Stopping:
        yield RESTARTING
    except live.Ended as ended:
        yield ENDED[ended.reason]
    except (OperationalError, InterfaceError) as error:
        _ended(error)
    finally:
        subscription.close()


@takes("ticket")
@only_get
async def account_stream(request):
    try:
        user, token = await in_thread(_reader)(request)
    except REFUSED as error:
        return _refused(error)
    return StreamingHttpResponse(counted("account", _account_messages(user, token)),
                                 content_type="text/event-stream", headers=HEADERS)
