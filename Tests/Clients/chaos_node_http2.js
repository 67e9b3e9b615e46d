// Run under `pushbox exec --chaos …`: node chaos_node_http2.js PROVIDER_TOKEN DEVICE_TOKEN COUNT
// Node's built-in http2 client sending COUNT pushes at once on one session, as a Node backend
// does: prints, in order, each one's status, or the error code Node gave it; then the session's
// remote SETTINGS_MAX_CONCURRENT_STREAMS.
const http2 = require("http2");
const [token, deviceToken, count] = process.argv.slice(2);
const session = http2.connect("https://api.sandbox.push.apple.com");
session.on("error", () => {});
const one = (n) => new Promise((resolve) => {
  const req = session.request({":method": "POST", ":path": `/3/device/${deviceToken}`, "authorization": `bearer ${token}`,
    "apns-topic": "dev.pushbox.sample", "apns-push-type": "alert", "apns-id": `00000000-0000-0000-0000-${String(n + 1).padStart(12, "0")}`});
  let status = 0;
  req.on("response", (h) => { status = h[":status"]; });
  req.on("data", () => {});
  req.on("end", () => resolve(String(status)));
  req.on("error", (e) => resolve(e.code + (req.rstCode ? ` ${req.rstCode}` : "")));
  req.end(JSON.stringify({aps: {alert: {title: "node http2", body: `push ${n}`}}}));
});
Promise.all([...Array(Number(count)).keys()].map(one)).then((results) => {
  for (const r of results) console.log(r);
  console.log("max-streams", session.remoteSettings.maxConcurrentStreams);
  session.close();
});
