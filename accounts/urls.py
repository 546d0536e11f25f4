"""The auth routes under /api/v1/auth/."""

from django.urls import path

from accounts import api

urlpatterns = [
    path("guest/", api.GuestView.as_view(), name="auth-guest"),
    path("register/", api.RegisterView.as_view(), name="auth-register"),
    path("login/", api.LoginView.as_view(), name="auth-login"),
    path("refresh/", api.RefreshView.as_view(), name="auth-refresh"),
    path("logout/", api.LogoutView.as_view(), name="auth-logout"),
    path("upgrade/", api.UpgradeView.as_view(), name="auth-upgrade"),
    path("me/", api.MeView.as_view(), name="auth-me"),
    path("stream-ticket/", api.StreamTicketView.as_view(), name="auth-stream-ticket"),
]
