"""aioapns with its default hosts, unchanged: run under `pushbox exec --`.
   exec_aioapns.py KEY_FILE KEY_ID TEAM_ID [production]
   (production: use_sandbox=False, api.push.apple.com; else the sandbox host)"""
import asyncio, sys
from aioapns import APNs, NotificationRequest
async def main():
    sandbox = not (len(sys.argv) > 4 and sys.argv[4] == "production")
    apns = APNs(key=open(sys.argv[1]).read(), key_id=sys.argv[2], team_id=sys.argv[3], topic="dev.pushbox.sample", use_sandbox=sandbox)
    r = await apns.send_notification(NotificationRequest(device_token="00" * 32, message={"aps": {"alert": {"title": "aioapns", "body": "stock"}}}))
    print(r.status, r.description or "-", flush=True)
asyncio.run(main())
