from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import User


@admin.register(User)
class PlayerAdmin(UserAdmin):
    list_display = ("username", "is_guest", "is_staff", "date_joined", "last_login")
    list_filter = ("is_guest", "is_staff", "is_superuser", "is_active")
    fieldsets = (*UserAdmin.fieldsets, ("Player", {"fields": ("is_guest",)}))
