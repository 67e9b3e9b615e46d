// pushbox's inbox in a browser. Everything comes from the API for tests (/api/v1/), the same JSON
// and query language as pushbox list and the terminal inbox; payload text is only ever set as text
// (textContent), never parsed as HTML.
"use strict";

const state = { items: [], selected: null, query: "", device: null };
const $ = (id) => document.getElementById(id);

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const json = await response.json();
  if (!response.ok) throw new Error(json.detail || json.error || String(response.status));
  return json;
}

function text(element, value) {
  element.textContent = value == null ? "" : String(value);
}

function shownTitle(item) {
  return item.title ?? item.intended?.title ?? "";
}

function shownBody(item) {
  return item.body ?? item.intended?.body ?? "";
}

function renderList() {
  const list = $("notifications");
  list.replaceChildren();
  for (const item of state.items) {
    const li = document.createElement("li");
    li.dataset.cursor = item.cursor;
    if (item.status != null && item.status !== 200) li.classList.add("refused");
    if (state.selected === item.cursor) li.classList.add("selected");
    const button = document.createElement("button");
    button.type = "button";
    const title = document.createElement("span");
    title.className = "item-title";
    text(title, shownTitle(item) || "(no title)");
    const body = document.createElement("span");
    body.className = "item-body";
    text(body, shownBody(item));
    const meta = document.createElement("span");
    meta.className = "item-meta";
    text(meta, [item.device, item.language, item.status === 200 ? item.delivery : `${item.status} ${item.reason ?? ""}`].filter(Boolean).join(" · "));
    button.append(title, body, meta);
    button.addEventListener("click", () => select(item.cursor));
    li.append(button);
    list.append(li);
  }
  $("empty").hidden = state.items.length > 0;
}

function select(cursor) {
  state.selected = cursor;
  const item = state.items.find((i) => i.cursor === cursor);
  $("none").hidden = !!item;
  $("card").hidden = !item;
  $("facts").hidden = !item;
  $("delete").hidden = !item;
  $("trace-section").hidden = !item;
  $("raw-section").hidden = !item;
  $("matrix-button").hidden = !item;
  $("tap").hidden = !item;
  $("card-lang").hidden = !item;
  $("card-lang-label").hidden = !item;
  if (item) {
    const choose = $("card-lang");
    choose.replaceChildren();
    for (const option of $("language").options) {
      const copy = document.createElement("option");
      copy.value = option.value;
      text(copy, option.value);
      copy.selected = option.selected;
      choose.append(copy);
    }
  }
  $("response-section").hidden = true;
  $("matrix-section").hidden = true;
  $("android").hidden = true;
  $("android-picture").hidden = true;
  $("card-thumb").hidden = true;
  $("card-image").hidden = true;
  $("card-actions").replaceChildren();
  $("trace").replaceChildren();
  if (!item) return;
  showDetail(item);
  text($("card-app"), state.device?.bundleID ?? "app");
  text($("card-time"), new Date(item.receivedAt).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }));
  text($("card-title"), shownTitle(item));
  text($("card-subtitle"), item.subtitle ?? item.intended?.subtitle ?? "");
  text($("card-body"), shownBody(item));
  $("card").lang = item.language ?? "";
  const facts = $("facts");
  facts.replaceChildren();
  for (const [name, value] of [
    ["apns-id", item.apnsId], ["device", item.device], ["language", item.language], ["status", item.status],
    ["reason", item.reason], ["delivery", item.delivery], ["source", item.source], ["received", item.receivedAt],
  ]) {
    if (value == null) continue;
    const dt = document.createElement("dt");
    text(dt, name);
    const dd = document.createElement("dd");
    text(dd, value);
    facts.append(dt, dd);
  }
  for (const li of $("notifications").children) li.classList.toggle("selected", li.dataset.cursor === cursor);
}

