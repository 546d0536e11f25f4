"""The Redis transport's mend (bots/broker.py): a worker whose connection is gone puts nothing
back, rather than dying of it."""

from types import SimpleNamespace

from bots.broker import QoS


def test_a_worker_that_lost_redis_puts_nothing_back_and_lives():
    # kombu's channel by then: its transport's client is gone (and no restore is left for exit).
    closed = SimpleNamespace(connection=SimpleNamespace(client=None), do_restore=False)
    qos = QoS(closed)
    qos._delivered["1"] = SimpleNamespace()
    assert qos.restore_unacked() is None
    assert not qos._delivered
