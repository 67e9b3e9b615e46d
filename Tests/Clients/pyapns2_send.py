"""PyAPNs2 (apns2 0.7.2) delivering to pushbox with only its host, port and trusted CA changed.
   pyapns2_send.py PORT CA_FILE KEY_FILE KEY_ID TEAM_ID COUNT"""
import collections, collections.abc, sys
# PyAPNs2's HTTP/2 client, hyper, predates Python 3.10; any user of it on a current Python needs this.
for name in ("Iterable", "Mapping", "MutableMapping", "MutableSet", "Sequence", "Callable"):
    setattr(collections, name, getattr(collections.abc, name))
import hyper.tls
from apns2.client import APNsClient
from apns2.credentials import TokenCredentials
from apns2.payload import Payload

port, ca, key, key_id, team, count = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6])
APNsClient.SANDBOX_SERVER = "localhost"
APNsClient.ALTERNATIVE_PORT = port
credentials = TokenCredentials(auth_key_path=key, auth_key_id=key_id, team_id=team)
# PyAPNs2 takes no CA for token credentials; its connection's SSL context is where hyper reads one.
credentials._Credentials__ssl_context = hyper.tls.init_context(cert_path=ca)
client = APNsClient(credentials=credentials, use_sandbox=True, use_alternative_port=True)
for i in range(count):
    client.send_notification("00" * 32, Payload(alert={"title": "PyAPNs2", "body": f"message {i}"}), topic="dev.pushbox.sample")
    print("200 sent", i, flush=True)
