"""pushbox-bench web's browser half: loads the inbox page in Chromium and reports, as JSON, its first
contentful paint and when the first list was on the page (Chromium's performance timing), then
sends ROUNDS pushes with curl and reports, for each, the push's own round trip and the time from
its answer to its card on the page.
   web_bench.py BASE_URL SOCKET ROUNDS"""
import json, subprocess, sys, time
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

base, socket, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
options = webdriver.ChromeOptions()
for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1200,900"):
    options.add_argument(flag)
options.binary_location = "/usr/bin/chromium"
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
wait = WebDriverWait(driver, 60, poll_frequency=0.01)
out = {"roundTrip": [], "toCard": []}
try:
    driver.get(base + "/")
    wait.until(lambda d: d.find_element(By.ID, "live").text == "live"
               and d.execute_script("return performance.getEntriesByName('pushbox-listed').length") == 1)
    out["firstPaint"] = driver.execute_script(
        "return performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null")
    out["listed"] = driver.execute_script("return performance.getEntriesByName('pushbox-listed')[0].startTime")
    out["items"] = driver.execute_script("return document.querySelectorAll('#notifications li').length")
    driver.execute_script("""
        window.__seen = {};
        new MutationObserver(() => {
          for (const t of document.querySelectorAll('#notifications .item-title'))
            if (t.textContent.startsWith('bench ') && !(t.textContent in window.__seen)) window.__seen[t.textContent] = Date.now();
        }).observe(document.getElementById('notifications'), {childList: true, subtree: true});""")
    for i in range(rounds):
        title = f"bench {i}"
        body = json.dumps({"aps": {"alert": {"title": title, "body": "x"}}})
        start = time.time() * 1000
        subprocess.run(["curl", "-s", "-o", "/dev/null", "--unix-socket", socket, "-H", "apns-topic: dev.pushbox.sample",
                        "--data-binary", body, "http://localhost/3/device/5e1ec7ed" + "0" * 56], check=True)
        answered = time.time() * 1000
        wait.until(lambda d: d.execute_script(f"return window.__seen[{json.dumps(title)}] ?? null") is not None)
        shown = driver.execute_script(f"return window.__seen[{json.dumps(title)}]")
        out["roundTrip"].append(answered - start)
        out["toCard"].append(shown - answered)
        time.sleep(0.05)
finally:
    driver.quit()
print(json.dumps(out))