// The push's delivery with its rendering: attachments, actions and the trace.
async function showDetail(item) {
  let detail;
  try {
    detail = await api("GET", "/api/v1/notifications/" + encodeURIComponent(item.apnsId));
  } catch {
    return;
  }
  if (state.selected !== item.cursor) return;
  const delivery = detail.deliveries.find((d) => d.cursor === item.cursor) ?? detail.deliveries[0];
  const rendering = delivery?.rendering ?? {};
  showAndroid(item, rendering.android ?? item.android);
  let payload = delivery?.payload ?? "";
  try {
    payload = JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    // Not JSON: shown as it came.
  }
  const headers = (delivery?.headers ?? []).map(([name, value]) => `${name}: ${value}`).join("\n");
  text($("raw"), (headers ? headers + "\n\n" : "") + payload);
  const images = (rendering.attachments ?? []).map((a, index) => ({ ...a, index })).filter((a) => String(a.type).startsWith("image/"));
  if (images.length > 0) {
    const url = `/api/v1/notifications/${encodeURIComponent(item.apnsId)}/attachments/${images[0].index}`;
    $("card-thumb-image").src = url;
    $("card-image").src = url;
    $("card-thumb").hidden = false;
  }
  for (const action of rendering.actions ?? []) {
    const button = document.createElement("button");
    button.type = "button";
    text(button, action.title);
    if ((action.options ?? []).includes("destructive")) button.classList.add("destructive");
    button.addEventListener("click", () => respond(item, action.identifier));
    $("card-actions").append(button);
  }
  for (const entry of rendering.trace ?? []) {
    const li = document.createElement("li");
    const outcome = document.createElement("span");
    outcome.className = "outcome";
    text(outcome, `${entry.step} ${entry.outcome}`);
    li.append(outcome, document.createTextNode(" — " + (entry.detail ?? "")));
    $("trace").append(li);
  }
}

// What the app receives when the user taps the notification or chooses an action (the same
// response the terminal inbox shows).
async function respond(item, action) {
  const params = new URLSearchParams({ action, device: item.device });
  let shown;
  try {
    shown = JSON.stringify(await api("GET", `/api/v1/notifications/${encodeURIComponent(item.apnsId)}/response?` + params), null, 2);
  } catch (error) {
    shown = error.message;
  }
  text($("response"), shown);
  $("response-section").hidden = false;
}

// An FCM message on an Android phone: the card its SDK builds (small icon tinted, big picture).
function showAndroid(item, android) {
  if (!android) {
    $("card").hidden = false;
    return;
  }
  $("card").hidden = true;
  $("android").hidden = false;
  text($("android-app"), android.appName ?? "");
  text($("android-channel"), android.channel?.name ? "· " + android.channel.name : "");
  text($("android-title"), android.title ?? "");
  text($("android-body"), android.body ?? "");
  $("android").lang = android.locale ?? "";
  $("android-icon").style.backgroundColor = /^#[0-9a-fA-F]{6}$/.test(android.color ?? "") ? android.color : "";
  if (android.imageAttachment) {
    $("android-picture").src = `/api/v1/notifications/${encodeURIComponent(item.apnsId)}/attachments/android`;
    $("android-picture").hidden = false;
  }
}

const rightToLeft = new Set(["ar", "he", "fa", "ur", "yi", "ps", "sd", "ug", "dv", "ckb"]);

// The selected push in every language the picker offers, each cell a card, right-to-left ones mirrored.
async function showMatrix() {
  const item = state.items.find((i) => i.cursor === state.selected);
  if (!item) return;
  const matrix = $("matrix");
  matrix.replaceChildren();
  $("matrix-section").hidden = false;
  const languages = [...$("language").options].map((o) => o.value);
  const cells = await Promise.all(languages.map(async (tag) => {
    try {
      const one = await api("GET", `/api/v1/notifications/${encodeURIComponent(item.apnsId)}?lang=${encodeURIComponent(tag)}`);
      return [tag, one.deliveries.find((d) => d.cursor === item.cursor)?.rendering ?? one.deliveries[0]?.rendering];
    } catch {
      return [tag, null];
    }
  }));
  if (state.selected !== item.cursor) return;
  for (const [tag, rendering] of cells) {
    const cell = document.createElement("article");
    cell.className = "card";
    cell.lang = rendering?.language ?? tag;
    cell.dir = rightToLeft.has(tag.split("-")[0]) ? "rtl" : "ltr";
    const lang = document.createElement("div");
    lang.className = "lang";
    text(lang, rendering?.language && rendering.language !== tag ? `${tag} → ${rendering.language}` : tag);
    const title = document.createElement("div");
    title.className = "title";
    text(title, rendering?.title ?? rendering?.intended?.title ?? "");
    const body = document.createElement("div");
    body.className = "body";
    text(body, rendering?.body ?? rendering?.intended?.body ?? "");
    cell.append(lang, title, body);
    matrix.append(cell);
  }
}

