"""What every admin page of the project shares (the accounts app's too: it may import games)."""

from django.contrib.admin import helpers
from django.core.exceptions import ValidationError
from django.http import HttpResponseBadRequest


class CheckedSelection:
    """A ModelAdmin mixin: an action on a selection that names no row id (a hand-made POST)
    answers 400. Django's own filters the queryset with the values as sent, and a value that is
    not an id fails there with a 500."""

    def response_action(self, request, queryset):
        pk = self.model._meta.pk
        try:
            for value in request.POST.getlist(helpers.ACTION_CHECKBOX_NAME):
                pk.to_python(value)
        except ValidationError:
            return HttpResponseBadRequest("invalid_selection: a selected id is not a row id")
        return super().response_action(request, queryset)
