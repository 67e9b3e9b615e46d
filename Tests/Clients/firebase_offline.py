"""firebase-admin for Python, unchanged (HTTPS_PROXY and the CA only), sending what an offline
device's storage rules tell apart: ttl 0 (now or never), two messages under one collapse key,
one with an hour to live and one with a second. Prints "LABEL sent <name>" or "LABEL error <Exception>".
   firebase_offline.py SERVICE_ACCOUNT.json TOKEN"""
import sys
import firebase_admin
from firebase_admin import credentials, exceptions, messaging

firebase_admin.initialize_app(credentials.Certificate(sys.argv[1]))
messages = [
    ("now-or-never", messaging.AndroidConfig(ttl=0)),
    ("score-1", messaging.AndroidConfig(collapse_key="score", ttl=3600)),
    ("score-2", messaging.AndroidConfig(collapse_key="score", ttl=3600)),
    ("hour", messaging.AndroidConfig(ttl=3600)),
    ("second", messaging.AndroidConfig(ttl=1, collapse_key="brief")),
]
for label, android in messages:
    try:
        name = messaging.send(messaging.Message(notification=messaging.Notification(title=label, body="while offline"),
                                                android=android, token=sys.argv[2]))
        print(label, "sent", name, flush=True)
    except exceptions.FirebaseError as e:
        print(label, "error", type(e).__name__, flush=True)
