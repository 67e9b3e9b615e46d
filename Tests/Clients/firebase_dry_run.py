"""firebase-admin for Python, unchanged (HTTPS_PROXY and the CA only): each target sent as a dry
run and for real, with send and with send_each, to tell whether FCM's validate_only answers as the
real send does.
   firebase_dry_run.py SERVICE_ACCOUNT.json DEVICE_TOKEN
Prints one line per target, "TARGET DRY REAL EACH-DRY EACH-REAL", each the SDK's result: "sent"
or the exception's class name."""
import sys
import firebase_admin
from firebase_admin import credentials, exceptions, messaging

firebase_admin.initialize_app(credentials.Certificate(sys.argv[1]))
targets = {
    "device-token": {"token": sys.argv[2]},
    "foreign-token": {"token": "foreignInstance1:APA91b" + "z" * 120},
    "malformed-token": {"token": "not a token!"},
    "malformed-fid": {"fid": "not-an-installation-id"},
    "topic": {"topic": "NewsApp"},
}

def outcome(call):
    try:
        call()
        return "sent"
    except exceptions.FirebaseError as e:
        return type(e).__name__

def each(message, dry):
    r = messaging.send_each([message], dry_run=dry).responses[0]
    return "sent" if r.success else type(r.exception).__name__

for name, target in targets.items():
    message = messaging.Message(notification=messaging.Notification(title=name, body="dry run"), **target)
    dry = outcome(lambda: messaging.send(message, dry_run=True))
    real = outcome(lambda: messaging.send(message))
    print(name, dry, real, each(message, True), each(message, False), flush=True)
