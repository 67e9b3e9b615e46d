"""Posts one APNs request to pushbox's port with httpx over HTTP/2 (Debian's python3-httpx + python3-h2)
and prints "<http_version> <status> <apns-id>".   httpx_send.py URL CA_FILE TOKEN"""
import sys
import httpx

url, ca, token = sys.argv[1], sys.argv[2], sys.argv[3]
with httpx.Client(http2=True, verify=ca) as client:
    r = client.post(url, content=b'{"aps":{"alert":{"title":"httpx","body":"hello"}}}',
                    headers={"authorization": "bearer " + token, "apns-topic": "dev.pushbox.sample"})
    print(r.http_version, r.status_code, r.headers.get("apns-id"))
