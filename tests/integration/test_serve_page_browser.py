"""The web page in a real headless browser: Debian's chromium driven by chromedriver through
selenium, against the app on 127.0.0.1, with JavaScript switched off (the page needs none).

Real parts: local Ray, Ray Serve's proxy, the QA engine on the fixture catalog's index, chromium.
Expected products come from the CSV. `.ci/run` installs chromium and chromium-driver; on a machine
without them the test is skipped, except under CI, where it fails.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures" / "answer"))
from answer_support import catalog_index, models_where

from dualgraph.answer.engine import AskConfig, EngineSpec

serve = pytest.importorskip("ray.serve", reason="the `serve` extra (ray[serve]) is not installed")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium (the dev extra) is not installed")
pytestmark = [pytest.mark.ray, pytest.mark.network]

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions as EC  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")


@pytest.fixture(scope="session")
def chromium() -> None:
    """Skips (fails under CI) without chromium and its driver: session-scoped and named before the
    session's Serve in :func:`site`, so it is checked before Serve is started for nothing."""
    if not (CHROMIUM and DRIVER):
        if os.environ.get("CI"):
            pytest.fail("chromium and chromedriver are missing: .ci/run installs them (apt: chromium chromium-driver)")
        pytest.skip("chromium and chromedriver are not installed (apt: chromium chromium-driver)")


@pytest.fixture(scope="module")
def site(chromium, shared_serve, tmp_path_factory):
    """The page's app on the session's Serve (tests/integration/conftest.py), at '/'."""
    from dualgraph.serve.app import ServeConfig, build_app

    index = catalog_index(tmp_path_factory)
    app = build_app(EngineSpec(index_dir=index, config=AskConfig()), ServeConfig(port=shared_serve.port))
    with shared_serve.running(("dualgraph-page", "/", app)) as url:
        yield url + "/"


@pytest.fixture(scope="module")
def browser(site, tmp_path_factory):
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1200,900"):
        options.add_argument(arg)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium')}")
    options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_page_load_timeout(180)
    try:
        yield driver
    finally:
        driver.quit()


def test_a_person_asks_and_reads_the_products_and_the_evidence(site, browser):
    browser.get(site)
    assert browser.title.startswith("DualGraph")
    box = browser.find_element(By.ID, "question")
    label = browser.find_element(By.CSS_SELECTOR, "label[for='question']")
    assert label.text == "Question" and box.get_attribute("required") is not None
    box.send_keys("Which phones cost under 15000 INR?")
    Select(browser.find_element(By.ID, "strategy")).select_by_value("skg")
    browser.find_element(By.ID, "ask").click()

    WebDriverWait(browser, 120).until(EC.presence_of_element_located((By.ID, "products")))
    query = parse_qs(urlparse(browser.current_url).query)
    assert query["question"] == ["Which phones cost under 15000 INR?"] and query["strategy"] == ["skg"]
    gold = models_where(lambda r: int(r["price_inr"]) < 15000)
    names = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#products tbody th[scope='row']")]
    assert set(names) == gold and len(names) == len(gold)
    caption = browser.find_element(By.CSS_SELECTOR, "#products caption").text
    assert caption == f"{len(gold)} products"
    assert browser.find_element(By.CSS_SELECTOR, "[data-field='strategy']").text == "skg"
    assert browser.find_element(By.CSS_SELECTOR, "[data-field='latency']").text.endswith(" ms")
    # the question stays in the box, the strategy stays chosen
    assert browser.find_element(By.ID, "question").get_attribute("value") == "Which phones cost under 15000 INR?"
    assert Select(browser.find_element(By.ID, "strategy")).first_selected_option.get_attribute("value") == "skg"

    # the evidence sits behind a disclosure that opens without script
    sparql = browser.find_element(By.ID, "sparql")
    assert not sparql.is_displayed()
    browser.find_element(By.CSS_SELECTOR, "#evidence summary").click()
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "sparql").is_displayed())
    assert "SELECT" in browser.find_element(By.ID, "sparql").text
    assert browser.find_elements(By.CSS_SELECTOR, "#rows tbody tr")


def test_a_bad_choice_is_said_on_the_page(site, browser):
    browser.get(site + "?question=Which+phones+have+5G%3F&strategy=nonsense")
    alert = browser.find_element(By.CSS_SELECTOR, "[role='alert']")
    assert "unknown strategy" in alert.text
    assert browser.find_element(By.ID, "question").get_attribute("value") == "Which phones have 5G?"


def test_the_keyboard_reaches_every_control(site, browser):
    browser.get(site)
    reached = []
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys("\ue004")  # Tab
    for _ in range(4):
        reached.append(browser.switch_to.active_element.get_attribute("id"))
        browser.switch_to.active_element.send_keys("\ue004")
    assert reached[:3] == ["question", "strategy", "ask"]
