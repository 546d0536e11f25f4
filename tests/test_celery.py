"""The Celery app in the embedded mode: tasks run eagerly, in this process."""

from config import celery_app


def test_without_a_broker_tasks_run_eagerly():
    assert celery_app.conf.task_always_eager is True
    assert celery_app.conf.task_eager_propagates is True


def test_the_apps_tasks_are_found():
    assert {"bots.tasks.bot_act", "bots.tasks.recover_turns"} <= set(celery_app.tasks)
