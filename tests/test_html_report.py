"""`tjsim report DIR --format html`: one self-contained page, opened in a real headless Chromium.

The browser part needs Debian's chromium and chromium-driver. `.ci/run` installs them in the
background when they are missing (TJSIM_BROWSER_PENDING names the file it writes when done) and
sets TJSIM_REQUIRE_BROWSER=1, so there a missing browser fails instead of skipping.
"""
from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import pytest

from conftest import ROOT, assert_user_error, run_cli


def _folders(tmp_path: Path) -> dict[str, Path]:
    """Copies of committed results folders of three kinds: experiment, hand-written report, value analyses."""
    out = {}
    for name in ("bonus_value", "supreme_value_strong", "search_ladder"):
        out[name] = tmp_path / name
        shutil.copytree(ROOT / "results" / name, out[name], ignore=shutil.ignore_patterns("chunks"))
    # without its script the value-analysis folder is rewritten by tjsim (plots in its subfolders)
    out["value_analyses"] = tmp_path / "value_analyses"
    shutil.copytree(ROOT / "results" / "supreme_value_strong", out["value_analyses"])
    (out["value_analyses"] / "make_report.py").unlink()
    return out


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    """report.html of each folder, written by the real CLI."""
    folders = _folders(tmp_path_factory.mktemp("html"))
    for name, folder in folders.items():
        res = run_cli("report", str(folder), "--format", "html")
        assert res.code == 0, (name, res.err)
        assert "report.html" in res.out
    return {name: folder / "report.html" for name, folder in folders.items()}


def test_pages_are_self_contained(pages):
    for name, page in pages.items():
        text = page.read_text(encoding="utf-8")
        assert text.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in text
        assert 'name="viewport"' in text
        assert "<script" not in text and "<link" not in text and "@import" not in text
        srcs = re.findall(r'<img[^>]*\ssrc="([^"]+)"', text)
        assert all(s.startswith("data:image/png;base64,") for s in srcs), name
        assert 'href="#provenance"' in text and 'id="provenance"' in text
        # every in-page link has its target
        for target in re.findall(r'href="#([^"]+)"', text):
            assert f'id="{target}"' in text, (name, target)
    assert len(re.findall(r"<img", pages["value_analyses"].read_text(encoding="utf-8"))) >= 2
    # the hand-written report is converted, not replaced
    own = (pages["supreme_value_strong"].parent / "report.md").read_text(encoding="utf-8")
    assert own == (ROOT / "results" / "supreme_value_strong" / "report.md").read_text(encoding="utf-8")
    assert "至尊" in pages["supreme_value_strong"].read_text(encoding="utf-8")
    text = pages["bonus_value"].read_text(encoding="utf-8")
    assert "experiments/bonus_value.toml" in text and "fingerprint" in text  # provenance from the manifest


def _wait_for_install() -> tuple[str | None, str | None]:
    """chromium and chromedriver, after `.ci/run`'s background install (TJSIM_BROWSER_PENDING) ends."""
    pending = os.environ.get("TJSIM_BROWSER_PENDING")
    if pending:
        deadline = time.monotonic() + 900
        while not Path(pending).exists() and time.monotonic() < deadline:
            time.sleep(2)
    return shutil.which("chromium"), shutil.which("chromedriver")


def _browser():
    """A headless Chromium session that keeps the console log, or skip/fail when there is none."""
    chromium, chromedriver = _wait_for_install()
    if not (chromium and chromedriver):
        if os.environ.get("TJSIM_REQUIRE_BROWSER"):
            log = os.environ.get("TJSIM_BROWSER_PENDING", "")
            pytest.fail("chromium / chromedriver not found (apt-get install chromium chromium-driver)"
                        + (f"; the install's log: {log}.log" if log else ""))
        pytest.skip("no chromium / chromedriver on this machine")
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service  # noqa: PLC0415

    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--hide-scrollbars", "--allow-file-access-from-files"):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(chromedriver), options=opts)


def _not_blank(png: Path) -> None:
    """The screenshot has content: many pixels far from the background, and more than one colour."""
    import matplotlib.image as mpimg  # noqa: PLC0415

    img = mpimg.imread(png)[..., :3]
    dark = (img.mean(axis=2) < 0.8).mean()
    assert img.shape[0] > 300 and dark > 0.01 and img.std() > 0.05, (png, img.shape, dark, img.std())


def test_pages_in_a_real_browser(pages, tmp_path):
    driver = _browser()
    try:
        for name, page in pages.items():
            for width in (390, 1280):
                driver.set_window_size(width, 900)
                driver.get(page.as_uri())
                assert driver.execute_script("return document.readyState") == "complete"
                errors = [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
                assert not errors, (name, width, errors)
                images = driver.execute_script(
                    "return Array.from(document.images).map(i => [i.complete, i.naturalWidth])")
                assert all(done and w > 0 for done, w in images), (name, images)
                assert driver.execute_script("return document.querySelectorAll('table').length") >= 1
                assert driver.execute_script("return document.querySelectorAll('nav.toc a').length") >= 2
                # nothing widens the page past the screen: wide tables scroll inside their box
                scroll = driver.execute_script("return document.documentElement.scrollWidth")
                assert scroll <= width, (name, width, scroll)
                if name in ("bonus_value", "supreme_value_strong"):
                    assert "至尊" in driver.execute_script("return document.body.innerText")
                height = driver.execute_script("return document.documentElement.scrollHeight")
                driver.set_window_size(width, min(height, 3000))
                shot = tmp_path / f"{name}_{width}.png"
                driver.save_screenshot(str(shot))
                _not_blank(shot)
    finally:
        driver.quit()


def test_html_bad_input(tmp_path):
    assert_user_error(run_cli("report", str(tmp_path / "missing"), "--format", "html"), "not a results folder")
    assert_user_error(run_cli("report", str(tmp_path), "--format", "pdf"), "'md'", "'html'")
    broken = tmp_path / "broken"
    shutil.copytree(ROOT / "results" / "supreme_value_strong", broken)
    (broken / "report.md").write_text("# x\n\n![plot](gone.png)\n", encoding="utf-8")
    assert_user_error(run_cli("report", str(broken), "--format", "html"), "gone.png")
