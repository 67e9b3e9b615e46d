"""firebase-admin addressing a Live Activity through FCM v1 (apns.live_activity_token), through pushbox's proxy.
   firebase_live_activity.py SERVICE_ACCOUNT TOKEN TIMESTAMP"""
import sys
import firebase_admin
from firebase_admin import credentials, messaging

account, token, ts = sys.argv[1], sys.argv[2], int(sys.argv[3])
app = firebase_admin.initialize_app(credentials.Certificate(account))
aps = messaging.Aps(custom_data={"timestamp": ts, "event": "update", "content-state": {"score": 7, "period": "second"}},
                    alert=messaging.ApsAlert(title="firebase-admin", body="score 7"))
message = messaging.Message(token="fcm-token-of-this-device", apns=messaging.APNSConfig(
    live_activity_token=token, headers={"apns-priority": "5"}, payload=messaging.APNSPayload(aps=aps)))
print("send", messaging.send(message), flush=True)
