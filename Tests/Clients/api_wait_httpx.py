"""The test API with httpx, as a backend's integration test uses it: wait for a notification
matching a query while the code under test sends it (here through pushbox's socket, which asks
for no credentials), then list, fetch and clear.
   api_wait_httpx.py BASE_URL SOCKET"""
import sys, threading, time
import httpx

base = sys.argv[1]
with httpx.Client(base_url=base, timeout=20) as api:
    assert api.get("/api/v1/health").json()["status"] == "ready"
    cursor = api.get("/api/v1/notifications", params={"limit": 1}).json()["notifications"]
    after = cursor[0]["cursor"] if cursor else "0"

    def send():
        time.sleep(0.3)
        with httpx.Client(transport=httpx.HTTPTransport(uds=sys.argv[2]), base_url="http://localhost") as backend:
            backend.post("/v1/projects/shop/messages:send",
                         json={"message": {"topic": "LangJaJP", "notification": {"title": "ご注文を発送しました", "body": "order 42"}}})
    threading.Thread(target=send).start()
    waited = api.get("/api/v1/wait", params={"query": "lang:ja 発送 device:ja", "timeout": 10, "after": after})
    print("wait", waited.status_code, waited.json()["notification"]["title"])
    found = api.get("/api/v1/notifications", params={"query": "device:ja source:fcm"}).json()["notifications"]
    print("list", len(found), found[0]["device"])
    one = api.get(f"/api/v1/notifications/{found[0]['apnsId']}", params={"lang": "en"}).json()
    print("one", [d["device"] for d in one["deliveries"]], one["deliveries"][0]["rendering"]["trace"][0]["step"])
    print("bad", api.get("/api/v1/notifications", params={"query": "colour:red"}).json()["code"])
    print("timeout", api.get("/api/v1/wait", params={"query": "nothing-like-this", "timeout": 0.2}).status_code)
    print("deleted", api.delete("/api/v1/notifications", params={"query": "device:ja"}).json()["deleted"])
    print("rebinding", api.get("/api/v1/health", headers={"Host": "attacker.example"}).status_code)
    print("requests", [r["status"] for r in api.get("/api/v1/requests", params={"query": "source:socket status:200 messages"}).json()["requests"]])
    print("device", api.get("/api/v1/device", params={"device": "ja"}).json()["languages"])
    print("openapi", api.get("/api/v1/openapi.json").json()["openapi"])
