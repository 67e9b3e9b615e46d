"""The event stream with httpx, as a test or a dashboard reads it: a reader hears two pushes,
goes away, three more are sent while it is gone, and it comes back with Last-Event-ID and hears
exactly those three, in order.
   api_events_httpx.py BASE_URL SOCKET"""
import json, sys, threading, time
import httpx

base, socket = sys.argv[1], sys.argv[2]
token = "5e1ec7ed" + "0" * 56


def send(title):
    with httpx.Client(transport=httpx.HTTPTransport(uds=socket), base_url="http://localhost") as backend:
        r = backend.post(f"/3/device/{token}", headers={"apns-topic": "dev.pushbox.sample"},
                         json={"aps": {"alert": {"title": title, "body": "x"}}})
        assert r.status_code == 200, r.text


def read(stream, count, seen):
    """Reads `count` notification events; gives the last id read."""
    last, name, got = None, None, 0
    for line in stream.iter_lines():
        line = line.rstrip("\r\n")  # older httpx keeps the line's end
        if line.startswith("id: "):
            last = line[4:]
        elif line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: ") and name == "notification":
            seen.append(json.loads(line[6:])["title"])
            got += 1
            if got == count:
                return last
    return last


with httpx.Client(base_url=base, timeout=20) as api:
    seen = []
    with api.stream("GET", "/api/v1/events", params={"types": "notification"}) as stream:
        print("type", stream.status_code, stream.headers["content-type"])
        threading.Thread(target=lambda: [send(t) for t in ("one", "two")]).start()
        last = read(stream, 2, seen)
    print("first", " ".join(seen), "last-id", "yes" if last else "no")
    for title in ("three", "four", "five"):
        send(title)
    time.sleep(0.3)
    seen = []
    with api.stream("GET", "/api/v1/events", params={"types": "notification"}, headers={"Last-Event-ID": last}) as stream:
        read(stream, 3, seen)
    print("resumed", " ".join(seen))
