"""kalyke's LiveActivityClient, unchanged (Apple's sandbox host; run under pushbox exec).
   kalyke_live_activity.py KEY_FILE KEY_ID TEAM_ID TOKEN TIMESTAMP
   Sends one update and then the end to TOKEN."""
import asyncio, sys
from datetime import datetime, timezone
from kalyke import ApnsPriority, LiveActivityApnsConfig, LiveActivityClient, LiveActivityEvent, LiveActivityPayload, PayloadAlert

key, key_id, team, token, ts = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])

async def main():
    client = LiveActivityClient(use_sandbox=True, team_id=team, auth_key_id=key_id, auth_key_filepath=key)
    config = LiveActivityApnsConfig(topic="dev.pushbox.la.push-type.liveactivity", priority=ApnsPriority.BASED_ON_POWER)
    update = LiveActivityPayload(alert=PayloadAlert(title="kalyke", body="score 6"), timestamp=datetime.fromtimestamp(ts, timezone.utc),
                                 event=LiveActivityEvent.UPDATE, content_state={"score": 6, "period": "second"})
    print("update", await client.send_message(device_token=token, payload=update, apns_config=config), flush=True)
    end = LiveActivityPayload(timestamp=datetime.fromtimestamp(ts + 1, timezone.utc), event=LiveActivityEvent.END,
                              content_state={"score": 6, "period": "second"}, dismissal_date=datetime.fromtimestamp(ts + 1800, timezone.utc))
    print("end", await client.send_message(device_token=token, payload=end, apns_config=config), flush=True)

asyncio.run(main())
