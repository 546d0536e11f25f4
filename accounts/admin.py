from django.contrib import admin
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group

from accounts.models import AuthToken, User
from games.admin_base import CheckedSelection


@admin.register(User)
class PlayerAdmin(CheckedSelection, UserAdmin):
    list_display = ("username", "display_name", "is_guest", "is_staff", "date_joined",
                    "last_login")
    search_fields = (*UserAdmin.search_fields, "display_name")
    list_filter = ("is_guest", "is_staff", "is_superuser", "is_active")
    fieldsets = (*UserAdmin.fieldsets, ("Player", {"fields": ("is_guest",)}))


@admin.register(AuthToken)
class AuthTokenAdmin(CheckedSelection, admin.ModelAdmin):
    """Tokens can be seen and revoked (deleted) here, never made: a key exists only where the
    client keeps it."""

    list_display = ("id", "user", "created_at", "expires_at")
    list_select_related = ("user",)
    search_fields = ("user__username",)
    readonly_fields = ("digest", "user", "created_at", "expires_at")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


admin.site.unregister(Group)


@admin.register(Group)
class CheckedGroupAdmin(CheckedSelection, GroupAdmin):
    """Django's, with the selection checked like every other admin page's."""
