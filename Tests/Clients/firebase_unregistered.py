"""firebase-admin for Python, unchanged (HTTPS_PROXY and the CA only), sending to this device's
registration token: prints "sent <name>", or "error <ExceptionClass>" when FCM refuses it.
   firebase_unregistered.py SERVICE_ACCOUNT.json TOKEN"""
import sys
import firebase_admin
from firebase_admin import credentials, exceptions, messaging

firebase_admin.initialize_app(credentials.Certificate(sys.argv[1]))
try:
    name = messaging.send(messaging.Message(notification=messaging.Notification(title="cleanup", body="are you there?"), token=sys.argv[2]))
    print("sent", name, flush=True)
except exceptions.FirebaseError as e:
    print("error", type(e).__name__, flush=True)
