// Run under `pushbox exec --`: node exec_node_http2.js PROVIDER_TOKEN DEVICE_TOKEN
// Node's built-in http2 client posting to Apple's sandbox host, as a Node backend does.
const http2 = require("http2");
const [token, deviceToken] = process.argv.slice(2);
const session = http2.connect("https://api.sandbox.push.apple.com");
const req = session.request({":method": "POST", ":path": `/3/device/${deviceToken}`, "authorization": `bearer ${token}`,
  "apns-topic": "dev.pushbox.sample", "apns-push-type": "alert"});
let status = 0, body = "";
req.on("response", (h) => { status = h[":status"]; });
req.on("data", (d) => { body += d; });
req.on("end", () => { console.log(status, body || "-"); session.close(); });
req.on("error", (e) => { console.log("error", e.code); process.exit(1); });
req.end(JSON.stringify({aps: {alert: {title: "node http2", body: "stock"}}}));
