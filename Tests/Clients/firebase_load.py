"""firebase-admin for Python, unchanged (HTTPS_PROXY and the CA only), sending COUNT messages one
after another; prints "200 <message id>" for each one FCM acknowledged, and stops at the first
failure (the server went away). Used by the fault test as its FCM-through-the-tunnel load.
   firebase_load.py SERVICE_ACCOUNT.json COUNT"""
import sys
import firebase_admin
from firebase_admin import credentials, messaging

firebase_admin.initialize_app(credentials.Certificate(sys.argv[1]))
for i in range(int(sys.argv[2])):
    try:
        name = messaging.send(messaging.Message(notification=messaging.Notification(title="fcm", body=f"load {i}"), topic="NewsApp"))
    except Exception:
        sys.exit(0)
    print("200", name.rsplit("/", 1)[-1], flush=True)
