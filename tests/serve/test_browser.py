"""End-to-end: real pages in headless Chromium (Debian's ``chromium``, driven by
Playwright) against a real server (uvicorn on 127.0.0.1). Skipped when chromium or
Playwright is missing; CI installs both (.ci/run).

Two pages play a whole Écarté match by clicking, one of them reloads mid-deal and goes
on, a spectator follows, and the record is downloaded and replayed; a Cinch table with
two human pages and two built-in players plays a deal with its discards and the
dealer's robbing of the pack. Screenshots of the pages are written to
``screenshots/`` (``TRICKLANG_SCREENSHOTS`` names another folder): not committed.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serve_helpers import make_table, tokens

from interpreter.cli.serve import server_for
from interpreter.record import Record
from interpreter.serve.app import create_app
from interpreter.serve.tables import Table

CHROMIUM = os.environ.get("TRICKLANG_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
if os.environ.get("TRICKLANG_REQUIRE_BROWSER"):  # CI: a missing browser is a failure, not a skip
    assert Path(CHROMIUM).is_file(), f"TRICKLANG_REQUIRE_BROWSER is set and there is no chromium at {CHROMIUM}"
    import playwright.sync_api as playwright
else:
    playwright = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).is_file(), reason="chromium is not installed")

SHOTS = Path(os.environ.get("TRICKLANG_SCREENSHOTS") or Path(__file__).resolve().parents[2] / "screenshots")
TIMEOUT_MS = 15_000


class Server:
    """A uvicorn server in a thread, on a free port of 127.0.0.1, stopped at the end."""

    def __init__(self, app: Any) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.base = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.server = server_for(app)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive(), "the server did not start"
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()
        assert not self.thread.is_alive()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield launched
        launched.close()


def open_page(browser: Any, url: str) -> Any:
    """A page in a context of its own (as another browser would be), connected."""
    context = browser.new_context(viewport={"width": 1280, "height": 860}, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.errors = errors
    page.goto(url)
    page.wait_for_selector("body[data-connected=yes][data-turn]")
    return page


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def act_by_clicking(page: Any) -> str:
    """Take the page's decision by clicking: a card it may play, the cards of a
    selection then the confirming button, or the first action button. Returns what it did."""
    playable = page.locator("#hand button.card.playable")
    if playable.count():
        card = playable.last.get_attribute("data-card")
        playable.last.click()
        return f"play {card}"
    confirm = page.locator("#confirm-selection")
    if confirm.count():
        low, high, verb = page.evaluate("[page.view.decision.selection.low, page.view.decision.selection.high, "
                                        "page.view.decision.selection.verb]")
        wanted = max(int(low), min(1, int(high)))
        elsewhere = page.locator("#decision button.card.candidate")  # cards of the pack (robbing)
        pool = elsewhere if elsewhere.count() >= wanted and verb == "rob" else page.locator("button.card.candidate")
        for i in range(wanted):
            pool.nth(i).click()
        page.locator("#confirm-selection").click()
        return f"{verb} {wanted}"
    button = page.locator("#decision button.action").first
    text = button.get_attribute("data-action")
    button.click()
    return str(text)


def wait_until(page: Any, expression: str, timeout: float = TIMEOUT_MS / 1000) -> None:
    """Poll a JavaScript expression until it is true (the pages' policy forbids the
    string evaluation that Playwright's wait_for_function uses)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"timed out waiting for {expression}"
        time.sleep(0.02)


def turn_of(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.turn"))


def play_in_browser(table: Table, pages: dict[int, Any], until: Any, on_step: Any = None,
                    limit: int = 3000) -> list[tuple[int, str]]:
    """Click through the pages' decisions until ``until(table)``; the built-in players
    act on the server. Returns (seat, what was clicked) for every click."""
    clicks: list[tuple[int, str]] = []
    deadline = time.monotonic() + 600
    while not until(table):
        assert time.monotonic() < deadline and len(clicks) < limit, "the match did not end"
        turn = len(table.state.actions)
        for seat, page in pages.items():
            if page.locator("#turn.mine").count() and turn_of(page) == turn:
                clicks.append((seat, act_by_clicking(page)))
                wait_until(page, f"Number(document.body.dataset.turn) > {turn}")
                if on_step is not None:
                    on_step(len(clicks))
                break
        else:
            time.sleep(0.02)
    return clicks


def test_two_browsers_play_a_whole_ecarte_match(tmp_path: Path, browser: Any) -> None:
    manager, table = make_table(tmp_path / "data", "ecarte", ["human", "human"], seed=31)
    keys = tokens(table)
    with Server(create_app(manager, pace=0.05)) as server:
        pages = {seat: open_page(browser, f"{server.base}/t/{keys[seat]}") for seat in (0, 1)}
        watcher = open_page(browser, f"{server.base}/t/{keys['spectator']}")
        shoot(pages[0], "ecarte-seat0-start")
        reloaded = []

        def on_step(clicks: int) -> None:
            state = table.state
            if not reloaded and state.phase == "play" and state.current_trick:
                shoot(pages[0], "ecarte-seat0-trick")
                seen = pages[1].locator("#log li").count()
                pages[1].reload()  # mid-deal: the page comes back where it was
                pages[1].wait_for_selector("body[data-connected=yes][data-turn]")
                wait_until(pages[1], f"document.querySelectorAll('#log li').length >= {seen}")
                assert pages[1].locator("#trick .card").count() == len(state.current_trick)
                reloaded.append(clicks)

        clicks = play_in_browser(table, pages, lambda t: t.over, on_step)
        assert reloaded and table.state.is_terminal()
        assert len(clicks) == len(table.state.actions)
        assert {seat for seat, _ in clicks} == {0, 1}
        for page in (*pages.values(), watcher):
            page.wait_for_selector("#over:not([hidden])")
        shoot(pages[0], "ecarte-seat0-over")
        shoot(watcher, "ecarte-spectator-over")
        assert watcher.locator("#hand-area").is_hidden()
        assert "Match over" in pages[0].inner_text("#result")
        with pages[0].expect_download() as download:
            pages[0].click("#record")
        saved = tmp_path / "record.json"
        download.value.save_as(saved)
        for page in (*pages.values(), watcher):
            assert page.errors == []
    replayed = Record.load(saved).replay()
    assert replayed.actions == table.state.actions and replayed.scores == table.state.scores


def _seed_with_dealer(seats: set[int]) -> int:
    import tricklang
    from interpreter.state import new_game

    rules = tricklang.load("cinch")
    return next(seed for seed in range(100) if new_game(rules, seed=seed).dealer in seats)


def test_a_cinch_table_of_two_browsers_and_two_built_in_players_plays_a_deal(tmp_path: Path, browser: Any) -> None:
    seed = _seed_with_dealer({0, 2})
    manager, table = make_table(tmp_path / "data", "cinch", ["human", "heuristic", "human", "heuristic"], seed=seed)
    dealer = table.state.dealer
    keys = tokens(table)
    with Server(create_app(manager, pace=0.02)) as server:
        pages = {seat: open_page(browser, f"{server.base}/t/{keys[seat]}") for seat in (0, 2)}
        watcher = open_page(browser, f"{server.base}/t/{keys['spectator']}")
        shots: list[int] = []

        def on_step(clicks: int) -> None:
            if table.state.phase == "rob" and not shots and table.state.current_player == dealer:
                wait_until(pages[dealer], "document.getElementById('confirm-selection') !== null")
                pages[dealer].locator("#decision button.card.candidate").first.click()
                shoot(pages[dealer], "cinch-dealer-robbing")
                pages[dealer].locator("#decision button.card.candidate").first.click()  # (chosen again below)
                shots.append(clicks)

        clicks = play_in_browser(table, pages, lambda t: t.state.deal_number > 1 or t.over, on_step)
        shoot(pages[0], "cinch-seat0-second-deal")
        shoot(watcher, "cinch-spectator")
        for page in (*pages.values(), watcher):
            assert page.errors == []
    robbed = [text for seat, text in clicks if text.startswith("rob")]
    discarded = [seat for seat, text in clicks if text.startswith("discard")]
    assert robbed and set(discarded) == {0, 2}
    history = table.state.history
    assert any(seat == dealer and text.startswith("rob ") and text != "rob none" for seat, text in history)
    assert {seat for seat, _ in history} == {0, 1, 2, 3}


def test_a_new_table_from_the_front_page(tmp_path: Path, browser: Any) -> None:
    from interpreter.serve.games import GameCatalog
    from interpreter.serve.storage import Storage
    from interpreter.serve.tables import TableManager

    storage = Storage(tmp_path / "data")
    manager = TableManager(storage)
    with Server(create_app(manager, pace=0.05, catalog=GameCatalog(storage))) as server:
        front = open_front(browser, server.base)
        front.select_option("#game", "cinch")
        front.locator("[data-option=target]").fill("21")
        front.select_option("select[data-seat='1']", "random")
        front.click("#new button[type=submit]")
        front.wait_for_selector("#made:not([hidden])")
        assert front.locator("#links a").count() == 2  # seat 0 (the one human), spectators
        url = front.locator("#links a[data-seat='0']").get_attribute("href")
        shoot(front, "front-page")
        assert front.errors == []
        (table,) = manager.tables.values()
        assert table.kinds == ["human", "random", "heuristic", "heuristic"]
        assert table.ruleset.options["target"] == 21
        page = open_page(browser, server.base + str(url))
        assert page.locator("#hand .card").count() == 9 and page.errors == []


def open_front(browser: Any, base: str) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.errors = errors
    page.goto(base + "/")
    page.wait_for_selector("#game option[value=cinch]", state="attached")
    return page
