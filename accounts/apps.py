from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class AccountsConfig(AppConfig):
    name = "accounts"
    default = True

    def ready(self) -> None:
        from accounts import streams

        streams.connect()


class AdminConfig(admin_apps.AdminConfig):
    """Django's admin app (INSTALLED_APPS lists it in Django's place), its site the one whose
    logins are throttled."""

    default = False  # not the accounts app's own config
    default_site = "accounts.admin_site.AdminSite"
