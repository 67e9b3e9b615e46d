"""firebase-admin, unchanged, sending three messages under `pushbox exec --chaos …`, one to each
of the topics retry-a, retry-b and retry-c, with its sync sender (send) or its async one
(send_each_async): prints what each send came to, `ok` or the exception firebase-admin raised.
The attempts and their spacing are pushbox's to judge (the exec summary's retries).
   chaos_firebase.py sync|async SERVICE_ACCOUNT.json"""
import asyncio, sys
import firebase_admin
from firebase_admin import credentials, messaging
firebase_admin.initialize_app(credentials.Certificate(sys.argv[2]))
topics = ["retry-a", "retry-b", "retry-c"]
note = messaging.Notification(title="retries", body="chaos")
if sys.argv[1] == "sync":
    for topic in topics:
        try:
            messaging.send(messaging.Message(notification=note, topic=topic))
            print(topic, "ok", flush=True)
        except Exception as e:
            print(topic, type(e).__name__, flush=True)
else:
    async def main():
        for topic in topics:
            r = await messaging.send_each_async([messaging.Message(notification=note, topic=topic)])
            e = r.responses[0].exception
            print(topic, "ok" if e is None else type(e).__name__, flush=True)
    asyncio.run(main())