// The device's Live Activities now, each with its timeline of pushes (applied, or dropped and why).
async function loadActivities() {
  if (!$("activities-section").open) return;
  const answer = await api("GET", "/api/v1/activities").catch(() => ({ activities: [] }));
  const box = $("activities");
  box.replaceChildren();
  if (answer.activities.length === 0) {
    const p = document.createElement("p");
    p.className = "empty";
    text(p, "No Live Activity on this device.");
    box.append(p);
  }
  for (const activity of answer.activities) {
    const article = document.createElement("article");
    const head = document.createElement("div");
    head.className = "title";
    text(head, `${activity.type} · ${activity.id}`);
    const phase = document.createElement("div");
    phase.className = "phase";
    text(phase, [activity.phase, activity.islandRank ? `Dynamic Island #${activity.islandRank}` : null, activity.line].filter(Boolean).join(" · "));
    const state = document.createElement("pre");
    state.className = "raw";
    text(state, JSON.stringify(activity.state));
    const timeline = document.createElement("ol");
    for (const event of activity.timeline ?? []) {
      const li = document.createElement("li");
      if (!event.applied) li.className = "dropped";
      text(li, `${new Date(event.at).toLocaleTimeString()} ${event.event}${event.applied ? "" : " dropped: " + (event.reason ?? "")} — ${event.detail ?? ""}`);
      timeline.append(li);
    }
    article.append(head, phase, state, timeline);
    box.append(article);
  }
}

// The fleet: every device of the inbox, its platform, languages and state.
function showFleet() {
  const rows = $("fleet");
  rows.replaceChildren();
  const devices = [{ name: state.device?.name ?? "phone", platform: "ios", languages: state.device?.languages, state: state.device }, ...(state.device?.devices ?? [])];
  for (const d of devices) {
    const tr = document.createElement("tr");
    const online = d.state?.online !== false ? "online" : "offline";
    const installed = d.state?.installed !== false ? "" : ", app uninstalled";
    for (const value of [d.name, d.platform, (d.languages ?? []).join(", "), online + installed]) {
      const td = document.createElement("td");
      text(td, value);
      tr.append(td);
    }
    rows.append(tr);
  }
}

let requestsPending = false;

// The last requests answered, refusals in red, when the Requests panel is open.
async function loadRequests() {
  if (!$("requests-section").open || requestsPending) return;
  requestsPending = true;
  setTimeout(async () => {
    requestsPending = false;
    const answer = await api("GET", "/api/v1/requests?limit=30").catch(() => ({ requests: [] }));
    const rows = $("requests");
    rows.replaceChildren();
    for (const r of answer.requests) {
      const tr = document.createElement("tr");
      if (r.status >= 400) tr.className = "refused";
      for (const value of [new Date(r.time).toLocaleTimeString(), `${r.method} ${r.path}`, `${r.status} ${r.reason ?? ""}`]) {
        const td = document.createElement("td");
        text(td, value);
        tr.append(td);
      }
      rows.append(tr);
    }
  }, 300);
}

async function load() {
  const params = new URLSearchParams({ limit: "200" });
  if (state.query) params.set("query", state.query);
  try {
    const page = await api("GET", "/api/v1/notifications?" + params);
    state.items = page.notifications;
    renderList();
    // For pushbox-bench web: when the first list was on the page.
    if (performance.getEntriesByName("pushbox-listed").length === 0) performance.mark("pushbox-listed");
  } catch (error) {
    text($("live"), "query: " + error.message);
  }
}

