// pushbox's inbox in a browser. Everything comes from the API for tests (/api/v1/), the same JSON
// and query language as pushbox list and the terminal inbox; payload text is only ever set as text
// (textContent), never parsed as HTML.
"use strict";

const state = { items: [], selected: null, query: "", device: null, shown: null, deviceName: "", profiles: [], rendering: null };
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

// The list as the phone's Notification Center orders it: what the scheduled summary holds
// first, one group per summary (the latest first), by relevance-score (none counts as 0; ties
// newest first), then everything else newest first.
function listOrder(items) {
  const groups = new Map();
  const rest = [];
  for (const item of items) {
    const p = item.presentation;
    if (p?.outcome !== "summary") {
      rest.push(item);
      continue;
    }
    const key = `${p.summaryDue ?? ""} ${p.summaryAt ?? ""}`;
    if (!groups.has(key)) groups.set(key, { at: p.summaryAt ?? "?", due: p.summaryDue ? Date.parse(p.summaryDue) : null, items: [] });
    groups.get(key).items.push(item);
  }
  const ordered = [...groups.values()].sort((a, b) => (b.due ?? 0) - (a.due ?? 0));
  const out = [];
  for (const group of ordered) {
    const came = group.due == null || group.due <= Date.now();
    out.push({ header: `${came ? "Scheduled Summary" : "Upcoming Summary"} · ${group.at} (${group.items.length})` });
    const byRelevance = group.items.map((item, i) => [item, i]).sort(([a, i], [b, j]) => (b.presentation.relevance ?? 0) - (a.presentation.relevance ?? 0) || i - j);
    out.push(...byRelevance.map(([item]) => item));
  }
  return out.concat(rest);
}

function renderList() {
  const list = $("notifications");
  list.replaceChildren();
  for (const item of listOrder(state.items)) {
    if (item.header) {
      const li = document.createElement("li");
      li.className = "summary-header";
      text(li, item.header);
      list.append(li);
      continue;
    }
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
  for (const id of ["facts", "delete", "trace-section", "raw-section", "matrix-button", "tap", "card-lang", "card-lang-label"]) $(id).hidden = !item;
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
  $("trace").replaceChildren();
  if (!item) return;
  state.rendering = null;
  showDetail(item);
  drawSelected(item, { title: item.title, subtitle: item.subtitle, body: item.body, intended: item.intended, language: item.language, presentation: item.presentation });
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

// The selected push's iPhone card, from its rendering, under the chosen preview profile.
function drawSelected(item, rendering) {
  const images = (rendering.attachments ?? []).map((a, index) => ({ ...a, index })).filter((a) => String(a.type).startsWith("image/"));
  fillCard($("card"), rendering, {
    app: state.device?.bundleID ?? "app",
    time: new Date(item.receivedAt).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }),
    image: images.length > 0 ? `/api/v1/notifications/${encodeURIComponent(item.apnsId)}/attachments/${images[0].index}` : null,
    avatar: rendering.communication?.avatar ? `/api/v1/notifications/${encodeURIComponent(item.apnsId)}/attachments/avatar` : null,
    profile: chosenProfile(),
    onAction: (identifier) => respond(item, identifier),
  });
}

// The preview profile the card is drawn under (pushbox's own, from /web/profiles.json).
function chosenProfile() {
  return state.profiles.find((p) => p.name === $("profile").value) ?? state.profiles[1] ?? null;
}

// Makes a card's parts: an element with its class, and its id ("card-title") when the card has a prefix.
function partMaker(prefix) {
  return (tag, className, name) => {
    const element = document.createElement(tag);
    if (className) element.className = className;
    if (prefix && name) element.id = prefix + name;
    return element;
  };
}

// The iPhone card's parts, made once for the live page (ids "card-…") and for each picture.
function buildCard(article, prefix) {
  const part = partMaker(prefix);
  article.classList.add("card");
  const head = part("div", "card-head");
  const icon = part("span", "app-icon");
  icon.setAttribute("aria-hidden", "true");
  // A communication notification: the sender's avatar, badged with the app's icon.
  const avatar = part("span", "avatar", "avatar");
  avatar.hidden = true;
  const avatarImage = part("img", null, "avatar-image");
  avatarImage.alt = "the sender's avatar";
  const badge = part("span", "avatar-badge");
  badge.setAttribute("aria-hidden", "true");
  avatar.append(avatarImage, badge);
  head.append(icon, avatar, part("span", "app", "app"), part("time", null, "time"));
  const main = part("div", "card-main");
  const words = part("div", "card-text");
  words.append(part("div", "title", "title"), part("div", "subtitle", "subtitle"), part("div", "body", "body"));
  const thumb = part("button", "thumb", "thumb");
  thumb.type = "button";
  thumb.setAttribute("aria-label", "Show the attachment");
  const thumbImage = part("img", null, "thumb-image");
  thumbImage.alt = "the attachment";
  thumb.append(thumbImage);
  main.append(words, thumb);
  const image = part("img", "expanded", "image");
  image.alt = "the attachment, at its size";
  const actions = part("div", "actions", "actions");
  actions.setAttribute("aria-label", "Actions");
  const presented = part("p", "presented", "presented");
  presented.hidden = true;
  article.append(head, main, image, actions, presented, part("p", "approximate", "approximate"));
  thumb.addEventListener("click", () => {
    image.hidden = !image.hidden;
  });
}

