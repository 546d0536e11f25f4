"""gunicorn's settings file for the web processes (`gunicorn -c python:config.gunicorn`)."""


def child_exit(server, worker) -> None:
    """A web worker ended: its live gauges leave the shared metrics directory with it."""
    from config.prometheus import process_gone

    process_gone(worker.pid)
