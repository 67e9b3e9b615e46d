"""PyAPNs2 (apns2 0.7.2), stock use_sandbox=True with no CA given: run under `pushbox exec --`.
   exec_pyapns2.py KEY_FILE KEY_ID TEAM_ID"""
import collections, collections.abc, sys
for name in ("Iterable", "Mapping", "MutableMapping", "MutableSet", "Sequence", "Callable"):
    setattr(collections, name, getattr(collections.abc, name))
from apns2.client import APNsClient
from apns2.credentials import TokenCredentials
from apns2.payload import Payload
client = APNsClient(credentials=TokenCredentials(auth_key_path=sys.argv[1], auth_key_id=sys.argv[2], team_id=sys.argv[3]), use_sandbox=True)
client.send_notification("00" * 32, Payload(alert={"title": "PyAPNs2", "body": "stock"}), topic="dev.pushbox.sample")
print("200 sent", flush=True)
