"""firebase-admin for Python, unchanged: one message with notification, apns and android blocks,
for both phones. firebase_both.py SERVICE_ACCOUNT.json — prints "send <name>"."""
import sys
import firebase_admin
from firebase_admin import credentials, messaging

firebase_admin.initialize_app(credentials.Certificate(sys.argv[1]))
message = messaging.Message(
    topic="NewsApp",
    notification=messaging.Notification(title="Game invite"),
    apns=messaging.APNSConfig(payload=messaging.APNSPayload(aps=messaging.Aps(
        alert=messaging.ApsAlert(loc_key="GAME_PLAY_REQUEST_FORMAT", loc_args=["Shelly", "Rick"]), category="GAME_INVITATION"))),
    android=messaging.AndroidConfig(notification=messaging.AndroidNotification(
        title_loc_key="game_invite_title", body_loc_key="game_invite_body", body_loc_args=["Shelly", "Rick"],
        channel_id="invites", color="#E53935", tag="game-12345678")))
print("send", messaging.send(message), flush=True)
