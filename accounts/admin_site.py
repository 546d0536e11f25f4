"""The admin site: Django's, with login attempts throttled per client address."""

from django.contrib import admin
from django.http import HttpResponse

from accounts.throttling import AdminLoginThrottle


class AdminSite(admin.AdminSite):
    def login(self, request, extra_context=None):
        if request.method == "POST":
            throttle = AdminLoginThrottle()
            if not throttle.allow_request(request, None):
                wait = max(1, round(throttle.wait() or 1))
                response = HttpResponse(
                    f"Too many login attempts from your address: try again in {wait} seconds.",
                    status=429, content_type="text/plain; charset=utf-8")
                response["Retry-After"] = str(wait)
                return response
        return super().login(request, extra_context)
