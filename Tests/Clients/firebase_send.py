"""firebase-admin for Python, unchanged: it reaches pushbox only through HTTPS_PROXY and the CA
in REQUESTS_CA_BUNDLE/SSL_CERT_FILE, with a service-account file from `pushbox fcm-credentials`.
   firebase_send.py SERVICE_ACCOUNT.json
Prints one line per step: "send <name>", "dry <name>", "invalid <ExceptionClass> <message>",
"batch <successes> <failures>", "token <ExceptionClass> <message>" (a registration token of the
wrong form), "project <ExceptionClass>" (the same credentials sent to another project)."""
import sys
import firebase_admin
from firebase_admin import credentials, exceptions, messaging

firebase_admin.initialize_app(credentials.Certificate(sys.argv[1]))
note = messaging.Notification(title="firebase-admin", body="hello from the Admin SDK")
print("send", messaging.send(messaging.Message(notification=note, topic="NewsApp")), flush=True)
print("dry", messaging.send(messaging.Message(notification=note, topic="NewsApp"), dry_run=True), flush=True)
try:
    messaging.send(messaging.Message(notification=note, condition="'NewsApp' in topics &&& 'LangEnUS' in topics"))
    print("invalid none")
except exceptions.FirebaseError as e:
    print("invalid", type(e).__name__, e, flush=True)
batch = [messaging.Message(notification=messaging.Notification(title="batch", body=f"message {i}"),
                           condition="'NewsApp' in topics && 'LangEnUS' in topics") for i in range(4)]
result = messaging.send_each(batch)
print("batch", result.success_count, result.failure_count, flush=True)
try:
    messaging.send(messaging.Message(notification=note, token="not a token!"))
    print("token none", flush=True)
except exceptions.FirebaseError as e:
    print("token", type(e).__name__, e, flush=True)
other = firebase_admin.initialize_app(credentials.Certificate(sys.argv[1]), {"projectId": "someone-elses-project"}, name="other")
try:
    messaging.send(messaging.Message(notification=note, topic="NewsApp"), app=other)
    print("project none", flush=True)
except exceptions.FirebaseError as e:
    print("project", type(e).__name__, flush=True)
