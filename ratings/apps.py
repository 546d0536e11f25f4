from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"

    def ready(self) -> None:
        from games import hooks
        from ratings.services import match_rate

        hooks.on_match_finished(match_rate)
