"""aioapns or PyAPNs2 (apns2, or its fork apns2-up), unchanged, under `pushbox exec --chaos …`: sends two pushes one
after the other, each with its own apns-id, and prints what each came to (the status and
reason, or the exception the library raised).
   chaos_apns.py aioapns|apns2 KEY_FILE KEY_ID TEAM_ID"""
import sys, uuid
library, key, key_id, team = sys.argv[1:5]
ids = [str(uuid.UUID(int=i + 1)) for i in range(2)]
if library == "aioapns":
    import asyncio
    from aioapns import APNs, NotificationRequest
    async def main():
        apns = APNs(key=open(key).read(), key_id=key_id, team_id=team, topic="dev.pushbox.sample", use_sandbox=True)
        for n, apns_id in enumerate(ids):
            try:
                r = await asyncio.wait_for(apns.send_notification(NotificationRequest(
                    device_token="00" * 32, notification_id=apns_id, message={"aps": {"alert": f"push {n}"}})), 20)
                print(n, r.status, r.description or "-", flush=True)
            except Exception as e:
                print(n, type(e).__name__, flush=True)
    asyncio.run(main())
else:
    import collections, collections.abc
    for name in ("Iterable", "Mapping", "MutableMapping", "MutableSet", "Sequence", "Callable"):
        setattr(collections, name, getattr(collections.abc, name))
    from apns2.client import APNsClient
    from apns2.credentials import TokenCredentials
    from apns2.payload import Payload
    client = APNsClient(credentials=TokenCredentials(auth_key_path=key, auth_key_id=key_id, team_id=team), use_sandbox=True)
    for n, apns_id in enumerate(ids):
        try:
            client.send_notification("00" * 32, Payload(alert=f"push {n}"), topic="dev.pushbox.sample")
            print(n, 200, "-", flush=True)
        except Exception as e:
            print(n, type(e).__name__, flush=True)
