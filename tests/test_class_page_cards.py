"""The class page of a small class where one broken submission owns most of the failures: its
failures are gathered on one card (one per submission, with its cases), not one card each, and
the expected side is said in words ("the reference replayed on cy's own start"). A real
`harness grade` of the fixture game, the page read in headless Chromium through selenium."""
import os
import shutil
import subprocess
import sys

import pytest
import yaml

from tests.helpers import FIXTURE, ROOT, SAMPLES

pytestmark = pytest.mark.slow  # a class graded, its page read in a browser

CORRECT = (SAMPLES / "correct" / "tally.py").read_text(encoding="utf-8")
# cy's program says every total and every refusal its own way: every case that shows one fails
BROKEN = CORRECT.replace('print("Now", total)', 'print("Total", total)').replace('"Illegal!"', '"No!"')


def _failing_for_cy() -> set[str]:
    """The cases whose expected output has a total or a refusal line: the lines cy says otherwise."""
    names = set()
    for path in (FIXTURE / "cases" / "tally").glob("*.yaml"):
        events = yaml.safe_load(path.read_text(encoding="utf-8"))["expect"]["transcript"]
        text = "\n".join(event.get("out", "") for event in events)
        if any(line.startswith("Now ") or line == "Illegal!" for line in text.split("\n")):
            names.add(path.stem)
    return names


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    root = tmp_path_factory.mktemp("cards")
    programs = {"ada": CORRECT, "ben": (SAMPLES / "bug-add" / "tally.py").read_text(encoding="utf-8"), "cy": BROKEN}
    for name, program in programs.items():
        (root / "class" / name).mkdir(parents=True)
        (root / "class" / name / "tally.py").write_text(program, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "harness", "grade", "tally", str(root / "class"), "-o", str(root / "out")],
                          cwd=ROOT, env={**os.environ, "HARNESS_ROOT": str(FIXTURE)},
                          capture_output=True, text=True, timeout=1200)
    assert done.returncode == 1, done.stdout + done.stderr
    return root / "out" / "index.html", root


def _browser(profile):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    return webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))


def test_one_submissions_failures_are_one_card_with_its_cases(page):
    from selenium.webdriver.common.by import By

    path, root = page
    failing = _failing_for_cy()
    ben_fails = set(yaml.safe_load((SAMPLES / "expected.yaml").read_text())["samples"]["bug-add"]["fails"])
    assert len(failing) > len(ben_fails)  # cy owns most of the failures
    browser = _browser(root / "profile")
    try:
        browser.get(path.as_uri())
        cards = browser.find_elements(By.CSS_SELECTOR, "section.group")
        gathered = {card.find_element(By.TAG_NAME, "h3").find_element(By.TAG_NAME, "a").text: card
                    for card in cards if "gathered" in card.get_attribute("class")}
        # one card per submission with failures of its own, none for each of cy's cases
        assert set(gathered) == {"cy", "ben"} and len(cards) == 2
        for name, cases in (("cy", failing), ("ben", ben_fails)):
            card = gathered[name]
            listed = {code.text for code in card.find_elements(By.CSS_SELECTOR, "td > code:first-child")
                      if code.text in failing | ben_fails}
            assert listed == cases, (name, listed)
            assert f"{len(cases)} failures seen in this submission alone" in card.text
        heading = gathered["cy"].find_element(By.TAG_NAME, "tr").text
        assert "Expected (the reference replayed on cy's own start)" in heading  # a random start: the case's is cy's
        assert "cy's program printed" in heading
        text = browser.find_element(By.TAG_NAME, "body").text
        assert "'s run)" not in text and "turn 0" not in text
        first = yaml.safe_load((FIXTURE / "cases" / "tally" / "add-two.yaml").read_text())["inputs"][0]
        assert f"after input 1 ('{first}'), line 1" in gathered["cy"].text  # its first total differs
    finally:
        browser.quit()