// One iPhone card as iOS draws it: app, time, bold title, subtitle, the body cut to the profile's
// lines, the image as a thumbnail (the whole image when expanded), the actions the profile shows.
function fillCard(article, rendering, { app, time, image, avatar, profile, onAction }) {
  const part = (selector) => article.querySelector(selector);
  part(".avatar").hidden = !avatar;
  part(".app-icon").hidden = !!avatar;
  if (avatar) part(".avatar img").src = avatar;
  text(part(".app"), app);
  text(part("time"), time);
  text(part(".title"), rendering.title ?? rendering.intended?.title ?? "");
  text(part(".subtitle"), rendering.subtitle ?? rendering.intended?.subtitle ?? "");
  text(part(".body"), rendering.body ?? rendering.intended?.body ?? "");
  // As the terminal's card says it: nothing to show is said, not drawn as an empty card.
  const silent = ![".title", ".subtitle", ".body"].some((selector) => part(selector).textContent);
  part(".body").classList.toggle("muted", silent);
  if (silent) text(part(".body"), "(no alert text: a background or badge/sound-only push)");
  article.lang = rendering.language ?? "";
  article.dataset.profile = profile?.name ?? "";
  article.style.setProperty("--title-lines", String(profile?.titleLines ?? "none"));
  article.style.setProperty("--body-lines", String(profile?.bodyLines ?? "none"));
  if (profile?.cardWidth) article.style.width = profile.cardWidth + "px";
  const expanded = profile?.name === "expanded";
  part(".thumb").hidden = !image || expanded;
  part(".expanded").hidden = !image || !expanded;
  if (image) {
    part(".thumb img").src = image;
    part(".expanded").src = image;
  }
  const actions = part(".actions");
  actions.replaceChildren();
  const shown = rendering.actions ?? [];
  for (const action of profile?.actions == null ? shown : shown.slice(0, profile.actions)) {
    const button = document.createElement("button");
    button.type = "button";
    text(button, action.title);
    if ((action.options ?? []).includes("destructive")) button.classList.add("destructive");
    if (onAction) button.addEventListener("click", () => onAction(action.identifier));
    actions.append(button);
  }
  actions.hidden = actions.children.length === 0;
  text(part(".approximate"), `${profile?.summary ?? "approximate"}; drawn with this browser's system font.`);
  // How the phone presented it when it arrived, when it was not simply shown.
  const p = rendering.presentation;
  const presented = part(".presented");
  presented.hidden = !p || (p.outcome === "shown" && p.preview === "shown" && p.sound !== "vibrates" && p.sound !== "critical");
  if (p) text(presented, [
    { shown: "shown now", quiet: "quietly in Notification Center", summary: `held for the summary at ${p.summaryAt}`, silenced: "silenced by Focus" }[p.outcome] ?? p.outcome,
    `sound ${p.sound}`, p.preview === "shown" ? null : `preview ${p.preview}`,
  ].filter(Boolean).join(" · ") + ` — ${p.rule}`);
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
  state.rendering = { ...rendering, presentation: rendering.presentation ?? item.presentation };
  showAndroid(item, rendering.android ?? item.android);
  let payload = delivery?.payload ?? "";
  try {
    payload = JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    // Not JSON: shown as it came.
  }
  const headers = (delivery?.headers ?? []).map(([name, value]) => `${name}: ${value}`).join("\n");
  text($("raw"), (headers ? headers + "\n\n" : "") + payload);
  drawSelected(item, state.rendering);
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
  fillAndroid($("android"), android, android.imageAttachment ? `/api/v1/notifications/${encodeURIComponent(item.apnsId)}/attachments/android` : null);
}

