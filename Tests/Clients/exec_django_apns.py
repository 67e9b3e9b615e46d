"""django-push-notifications' APNs backend in a minimal Django settings module, as its README
configures it: a .p8 key, its id, the team, the topic, the sandbox. No host, port or CA anywhere.
   exec_django_apns.py KEY_FILE KEY_ID TEAM_ID DEVICE_TOKEN"""
import collections, collections.abc, sys
# PyAPNs2's HTTP/2 client, hyper, predates Python 3.10; any user of it on a current Python needs this.
for name in ("Iterable", "Mapping", "MutableMapping", "MutableSet", "Sequence", "Callable"):
    setattr(collections, name, getattr(collections.abc, name))
import django
from django.conf import settings

key, key_id, team, device = sys.argv[1:5]
settings.configure(
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "push_notifications"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
    PUSH_NOTIFICATIONS_SETTINGS={"APNS_AUTH_KEY_PATH": key, "APNS_AUTH_KEY_ID": key_id, "APNS_TEAM_ID": team,
                                 "APNS_TOPIC": "dev.pushbox.sample", "APNS_USE_SANDBOX": True},
    DEFAULT_AUTO_FIELD="django.db.models.AutoField")
django.setup()
from push_notifications.apns import apns_send_message
from push_notifications.exceptions import APNSServerError
apns_send_message(registration_id=device, alert={"title": "django-push-notifications", "body": "APNs backend"})
print("sent", flush=True)
try:
    apns_send_message(registration_id="not-hex", alert="a token APNs refuses")
    print("bad none", flush=True)
except APNSServerError as e:
    print("bad", e.status, flush=True)
