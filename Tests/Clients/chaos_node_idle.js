// node chaos_node_idle.js HOST:PORT CA_FILE PROVIDER_TOKEN DEVICE_TOKEN
// Node's built-in http2 client: one push, then the session left idle for 3 s; prints the push's
// status, then what the session heard: "goaway CODE" when the server said GOAWAY, "error CODE"
// when the connection failed (a reset), and "closed".
const http2 = require("http2");
const fs = require("fs");
const [address, ca, token, deviceToken] = process.argv.slice(2);
const session = http2.connect(`https://${address}`, {ca: fs.readFileSync(ca), servername: "localhost"});
session.on("goaway", (code) => console.log("goaway", code));
session.on("error", (e) => console.log("error", e.code));
session.on("close", () => { console.log("closed"); process.exit(0); });
const req = session.request({":method": "POST", ":path": `/3/device/${deviceToken}`, "authorization": `bearer ${token}`,
  "apns-topic": "dev.pushbox.sample"});
req.on("response", (h) => console.log(h[":status"]));
req.on("data", () => {});
req.on("error", () => {});
req.end(JSON.stringify({aps: {alert: "idle"}}));
setTimeout(() => { console.log("still open"); process.exit(0); }, 3000);