// The Android card's parts, made once for the live page (ids "android-…") and for each picture.
function buildAndroid(article, prefix) {
  const part = partMaker(prefix);
  article.classList.add("android");
  article.setAttribute("aria-label", "The Android notification");
  const head = part("div", "android-head");
  const icon = part("span", "android-icon", "icon");
  icon.setAttribute("aria-hidden", "true");
  head.append(icon, part("span", "android-app", "app"), part("span", "muted android-channel", "channel"));
  const picture = part("img", "expanded", "picture");
  picture.alt = "the notification's big picture";
  article.append(head, part("div", "title", "title"), part("div", "body", "body"), picture);
}

// One Android card as the FCM SDK builds it: the small icon in its tint, app, channel, title,
// body and the big picture.
function fillAndroid(article, android, picture) {
  const part = (selector) => article.querySelector(selector);
  text(part(".android-app"), android.appName ?? "");
  text(part(".android-channel"), android.channel?.name ? "· " + android.channel.name : "");
  text(part(".title"), android.title ?? "");
  text(part(".body"), android.body ?? "");
  article.lang = android.locale ?? "";
  part(".android-icon").style.backgroundColor = /^#[0-9a-fA-F]{6}$/.test(android.color ?? "") ? android.color : "";
  part(".expanded").hidden = !picture;
  if (picture) part(".expanded").src = picture;
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
  const profile = { ...chosenProfile(), cardWidth: null };
  for (const [tag, rendering] of cells) {
    const cell = document.createElement("article");
    buildCard(cell, null);
    fillCard(cell, rendering ?? {}, { app: state.device?.bundleID ?? "app", time: "", image: null, profile });
    cell.lang = rendering?.language ?? tag;
    cell.dir = rightToLeft.has(tag.split("-")[0]) ? "rtl" : "ltr";
    const lang = document.createElement("div");
    lang.className = "lang";
    text(lang, rendering?.language && rendering.language !== tag ? `${tag} → ${rendering.language}` : tag);
    cell.prepend(lang);
    matrix.append(cell);
  }
}

// The device's Live Activities now, each with its timeline of pushes (applied, or dropped and why).
async function loadActivities() {
  if (!$("activities-section").open) return;
  const which = state.deviceName ? "?device=" + encodeURIComponent(state.deviceName) : "";
  const answer = await api("GET", "/api/v1/activities" + which).catch(() => ({ activities: [] }));
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

// The fleet: every device of the inbox, its platform, languages and state; Show picks one.
function showFleet() {
  const rows = $("fleet");
  rows.replaceChildren();
  for (const d of fleet()) {
    const tr = document.createElement("tr");
    const online = d.state?.online !== false ? "online" : "offline";
    const installed = d.state?.installed !== false ? "" : ", app uninstalled";
    for (const value of [d.name, d.platform, (d.languages ?? []).join(", "), online + installed]) {
      const td = document.createElement("td");
      text(td, value);
      tr.append(td);
    }
    const td = document.createElement("td");
    const show = document.createElement("button");
    show.type = "button";
    show.className = "show-device";
    text(show, "Show");
    show.setAttribute("aria-label", "Show the device " + d.name);
    show.addEventListener("click", () => chooseDevice(d.name));
    td.append(show);
    tr.append(td);
    rows.append(tr);
  }
  setOptions($("device-name"), [["", "every device"], ...fleet().map((d) => [d.name, d.name])], state.deviceName);
}

// A select's options as [value, label] pairs, the one chosen selected; left as they are when
// they did not change, so a select the user has open is not closed by a refresh.
function setOptions(select, pairs, chosen) {
  const same = select.options.length === pairs.length && pairs.every(([value, label], i) => select.options[i].value === value && select.options[i].textContent === label);
  if (!same) {
    select.replaceChildren();
    for (const [value, label] of pairs) {
      const option = document.createElement("option");
      option.value = value;
      text(option, label);
      select.append(option);
    }
  }
  select.value = chosen;
}

// The inbox's own device and every device added to its fleet.
function fleet() {
  const own = { name: state.device?.name ?? "phone", platform: "ios", languages: state.device?.languages, state: { online: state.device?.online, installed: state.device?.installed } };
  return [own, ...(state.device?.devices ?? [])];
}

// Shows one device of the fleet (or every one): the list holds its notifications, and the
// language and online switches change it.
function chooseDevice(name) {
  state.deviceName = name;
  loadDevice().then(load);
  loadActivities();
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
  const query = [state.deviceName ? "device:" + state.deviceName : "", state.query].filter(Boolean).join(" ");
  if (query) params.set("query", query);
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
  if (state.deviceName && !fleet().some((d) => d.name === state.deviceName)) state.deviceName = "";
  state.shown = state.deviceName ? await api("GET", "/api/v1/device?device=" + encodeURIComponent(state.deviceName)) : state.device;
  const select = $("language");
  const current = (state.shown.languages ?? state.shown.renderingLanguages ?? [])[0] ?? "en";
  // A fixed order (the matrix follows it), the device's own language first when it is none of them.
  const usual = ["en-US", "ko-KR", "ja-JP", "de-DE", "fr-FR", "es-ES", "ar", "zh-Hans-CN", "pt-BR", "ru-RU"];
  const choices = usual.includes(current) ? usual : [current, ...usual];
  setOptions(select, choices.map((tag) => [tag, tag]), current);
  $("online").checked = (state.shown.state ?? state.shown).online !== false;
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
    if (state.query || state.deviceName) { load(); return; }
    // A page loaded while the event was on its way may hold it already: keep one.
    if (state.items.some((i) => i.cursor === item.cursor)) return;
    state.items.unshift(item);
    renderList();
  });
  for (const name of ["deleted", "restored", "delivery", "inbox"]) events.addEventListener(name, () => load());
  // The device changed (here, in the terminal inbox, or from a shell): its languages may have too.
  events.addEventListener("device", () => loadDevice().then(load));
  events.addEventListener("request", () => loadRequests());
}

