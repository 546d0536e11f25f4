"""Every route under /api/v1/, in one list."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from accounts import api as auth
from games.api.health import HealthView

urlpatterns = [
    path("health/", HealthView.as_view(), name="health"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("auth/guest/", auth.GuestView.as_view(), name="auth-guest"),
    path("auth/register/", auth.RegisterView.as_view(), name="auth-register"),
    path("auth/login/", auth.LoginView.as_view(), name="auth-login"),
    path("auth/me/", auth.MeView.as_view(), name="auth-me"),
]
