"""The inbox in a browser, in Debian's Chromium driven by Selenium as a reviewer would use it: the
page loads with no console error; pushes sent with curl appear without a reload; an image
attachment is shown at its size; a hostile payload is shown as text and runs nothing; the language
switch renders in Korean; the search; delete; every control reachable by keyboard and labelled;
the text's contrast; the fleet's devices one at a time; the preview profiles' line limits; the card
and the matrix as pictures (PICTURES/card.png, matrix.png) for the test to compare with recorded ones.
   web_inbox_selenium.py BASE_URL SOCKET IMAGE PICTURES"""
import functools, http.server, json, os, subprocess, sys, threading
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

base, socket, image, pictures = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
token = "5e1ec7ed" + "0" * 56
# The image's own server, as a backend's CDN would be: the service extension downloads it.
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=os.path.dirname(image))
handler.func.log_message = lambda *a: None
files = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
threading.Thread(target=files.serve_forever, daemon=True).start()
image_url = f"http://127.0.0.1:{files.server_address[1]}/{os.path.basename(image)}"


def push(aps, **extra):
    body = json.dumps({"aps": aps, **extra})
    subprocess.run(["curl", "-s", "-o", "/dev/null", "--unix-socket", socket, "-H", "apns-topic: dev.pushbox.sample",
                    "--data-binary", body, f"http://localhost/3/device/{token}"], check=True)


def click(by, selector):
    """Clicks the element, again if the live list was drawn anew in between."""
    def attempt(d):
        try:
            d.find_element(by, selector).click()
            return True
        except StaleElementReferenceException:
            return False
    wait.until(attempt)


def choose(element_id, value):
    """Chooses an option, again if the select was drawn anew in between; until it holds it."""
    def attempt(d):
        try:
            Select(d.find_element(By.ID, element_id)).select_by_value(value)
            return d.find_element(By.ID, element_id).get_attribute("value") == value
        except StaleElementReferenceException:
            return False
    wait.until(attempt)


def texts(selector):
    """The texts of the elements matching a CSS selector, read again if the table was drawn anew in between."""
    found = []

    def attempt(d):
        try:
            found[:] = [e.text for e in d.find_elements(By.CSS_SELECTOR, selector)]
            return True
        except StaleElementReferenceException:
            return False
    wait.until(attempt)
    return found


def listed(d):
    return d.find_element(By.ID, "notifications").text


options = webdriver.ChromeOptions()
for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1200,900"):
    options.add_argument(flag)
