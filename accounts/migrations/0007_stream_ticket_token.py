import django.db.models.deletion
from django.db import migrations, models


def forget_tickets(apps, schema_editor):
    """Tickets live 30 seconds and none says its token: those left are dropped (a client whose
    ticket fails asks for another)."""
    apps.get_model("accounts", "StreamTicket").objects.all().delete()


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0006_username_keys"),
    ]

    operations = [
        migrations.RunPython(forget_tickets, migrations.RunPython.noop),
        migrations.AddField(
            model_name="streamticket",
            name="token",
            field=models.ForeignKey(default=0, on_delete=django.db.models.deletion.CASCADE,
                                    related_name="stream_tickets", to="accounts.authtoken"),
            preserve_default=False,
        ),
    ]
