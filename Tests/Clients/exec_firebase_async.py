"""firebase-admin's async senders, unchanged, under `pushbox exec --`: send_each_async (one
message for the device's topic, one for a topic it does not follow) and
send_each_for_multicast_async (one well-formed token, one not).
   exec_firebase_async.py SERVICE_ACCOUNT.json"""
import asyncio, sys
import firebase_admin
from firebase_admin import credentials, messaging
firebase_admin.initialize_app(credentials.Certificate(sys.argv[1]))
note = messaging.Notification(title="firebase-admin", body="send_each_async")
async def main():
    r = await messaging.send_each_async([messaging.Message(notification=note, topic="NewsApp"),
                                         messaging.Message(notification=note, topic="SomeoneElsesTopic")])
    print("each", r.success_count, r.failure_count, flush=True)
    r = await messaging.send_each_for_multicast_async(messaging.MulticastMessage(notification=note, tokens=["fake-token-" + "a" * 140, "not a token!"]))
    print("multicast", r.success_count, r.failure_count, flush=True)
asyncio.run(main())
