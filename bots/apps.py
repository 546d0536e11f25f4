from django.apps import AppConfig


class BotsConfig(AppConfig):
    name = "bots"

    def ready(self) -> None:
        from bots.tasks import enqueue_bot_turn
        from games import hooks

        hooks.on_server_turn(enqueue_bot_turn)
