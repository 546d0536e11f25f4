from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from games import hooks
        from games.tasks import schedule_bots

        hooks.on_bots_due(schedule_bots)
