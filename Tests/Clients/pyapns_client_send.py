"""pyapns_client (2.0.6), unchanged: its documented root_cert_path is pushbox's CA, and httpx,
which it sends with, reaches pushbox through HTTPS_PROXY as it reaches any proxy.
   pyapns_client_send.py CA_FILE KEY_FILE KEY_ID TEAM_ID COUNT
Prints one line per push: "200 sent", or "error <ExceptionClass> <timestamp or ->"."""
import sys
from pyapns_client import APNSClient, IOSNotification, IOSPayload, IOSPayloadAlert
from pyapns_client.exceptions import APNSException

ca, key, key_id, team, count = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
client = APNSClient(mode=APNSClient.MODE_DEV, root_cert_path=ca, auth_key_path=key, auth_key_id=key_id, team_id=team)
for i in range(count):
    notification = IOSNotification(payload=IOSPayload(alert=IOSPayloadAlert(title="pyapns_client", body=f"message {i}")), topic="dev.pushbox.sample")
    try:
        client.push(notification=notification, device_token="00" * 32)
        print("200 sent", flush=True)
    except APNSException as e:
        print("error", type(e).__name__, getattr(e, "timestamp", None) or "-", flush=True)
client.close()
