"""The Celery app in the embedded mode: tasks run eagerly, in this process."""

from config import celery_app
from config.tasks import ping


def test_without_a_broker_tasks_run_eagerly():
    assert celery_app.conf.task_always_eager is True
    assert celery_app.conf.task_eager_propagates is True


def test_ping_task_runs_through_the_app():
    assert "config.tasks.ping" in celery_app.tasks
    assert ping.delay().get(timeout=1) == "pong"