async function loadDevice() {
  state.device = await api("GET", "/api/v1/device");
  const select = $("language");
  const current = (state.device.languages ?? state.device.renderingLanguages ?? [])[0] ?? "en";
  const choices = new Set([current, "en-US", "ko-KR", "ja-JP", "de-DE", "fr-FR", "es-ES", "ar", "zh-Hans-CN", "pt-BR", "ru-RU"]);
  select.replaceChildren();
  for (const tag of choices) {
    const option = document.createElement("option");
    option.value = tag;
    text(option, tag);
    option.selected = tag === current;
    select.append(option);
  }
  $("online").checked = state.device.online !== false;
  showFleet();
}

function listen() {
  const types = "notification,deleted,restored,delivery,device,inbox,request";
  const events = new EventSource("/api/v1/events?types=" + types);
  events.addEventListener("open", () => text($("live"), "live"));
  events.addEventListener("error", () => text($("live"), "reconnecting…"));
  events.addEventListener("notification", (event) => {
    const item = JSON.parse(event.data);
    if (item.liveActivity) loadActivities();
    if (state.query) { load(); return; }
    state.items.unshift(item);
    renderList();
  });
  for (const name of ["deleted", "restored", "delivery", "inbox"]) events.addEventListener(name, () => load());
  // The device changed (here, in the terminal inbox, or from a shell): its languages may have too.
  events.addEventListener("device", () => loadDevice().then(load));
  events.addEventListener("request", () => loadRequests());
}

document.addEventListener("DOMContentLoaded", () => {
  $("search").addEventListener("submit", (event) => {
    event.preventDefault();
    state.query = $("query").value.trim();
    load();
  });
  $("language").addEventListener("change", async (event) => {
    await api("PUT", "/api/v1/device", { languages: [event.target.value] });
    load();
  });
  $("matrix-button").addEventListener("click", () => showMatrix());
  // The selected card rendered again in another language, the device's own left as it is.
  $("card-lang").addEventListener("change", async (event) => {
    const item = state.items.find((i) => i.cursor === state.selected);
    if (!item) return;
    const one = await api("GET", `/api/v1/notifications/${encodeURIComponent(item.apnsId)}?lang=${encodeURIComponent(event.target.value)}`);
    const rendering = one.deliveries.find((d) => d.cursor === item.cursor)?.rendering ?? one.deliveries[0]?.rendering;
    if (!rendering || state.selected !== item.cursor) return;
    text($("card-title"), rendering.title ?? rendering.intended?.title ?? "");
    text($("card-subtitle"), rendering.subtitle ?? rendering.intended?.subtitle ?? "");
    text($("card-body"), rendering.body ?? rendering.intended?.body ?? "");
    $("card").lang = rendering.language ?? event.target.value;
  });
  $("tap").addEventListener("click", () => {
    const item = state.items.find((i) => i.cursor === state.selected);
    if (item) respond(item, "tap");
  });
  $("requests-section").addEventListener("toggle", () => loadRequests());
  $("activities-section").addEventListener("toggle", () => loadActivities());
  $("card-thumb").addEventListener("click", () => {
    $("card-image").hidden = !$("card-image").hidden;
  });
  $("delete").addEventListener("click", async () => {
    const item = state.items.find((i) => i.cursor === state.selected);
    if (!item) return;
    await api("DELETE", "/api/v1/notifications/" + encodeURIComponent(item.apnsId));
    state.selected = null;
    select(null);
  });
  $("clear").addEventListener("click", async () => {
    if (!window.confirm("Delete every notification in the inbox?")) return;
    await api("DELETE", "/api/v1/notifications");
    select(null);
  });
  $("online").addEventListener("change", async (event) => {
    await api("PUT", "/api/v1/device", { online: event.target.checked });
  });
  loadDevice().then(load).then(listen);
});
