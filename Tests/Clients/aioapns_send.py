"""aioapns delivering to pushbox with only its host, port and trusted CA changed.
   aioapns_send.py PORT CA_FILE KEY_FILE KEY_ID TEAM_ID COUNT"""
import asyncio, ssl, sys
from aioapns import APNs, NotificationRequest
from aioapns.connection import APNsDevelopmentClientProtocol

port, ca, key, key_id, team, count = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6])
# aioapns keeps its host and port on the protocol class; these two lines and the CA are all that change.
APNsDevelopmentClientProtocol.APNS_SERVER = "localhost"
APNsDevelopmentClientProtocol.APNS_PORT = port

async def main():
    apns = APNs(key=open(key).read(), key_id=key_id, team_id=team, topic="dev.pushbox.sample", use_sandbox=True,
                ssl_context=ssl.create_default_context(cafile=ca))
    requests = [NotificationRequest(device_token="00" * 32, message={"aps": {"alert": {"title": "aioapns", "body": f"message {i}"}}})
                for i in range(count)]
    for r in await asyncio.gather(*(apns.send_notification(q) for q in requests)):
        print(r.status, r.notification_id, r.description or "-", flush=True)

asyncio.run(main())
