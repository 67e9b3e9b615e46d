"""firebase-admin for Python, unchanged (HTTPS_PROXY and the CA only): FCM's judgement of
tokens and installation ids, and topic management through FCM's API and the Instance ID service.
   firebase_tokens.py SERVICE_ACCOUNT.json DEVICE_TOKEN DEVICE_FID
Prints one line per step, "STEP RESULT…", as the SDK reports it."""
import sys
import warnings
import firebase_admin
from firebase_admin import credentials, exceptions, messaging

firebase_admin.initialize_app(credentials.Certificate(sys.argv[1]))
device_token, device_fid = sys.argv[2], sys.argv[3]
stale = ["staleInstance01:APA91b" + "x" * 120, "staleInstance02:APA91b" + "y" * 120]
note = lambda title: messaging.Notification(title=title, body="tokens")

def send(step, **target):
    try:
        print(step, "sent", messaging.send(messaging.Message(notification=note(step), **target)), flush=True)
    except exceptions.FirebaseError as e:
        print(step, "error", type(e).__name__, flush=True)

def topics(step, call, tokens, topic):
    r = call(tokens, topic)
    errors = " ".join(f"{e.index}:{e.reason}" for e in r.errors)
    print(step, r.success_count, r.failure_count, errors, flush=True)

send("malformed-token", token="not a token!")
send("stale-token", token=stale[0])
send("malformed-fid", fid="not-an-installation-id")
send("device-fid", fid=device_fid)
send("device-token", token=device_token)
each = messaging.send_each([
    messaging.Message(notification=note("each-topic"), topic="NewsApp"),
    messaging.Message(notification=note("each-condition"), condition="'NewsApp' in topics"),
    messaging.Message(notification=note("each-malformed"), token="not a token!"),
])
print("send-each", each.success_count, each.failure_count, flush=True)
multi = messaging.send_each_for_multicast(messaging.MulticastMessage(notification=note("multicast"), tokens=stale))
print("multicast", multi.success_count, multi.failure_count,
      " ".join(type(r.exception).__name__ for r in multi.responses if r.exception), flush=True)
send("ko-before", condition="'LangKoKR' in topics")
topics("subscribe", messaging.subscribe_to_topic, [device_token, "not a token!", stale[1]], "/topics/LangKoKR")
send("ko-subscribed", condition="'LangKoKR' in topics")
topics("unsubscribe", messaging.unsubscribe_from_topic, [device_token], "LangKoKR")
send("ko-unsubscribed", condition="'LangKoKR' in topics")
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    topics("legacy-subscribe", messaging.subscribe_to_topic_legacy, [device_token, stale[0]], "Legacy")
send("legacy-subscribed", topic="Legacy")
