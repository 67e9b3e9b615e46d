"""aioapns, unchanged, as a backend sends one push per user: each user's device token with that
user's own loc-args, the text left to each phone's localization. Run under `pushbox exec --`.
   fleet_aioapns.py KEY_FILE KEY_ID TEAM_ID TOKEN=INVITER ..."""
import asyncio, sys
from aioapns import APNs, NotificationRequest

async def main():
    apns = APNs(key=open(sys.argv[1]).read(), key_id=sys.argv[2], team_id=sys.argv[3], topic="dev.pushbox.sample", use_sandbox=True)
    for user in sys.argv[4:]:
        token, inviter = user.split("=", 1)
        alert = {"title-loc-key": "GAME_PLAY_REQUEST_TITLE", "loc-key": "GAME_PLAY_REQUEST_FORMAT", "loc-args": [inviter, "Rick"]}
        r = await apns.send_notification(NotificationRequest(device_token=token, message={"aps": {"alert": alert}}))
        print(r.status, r.description or "-", flush=True)

asyncio.run(main())
