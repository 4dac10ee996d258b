"""viewer.py - how quick the pages of pmn html are, in headless Chromium.

    /usr/bin/python3 bench/viewer.py        (from the build tree, after make)

Makes three pages -- the 334-ply Oware game of bench/games 3000 2 oware
(game 2760), 300 random Hawalis games (bench/games 300 7), and 2000 of
them -- and says for each: its size, the time pmn html took, the time
from navigation to the page ready (the load event, the first game opened
and drawn), the time to open another game (its JSON parsed, its moves
listed, its board drawn), and the script's time for a step forward, a lap
forward and a jump to the end, each the median of many, measured in the
page with performance.now() around the key's handler (layout and paint
that the browser defers are not in it).
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

PMN = os.environ.get("PMN", "./src/pmn")
GAMES = os.environ.get("BENCH_GAMES", "./bench/games")

KEY_TIMES = """
var key = arguments[0], n = arguments[1], times = [];
for (var i = 0; i < n; i++) {
  var t = performance.now();
  document.dispatchEvent(new KeyboardEvent('keydown', {key: key}));
  times.push(performance.now() - t);
}
return times;
"""


def make(work, name, games_args, select=None):
    games = subprocess.run([GAMES, *games_args], stdout=subprocess.PIPE, check=True).stdout
    if select:
        games = subprocess.run([PMN, "select", "-q", "--game", select, "-"], input=games,
                               stdout=subprocess.PIPE, check=True).stdout
    pmn = os.path.join(work, name + ".pmn")
    with open(pmn, "wb") as f:
        f.write(games)
    page = os.path.join(work, name + ".html")
    t = time.perf_counter()
    subprocess.run([PMN, "html", "-q", pmn, "-o", page])
    return page, time.perf_counter() - t


def median_ms(d, key, n):
    return statistics.median(d.execute_script(KEY_TIMES, key, n))


def measure(d, name, page, made):
    d.get("file://" + page + "#game=1&ply=0")
    ready = d.execute_script(
        "var t = performance.getEntriesByType('navigation')[0]; return t.loadEventEnd;")
    opened = d.execute_script("""
        var n = document.querySelectorAll('script.game').length, t = performance.now();
        if (n < 2) return null;
        location.hash = '#game=' + n + '&ply=0';
        window.dispatchEvent(new HashChangeEvent('hashchange'));
        return performance.now() - t;""")
    d.execute_script("location.hash = '#game=1&ply=0';"
                     "window.dispatchEvent(new HashChangeEvent('hashchange'));")
    step = median_ms(d, "ArrowRight", 100)
    d.execute_script("location.hash = '#game=1&ply=0';"
                     "window.dispatchEvent(new HashChangeEvent('hashchange'));")
    lap = median_ms(d, "]", 200)
    end = statistics.median(
        d.execute_script(KEY_TIMES, "End", 1)[0] + d.execute_script(KEY_TIMES, "Home", 1)[0]
        for _ in range(20))
    print("%-22s %7.1f MB %8.2f s %9.0f ms %12s %7.2f ms %7.2f ms %8.2f ms"
          % (name, os.path.getsize(page) / 1e6, made, ready,
             "-" if opened is None else "%.1f ms" % opened, step, lap, end), flush=True)


def main():
    o = webdriver.ChromeOptions()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--window-size=1280,1000"):
        o.add_argument(a)
    o.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    d = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")),
                         options=o)
    print("%-22s %10s %10s %12s %12s %10s %10s %11s"
          % ("page", "size", "pmn html", "ready", "open a game", "step", "lap", "End+Home"))
    with tempfile.TemporaryDirectory() as work:
        for name, args, select in (("334-ply Oware game", ["3000", "2", "oware"], "2760"),
                                   ("300 Hawalis games", ["300", "7"], None),
                                   ("2000 Hawalis games", ["2000", "7"], None)):
            page, made = make(work, name.replace(" ", "-"), args, select)
            measure(d, name, page, made)
    d.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