options.binary_location = "/usr/bin/chromium"
options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
wait = WebDriverWait(driver, 15)
try:
    driver.get(base + "/")
    wait.until(lambda d: d.find_element(By.ID, "live").text == "live")
    driver.execute_script("window.__sameDocument = true")
    push({"alert": {"title": "Order shipped", "body": "It is on its way"}})
    wait.until(lambda d: "Order shipped" in listed(d))
    print("appeared", driver.execute_script("return window.__sameDocument === true"))

    push({"alert": {"title": "A photo", "body": "with its picture"}, "mutable-content": 1}, image=image_url)
    wait.until(lambda d: "A photo" in listed(d))
    click(By.CSS_SELECTOR, "#notifications li button")
    wait.until(lambda d: d.find_element(By.ID, "card-thumb").is_displayed())
    driver.find_element(By.ID, "card-thumb").click()
    wait.until(lambda d: d.execute_script("const i = document.getElementById('card-image'); return !i.hidden && i.complete && i.naturalWidth > 0"))
    print("image", driver.execute_script("const i = document.getElementById('card-image'); return [i.naturalWidth, i.naturalHeight]"))

    hostile = '<img src=x onerror="window.__pwned=1">'
    push({"alert": {"title": hostile, "body": "<script>window.__pwned=2</script> javascript:alert(1) \u202etxt.exe"}})
    wait.until(lambda d: hostile in listed(d))
    click(By.CSS_SELECTOR, "#notifications li button")
    wait.until(lambda d: d.find_element(By.ID, "card-title").text == hostile)
    print("hostile", driver.execute_script(
        "return window.__pwned === undefined && document.querySelectorAll('#notifications img, #card-title img, script:not([src])').length === 0"))

    # A notification without an attachment shows no image.
    print("no stray image", not driver.find_element(By.ID, "card-image").is_displayed())
    driver.find_element(By.ID, "delete").click()
    wait.until(lambda d: hostile not in listed(d))
    print("deleted", "Order shipped" in listed(driver))

    choose("language", "ko-KR")
    wait.until(lambda d: d.execute_script("return fetch('/api/v1/device').then(r => r.json()).then(j => j.languages[0])") == "ko-KR")
    push({"alert": {"title-loc-key": "GAME_PLAY_REQUEST_TITLE", "loc-key": "GAME_PLAY_REQUEST_FORMAT", "loc-args": ["Shelly", "Rick"]},
          "category": "GAME_INVITATION"}, gameID="12345678", link="pushboxsample://game/12345678")
    wait.until(lambda d: "게임 초대" in listed(d))
    print("korean", "Shelly" in listed(driver))

    # The game invite in every language the picker offers: Arabic right to left.
    click(By.CSS_SELECTOR, "#notifications li button")
    driver.find_element(By.ID, "matrix-button").click()
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#matrix .card")) == len(d.find_elements(By.CSS_SELECTOR, "#language option")))
    arabic = driver.find_element(By.CSS_SELECTOR, '#matrix .card[dir="rtl"]')
    print("matrix", "دعوة إلى لعبة" in arabic.text, "Spieleinladung" in driver.find_element(By.ID, "matrix").text)
    # The card alone in another language; the device keeps its own.
    choose("card-lang", "de-DE")
    wait.until(lambda d: d.find_element(By.ID, "card-title").text == "Spieleinladung")
    print("card in German", driver.execute_script("return fetch('/api/v1/device').then(r => r.json()).then(j => j.languages[0])"))
    # The pictures: the time is the one thing that changes from run to run, so it is set as
    # Apple's own screenshots set it.
    # A window tall enough for the whole matrix: a picture holds all of it, wherever it scrolled.
    driver.execute_script("document.getElementById('card-time').textContent = '09:41'")
    driver.set_window_size(1200, 3200)
    driver.find_element(By.ID, "card").screenshot(os.path.join(pictures, "card.png"))
    driver.find_element(By.ID, "matrix").screenshot(os.path.join(pictures, "matrix.png"))
    driver.set_window_size(1200, 900)
    # The preview profiles: a banner shows two body lines and two actions, expanded every line.
    clamp = "return [getComputedStyle(document.getElementById('card-body')).webkitLineClamp, document.querySelectorAll('#card-actions button').length]"
    profiles = []
    for name in ("banner", "expanded", "lock-screen"):
        choose("profile", name)
        profiles.append(driver.execute_script(clamp))
    print("profiles", profiles)
    # A Focus that allows nothing, set through the API: the next push is silenced, and its card says so.
    driver.execute_script("return fetch('/api/v1/device', {method: 'PUT', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({focus: {allowApps: [], allowTimeSensitive: false}})})")
    push({"alert": {"title": "During Focus", "body": "quietly"}})
    wait.until(lambda d: "During Focus" in listed(d))
    click(By.XPATH, "//ol[@id='notifications']/li[.//span[contains(., 'During Focus')]]/button")
    wait.until(lambda d: d.find_element(By.ID, "card-presented").is_displayed())
    print("focus", d_text := driver.find_element(By.ID, "card-presented").text.split(" — ")[0])
    driver.execute_script("return fetch('/api/v1/device', {method: 'PUT', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({focus: null})})")
    # The app in the scheduled summary: two pushes held for it, listed first under the summary's
    # header, the higher relevance-score first though it came second.
    driver.execute_script("return fetch('/api/v1/device', {method: 'PUT', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({summary: ['00:00']})})")
    push({"alert": {"title": "Held low", "body": "later"}, "relevance-score": 0.2})
    push({"alert": {"title": "Held high", "body": "featured"}, "relevance-score": 0.9})
    wait.until(lambda d: "Held high" in listed(d))
    driver.execute_script("return fetch('/api/v1/device', {method: 'PUT', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({summary: null})})")
    # Read in one script: the list may be drawn again between two element reads.
    rows = driver.execute_script("return [...document.querySelectorAll('#notifications > li')].slice(0, 3).map((li) => li.innerText.split('\\n')[0])")
    print("summary", rows)
    click(By.XPATH, "//ol[@id='notifications']/li[.//span[contains(., 'Spieleinladung') or contains(., '게임 초대')]]/button")
    # What the app receives: the Accept button, then a tap.
    click(By.XPATH, "//div[@id='card-actions']/button[1]")
    wait.until(lambda d: d.find_element(By.ID, "response").text.startswith("{"))
    answer = json.loads(driver.find_element(By.ID, "response").text)
    print("accept", answer["actionIdentifier"], answer["opensApp"], answer["userInfo"]["gameID"], answer["deepLink"])
    driver.find_element(By.ID, "tap").click()
    wait.until(lambda d: "DefaultActionIdentifier" in d.find_element(By.ID, "response").text)
    print("tap", json.loads(driver.find_element(By.ID, "response").text)["actionIdentifier"])
    driver.find_element(By.CSS_SELECTOR, "#raw-section summary").click()
    print("payload", "GAME_PLAY_REQUEST_FORMAT" in driver.find_element(By.ID, "raw").text,
          "apns-topic: dev.pushbox.sample" in driver.find_element(By.ID, "raw").text)

    # An FCM message to a topic the Android phone (and the iPhone) subscribe to: its Android card.
    subprocess.run(["curl", "-s", "-o", "/dev/null", "--unix-socket", socket, "-H", "content-type: application/json", "--data-binary",
                    json.dumps({"message": {"topic": "NewsApp", "notification": {"title": "Breaking", "body": "news"},
                                            "android": {"notification": {"color": "#ff0000"}}}}),
                    "http://localhost/v1/projects/shop/messages:send"], check=True)
    wait.until(lambda d: "pixel" in listed(d))
    click(By.XPATH, "//ol[@id='notifications']/li[.//span[contains(., 'pixel')]]/button")
    wait.until(lambda d: d.find_element(By.ID, "android").is_displayed())
    print("android", driver.find_element(By.ID, "android-title").text, driver.find_element(By.ID, "card").is_displayed(),
          driver.execute_script("return getComputedStyle(document.getElementById('android-icon')).backgroundColor"))

    # The fleet, and a Live Activity started by a push-to-start push, with its timeline.
    driver.find_element(By.CSS_SELECTOR, "#fleet-section summary").click()
    print("fleet", [text.split(" ")[:2] for text in texts("#fleet tr")])
    # One device of the fleet: its notifications only, and the language switch changes it alone.
    choose("device-name", "pixel")
    wait.until(lambda d: "Order shipped" not in listed(d) and "pixel" in listed(d))
    choose("language", "fr-FR")
    device_language = "return fetch('/api/v1/device' + arguments[0]).then(r => r.json()).then(j => j.languages[0])"
    wait.until(lambda d: d.execute_script(device_language, "?device=pixel") == "fr-FR")
    print("pixel", len(driver.find_elements(By.CSS_SELECTOR, "#notifications li")), driver.execute_script(device_language, ""))
    click(By.CSS_SELECTOR, "#fleet tr:first-child .show-device")
    wait.until(lambda d: "Order shipped" in listed(d))
    choose("device-name", "")
    wait.until(lambda d: "pixel" in listed(d))
    driver.find_element(By.CSS_SELECTOR, "#activities-section summary").click()
    start = json.load(open(os.path.join(os.path.dirname(image), "..", "13-match-live-start.json")))
    to_start = driver.execute_script("return fetch('/api/v1/activities').then(r => r.json()).then(j => j.pushToStartToken)")
    subprocess.run(["curl", "-s", "-o", "/dev/null", "--unix-socket", socket, "-H", "apns-push-type: liveactivity", "-H",
                    "apns-topic: dev.pushbox.sample.push-type.liveactivity", "--data-binary", json.dumps(start),
                    f"http://localhost/3/device/{to_start}"], check=True)
    wait.until(lambda d: "MatchAttributes" in d.find_element(By.ID, "activities").text)
    print("activity", "Seoul 0–0 Busan" in driver.find_element(By.ID, "activities").text,
          "start" in driver.find_element(By.CSS_SELECTOR, "#activities ol li").text.split(" "))

    driver.find_element(By.ID, "query").send_keys("게임\n")
    wait.until(lambda d: "Order shipped" not in listed(d))
    print("search", len(driver.find_elements(By.CSS_SELECTOR, "#notifications li")))

    # Keyboard: Tab from the top reaches every control, in order, each with a name.
    # From the top of the page (the first control focused, as a Tab from the address bar would).
    driver.execute_script("document.getElementById('query').focus()")
    names = ["query"]
    for _ in range(6):
        driver.switch_to.active_element.send_keys(Keys.TAB)
        names.append(driver.execute_script(
            "const e = document.activeElement; return e.closest('#notifications') ? 'a list item' : (e.id || e.tagName)"))
    focused = [n for n in names if n != "BODY"]
    print("tab order", focused[:6])
    unlabelled = driver.execute_script(
        "return [...document.querySelectorAll('input, select, button')].filter(e => !e.hidden && e.offsetParent !== null"
        " && !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.textContent.trim()).length")
    print("unlabelled", unlabelled)
    contrast = driver.execute_script("""
        const rgb = s => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
        const lum = c => { const [r, g, b] = c.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
        const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
        const bg = e => { while (e) { const c = getComputedStyle(e).backgroundColor; if (!c.endsWith(', 0)') && c !== 'transparent') return rgb(c); e = e.parentElement; } return [255, 255, 255]; };
        return Math.min(...['.item-title', '.item-body', '.item-meta', '#live', '.facts dt', '.approximate'].map(s => document.querySelector(s)).filter(Boolean)
          .map(e => ratio(rgb(getComputedStyle(e).color), bg(e))));""")
    print("contrast AA", contrast >= 4.5)

    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    print("console errors", len(errors), [e["message"][:120] for e in errors])
finally:
    driver.quit()
    files.shutdown()
