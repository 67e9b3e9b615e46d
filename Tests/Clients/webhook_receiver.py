"""A webhook's receiving end, as a team would write it with Python's standard library: each POST's
JSON body is appended to OUT (one per line) and answered 204.
   webhook_receiver.py PORT_FILE OUT"""
import json, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Hook(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        item = json.loads(body)
        with open(sys.argv[2], "a", encoding="utf-8") as out:
            out.write(json.dumps({"path": self.path, "type": self.headers["Content-Type"], "title": item.get("title") or (item.get("intended") or {}).get("title"), "status": item.get("status"),
                                  "cursor": item.get("cursor")}, ensure_ascii=False) + "\n")
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Hook)
with open(sys.argv[1], "w") as f:
    f.write(str(server.server_address[1]))
server.serve_forever()
