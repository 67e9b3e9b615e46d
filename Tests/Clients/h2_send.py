#!/usr/bin/env python3
"""Sends APNs requests to pushbox's port with Python's h2 library (Debian's python3-h2), all as
concurrent streams on one connection, and prints one line per answer as it arrives:
"<status> <apns-id> <reason or ->". Used by pushbox's tests as a real HTTP/2 client.

  h2_send.py PORT [--cafile CA] [--no-alpn] [--count N] [--token JWT] [--body JSON]
             [--header NAME:VALUE]... [--path PATH] [--raw-preface BYTES]
Without --cafile the connection is cleartext HTTP/2 (h2c, prior knowledge)."""
import argparse, json, socket, ssl, sys, uuid
import h2.config, h2.connection, h2.events

p = argparse.ArgumentParser()
p.add_argument("port", type=int)
p.add_argument("--cafile")
p.add_argument("--no-alpn", action="store_true")
p.add_argument("--count", type=int, default=1)
p.add_argument("--token")
p.add_argument("--body", default='{"aps":{"alert":{"title":"h2","body":"hello"}}}')
p.add_argument("--header", action="append", default=[])
p.add_argument("--path", default="/3/device/" + "00" * 32)
p.add_argument("--server-name", default="localhost")
p.add_argument("--linger", action="store_true", help="after the answers, read until the server closes")
p.add_argument("--no-wait", action="store_true", help="open streams before the server's SETTINGS arrive")
p.add_argument("--reset-mid-body", action="store_true", help="send half of each body, then RST_STREAM (CANCEL)")
a = p.parse_args()

sock = socket.create_connection(("127.0.0.1", a.port), timeout=30)
if a.cafile:
    ctx = ssl.create_default_context(cafile=a.cafile)
    if not a.no_alpn:
        ctx.set_alpn_protocols(["h2"])
    sock = ctx.wrap_socket(sock, server_hostname=a.server_name)
conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
conn.initiate_connection()
sock.sendall(conn.data_to_send())

ids, pending, answers = {}, list(range(a.count)), {}
open_streams, done = set(), 0
body = a.body.encode()

def send_some():
    limit = conn.remote_settings.max_concurrent_streams
    # New streams only while the connection's flow-control window has room for their bodies.
    while pending and len(open_streams) < limit and conn.outbound_flow_control_window >= len(body):
        pending.pop(0)
        sid = conn.get_next_available_stream_id()
        given = [h.split(":", 1)[1].strip() for h in a.header if h.lower().startswith("apns-id:")]
        apns_id = given[0] if given else str(uuid.uuid4())
        headers = [(":method", "POST"), (":scheme", "https"), (":path", a.path), (":authority", "localhost")]
        if not given:
            headers.append(("apns-id", apns_id))
        headers += [("apns-topic", "dev.pushbox.sample"), ("apns-push-type", "alert"),
                   ("content-length", str(len(body))), ("user-agent", "pushbox-tests-h2/1")]
        if a.token:
            headers.append(("authorization", "bearer " + a.token))
        for h in a.header:
            n, v = h.split(":", 1)
            headers.append((n.strip().lower(), v.strip()))
        conn.send_headers(sid, headers)
        if a.reset_mid_body:
            conn.send_data(sid, body[: len(body) // 2])
            conn.reset_stream(sid, error_code=8)
            print("reset", apns_id, flush=True)
            continue
        conn.send_data(sid, body, end_stream=True)
        ids[sid] = apns_id
        answers[sid] = {"status": None, "body": b""}
        open_streams.add(sid)
    sock.sendall(conn.data_to_send())

# Like APNs clients, wait for the server's SETTINGS (its stream limit) before opening streams.
settled = a.no_wait
while not settled:
    data = sock.recv(65536)
    if not data:
        break
    for ev in conn.receive_data(data):
        if isinstance(ev, h2.events.RemoteSettingsChanged):
            settled = True
            s = ev.changed_settings.get(h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS)
            if s is not None:
                print("max-concurrent-streams", s.new_value, flush=True)
    sock.sendall(conn.data_to_send())
send_some()
if a.reset_mid_body:
    done = a.count
lingering = False
while done < a.count or (a.linger and not lingering):
    data = sock.recv(65536)
    if not data:
        print("closed", flush=True)
        break
    sock.settimeout(None if a.linger else 30)
    for ev in conn.receive_data(data):
        if isinstance(ev, h2.events.ResponseReceived):
            answers[ev.stream_id]["status"] = dict(ev.headers).get(":status")
            answers[ev.stream_id]["id"] = dict(ev.headers).get("apns-id", "-")
        elif isinstance(ev, h2.events.DataReceived):
            answers[ev.stream_id]["body"] += ev.data
            conn.acknowledge_received_data(ev.flow_controlled_length, ev.stream_id)
        elif isinstance(ev, (h2.events.StreamEnded, h2.events.StreamReset)):
            if ev.stream_id in open_streams:
                ans = answers[ev.stream_id]
                reason = "-"
                if ans["body"]:
                    try: reason = json.loads(ans["body"]).get("reason", "-")
                    except ValueError: reason = "?"
                status = ans["status"] or (f"reset-{int(ev.error_code)}" if isinstance(ev, h2.events.StreamReset) else "?")
                print(status, ans.get("id", ids[ev.stream_id]), reason, flush=True)
                open_streams.discard(ev.stream_id)
                done += 1
        elif isinstance(ev, h2.events.ConnectionTerminated):
            print("goaway", int(ev.error_code), (ev.additional_data or b"").decode(), flush=True)
            done = a.count
            lingering = True
        elif isinstance(ev, h2.events.RemoteSettingsChanged):
            s = ev.changed_settings.get(h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS)
            if s is not None:
                print("max-concurrent-streams", s.new_value, flush=True)
    send_some()
