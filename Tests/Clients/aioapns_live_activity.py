"""aioapns sending Live Activity pushes (PushType.LIVEACTIVITY) to pushbox, host, port and CA changed.
   aioapns_live_activity.py PORT CA_FILE KEY_FILE KEY_ID TEAM_ID TOKEN TIMESTAMP
   Sends one update to TOKEN with TIMESTAMP, then one with TIMESTAMP - 60 (out of order)."""
import asyncio, ssl, sys
from aioapns import APNs, NotificationRequest, PushType
from aioapns.connection import APNsDevelopmentClientProtocol

port, ca, key, key_id, team, token, ts = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6], int(sys.argv[7])
APNsDevelopmentClientProtocol.APNS_SERVER = "localhost"
APNsDevelopmentClientProtocol.APNS_PORT = port

async def main():
    apns = APNs(key=open(key).read(), key_id=key_id, team_id=team, topic="dev.pushbox.la.push-type.liveactivity", use_sandbox=True,
                ssl_context=ssl.create_default_context(cafile=ca))
    for stamp, score in ((ts, 5), (ts - 60, 4)):
        state = {"score": score, "period": "second"}
        r = await apns.send_notification(NotificationRequest(
            device_token=token, push_type=PushType.LIVEACTIVITY, priority=5,
            message={"aps": {"timestamp": stamp, "event": "update", "content-state": state, "alert": {"title": "aioapns", "body": f"score {score}"}}}))
        print(r.status, r.notification_id, flush=True)

asyncio.run(main())
