#!/usr/bin/env python3
"""Sends APNs requests to pushbox's Unix socket over HTTP/1.1 with Python's http.client, one
connection, one request after another, each with an apns-id of its own; prints one line per
answer: "<status> <apns-id>". Used by pushbox's fault test as a second, plain-HTTP load.

  socket_send.py SOCKET COUNT"""
import http.client, socket, sys, uuid

class UnixConnection(http.client.HTTPConnection):
    def __init__(self, path):
        super().__init__("localhost", timeout=10)
        self.path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(self.path)

path, count = sys.argv[1], int(sys.argv[2])
connection = UnixConnection(path)
for i in range(count):
    apns_id = str(uuid.uuid4())
    try:
        connection.request("POST", "/3/device/" + "00" * 32, body=b'{"aps":{"alert":{"title":"socket","body":"m%d"}}}' % i,
                           headers={"apns-id": apns_id, "apns-push-type": "alert", "apns-topic": "dev.pushbox.sample"})
        response = connection.getresponse()
        response.read()
    except (OSError, http.client.HTTPException):
        sys.exit(0)  # the server went away: what was answered is printed
    print(response.status, apns_id, flush=True)