// The device the switches change: the one shown, or the inbox's own when every device is.
function shownDevice() {
  return state.deviceName ? { device: state.deviceName } : {};
}

// The preview profiles, named in the picker; the lock screen's first.
async function loadProfiles() {
  state.profiles = await api("GET", "/web/profiles.json").catch(() => []);
  const choose = $("profile");
  for (const profile of state.profiles) {
    const option = document.createElement("option");
    option.value = profile.name;
    text(option, profile.name);
    option.selected = profile.name === "lock-screen";
    choose.append(option);
  }
}

// pushbox snapshot --png: the page holds its cards' renderings (no server); each is drawn as the
// live page draws it, in one column, and when fonts and images are ready their places are written
// into the page (#rects) for pushbox to cut the screenshot by.
function drawPictures(pictures) {
  document.body.className = "pictures";
  const column = document.createElement("div");
  column.className = "picture-column";
  const cards = pictures.map((picture) => {
    const article = document.createElement("article");
    if (picture.phone === "android") {
      buildAndroid(article, null);
      fillAndroid(article, picture.rendering, picture.image);
      article.style.width = picture.profile.cardWidth + "px";
    } else {
      buildCard(article, null);
      fillCard(article, picture.rendering, { app: picture.app, time: "now", image: picture.image, avatar: picture.avatar, profile: picture.profile });
    }
    article.dir = rightToLeft.has(String(picture.language).split("-")[0]) ? "rtl" : "ltr";
    column.append(article);
    return article;
  });
  document.body.append(column);
  const images = [...column.querySelectorAll("img")].filter((i) => !i.closest("[hidden]") && !i.hidden && i.src);
  Promise.all([document.fonts.ready, ...images.map((i) => i.decode().catch(() => null))]).then(() => {
    const rects = $("rects") ?? document.createElement("pre");
    rects.id = "rects";
    const whole = document.documentElement;
    rects.textContent = JSON.stringify({
      width: whole.scrollWidth, height: whole.scrollHeight,
      cards: cards.map((c) => { const r = c.getBoundingClientRect(); return [r.left, r.top, r.width, r.height].map(Math.round); }),
    });
    document.body.append(rects);
  });
}

document.addEventListener("DOMContentLoaded", () => {
  if ($("pictures")) {
    drawPictures(JSON.parse($("pictures").textContent));
    return;
  }
  buildCard($("card"), "card-");
  buildAndroid($("android"), "android-");
  $("search").addEventListener("submit", (event) => {
    event.preventDefault();
    state.query = $("query").value.trim();
    load();
  });
  $("language").addEventListener("change", async (event) => {
    await api("PUT", "/api/v1/device", { ...shownDevice(), languages: [event.target.value] });
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
    state.rendering = rendering;
    drawSelected(item, rendering);
  });
  $("tap").addEventListener("click", () => {
    const item = state.items.find((i) => i.cursor === state.selected);
    if (item) respond(item, "tap");
  });
  $("requests-section").addEventListener("toggle", () => loadRequests());
  $("activities-section").addEventListener("toggle", () => loadActivities());
  $("device-name").addEventListener("change", (event) => chooseDevice(event.target.value));
  $("profile").addEventListener("change", () => {
    const item = state.items.find((i) => i.cursor === state.selected);
    if (item) drawSelected(item, state.rendering ?? item);
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
    await api("PUT", "/api/v1/device", { ...shownDevice(), online: event.target.checked });
  });
  loadProfiles().then(loadDevice).then(load).then(listen);
});
