from django.contrib import admin
from django.urls import include, path

from games.api.metrics import metrics_view
from web.views import index

urlpatterns = [
    path("", index, name="web-table"),
    path("admin/", admin.site.urls),
    path("metrics", metrics_view, name="metrics"),
    path("api/v1/auth/", include("accounts.urls")),
    path("api/v1/", include("ratings.urls")),
    path("api/v1/", include("games.api.urls")),
]

# Errors raised outside DRF views (unknown URLs, oversized or suspicious requests, crashes)
# keep the API's one error shape under /api/; the admin keeps Django's pages.
handler400 = "games.api.errors.bad_request"
handler404 = "games.api.errors.page_not_found"
handler500 = "games.api.errors.server_error"
