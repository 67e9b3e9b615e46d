"""The inbox in a browser, in Debian's Chromium driven by Selenium as a reviewer would use it: the
page loads with no console error; pushes sent with curl appear without a reload; a hostile payload
is shown as text and runs nothing; the language switch renders in Korean.
   web_inbox_selenium.py BASE_URL SOCKET"""
import subprocess, sys, time
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

base, socket = sys.argv[1], sys.argv[2]
token = "5e1ec7ed" + "0" * 56


def push(aps):
    import json
    body = json.dumps({"aps": aps})
    subprocess.run(["curl", "-s", "-o", "/dev/null", "--unix-socket", socket, "-H", "apns-topic: dev.pushbox.sample",
                    "--data-binary", body, f"http://localhost/3/device/{token}"], check=True)


options = webdriver.ChromeOptions()
for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1200,800"):
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
    wait.until(lambda d: "Order shipped" in d.find_element(By.ID, "notifications").text)
    print("appeared", driver.execute_script("return window.__sameDocument === true"))

    hostile = '<img src=x onerror="window.__pwned=1">'
    push({"alert": {"title": hostile, "body": "<script>window.__pwned=2</script> javascript:alert(1) \u202etxt.exe"}})
    wait.until(lambda d: hostile in d.find_element(By.ID, "notifications").text)
    first = driver.find_element(By.CSS_SELECTOR, "#notifications li button")
    first.click()
    print("hostile", driver.find_element(By.ID, "card-title").text == hostile,
          driver.execute_script("return window.__pwned === undefined && document.querySelectorAll('#notifications img, #card img, script:not([src])').length === 0"))

    Select(driver.find_element(By.ID, "language")).select_by_value("ko-KR")
    time.sleep(0.5)
    push({"alert": {"title-loc-key": "GAME_PLAY_REQUEST_TITLE", "loc-key": "GAME_PLAY_REQUEST_FORMAT", "loc-args": ["Shelly", "Rick"]}})
    wait.until(lambda d: "게임 초대" in d.find_element(By.ID, "notifications").text)
    print("korean", "Shelly" in driver.find_element(By.ID, "notifications").text)

    driver.find_element(By.ID, "query").send_keys("게임\n")
    wait.until(lambda d: "Order shipped" not in d.find_element(By.ID, "notifications").text)
    print("search", len(driver.find_elements(By.CSS_SELECTOR, "#notifications li")))

    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    print("console errors", len(errors), [e["message"][:120] for e in errors])
finally:
    driver.quit()
