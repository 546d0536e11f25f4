"""Kombu's Redis transport, as Celery uses it, with one mend: a worker no longer dies when Redis
goes away while it holds a task it has not acknowledged (acks are late here, so it nearly always
does). Kombu then closes the channel after the connection, and putting the task back in the
queue finds no connection to do it with: "Unrecoverable error: AttributeError ... 'hostname'",
and the worker exits. Nothing needs putting back at that point: the task stays in Redis's hash
of unacknowledged messages, which a worker restores after the visibility timeout; and if Redis
lost it, the match row still says the turn is due and the recovery sweep queues it again."""

from kombu.transport import redis


class QoS(redis.QoS):
    def restore_unacked(self, client=None):
        if client is None and self.channel.connection.client is None:  # the connection is gone
            self._delivered.clear()
            return None
        return super().restore_unacked(client)


class Channel(redis.Channel):
    QoS = QoS


class Transport(redis.Transport):
    Channel = Channel
