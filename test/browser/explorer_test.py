#!/usr/bin/env python3
"""The explorer page (simplec --emit=html) in a real browser: headless
Chromium driven by Selenium opens the page of a golden program, moves the
pass slider, clicks a node and checks that its source line, its inputs and
its uses are highlighted, tries diff mode and search, and saves a
screenshot.

Needs Debian's chromium, chromium-driver and python3-selenium (run it with
/usr/bin/python3). Without them it exits 77 (ctest: skipped), except with
CI=true, where a missing browser is a failure: CI installs them (.ci/run).

Usage: explorer_test.py --simplec PATH --program FILE.smp [--screenshot OUT.png]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SKIP = 77
CHROMEDRIVER = "/usr/bin/chromedriver"


def unavailable(why):
    if os.environ.get("CI") == "true":
        print(f"explorer_test: FAIL: {why} (CI must have chromium, chromium-driver and python3-selenium)")
        sys.exit(1)
    print(f"explorer_test: SKIP: {why}")
    sys.exit(SKIP)


try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
except ImportError:
    unavailable("python3-selenium is not installed (or this is not Debian's /usr/bin/python3)")

passed = 0
failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {name}" + (f": {detail}" if detail else ""))


def page_data(html):
    m = re.search(r'<script type="application/json" id="explorer-data">(.*?)</script>', html, re.S)
    return json.loads(m.group(1))


def wait_for(driver, condition, seconds=10.0):
    end = time.time() + seconds
    while time.time() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    return condition()


def classes(element):
    return (element.get_attribute("class") or "").split()


def big_program(functions=35):
    """About 600 lines: small functions with loops, arrays and objects, and
    a long main that calls each (and, at -O2, inlines them)."""
    out = ["struct P { int x; int y; };"]
    for i in range(functions):
        out += [f"val fn{i} = {{ int a, int b ->", "    int[] v = new int[16];", "    int t = 0;",
                "    for (int k = 0; k < 16; k++) {", f"        v[k] = a * k + b + {i};",
                "        if (v[k] % 3 == 0) t = t + v[k];", "        else t = t - 1;", "    }",
                "    P p = new P;", "    p.x = t; p.y = a;", f"    return p.x + p.y * {i + 1};", "};"]
    out += ["val main = { ->", "    int s = 0;"]
    for i in range(functions):
        out += [f"    s = s + fn{i}(s % 7, {i});", f"    if (s > {1000 * (i + 1)}) s = s - {i * 3 + 1};",
                f"    int q{i} = s * {i + 2};", f"    while (q{i} > 100) q{i} = q{i} / 2;", f"    s = s + q{i};"]
    out += ['    sys.io.p(s); sys.io.p("\\n");', "    return 0;", "};"]
    return "\n".join(out) + "\n"


def check_big_program(driver, simplec, work):
    """A 600-line program: the page opens and every pass of its biggest
    graph (thousands of nodes) is drawn, with and without diff, in time."""
    src = os.path.join(work, "big.smp")
    page = os.path.join(work, "big.html")
    with open(src, "w") as f:
        f.write(big_program())
    r = subprocess.run([simplec, "--emit=html", "-O2", src, "-o", page], capture_output=True, text=True)
    check("big program: simplec --emit=html exits 0", r.returncode == 0, r.stderr)
    if r.returncode != 0:
        return
    start = time.time()
    driver.get("file://" + page)
    check("big program: the graph is drawn", wait_for(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#graph .node")))
    loaded = time.time() - start
    check(f"big program: opens in under 20 s ({loaded:.1f} s)", loaded < 20)
    lines = len(driver.find_elements(By.CSS_SELECTOR, "#source .src-line"))
    check(f"big program: at least 500 source lines ({lines})", lines >= 500)
    biggest = driver.execute_script(
        "return Math.max(...DATA.functions.flatMap((f) => f.versions.map((v) => v.nodes.length)));")
    check(f"big program: a graph of over 1500 nodes ({biggest})", biggest > 1500)
    slowest = 0.0
    for diff in (False, True):
        if diff:
            driver.find_element(By.ID, "diff").click()
        for p in range(driver.execute_script("return DATA.passes.length;")):
            t = time.time()
            driver.execute_script("setPass(arguments[0]);", p)
            slowest = max(slowest, time.time() - t)
    check(f"big program: each pass drawn in under 5 s (slowest {slowest:.2f} s)", slowest < 5)
    drawn = len(driver.find_elements(By.CSS_SELECTOR, "#graph .node"))
    check(f"big program: only what is near the screen is drawn ({drawn} of {biggest})", 0 < drawn < biggest)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--simplec", required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--screenshot", default="explorer.png")
    args = ap.parse_args()
    args.screenshot = os.path.abspath(args.screenshot)

    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        unavailable("chromium is not installed")
    if not os.path.exists(CHROMEDRIVER):
        unavailable("chromium-driver is not installed")

    work = tempfile.mkdtemp(prefix="explorer-test-")
    page = os.path.join(work, "page.html")
    # From the program's folder, so that the page names it as a user would.
    program = os.path.abspath(args.program)
    r = subprocess.run([os.path.abspath(args.simplec), "--emit=html", "-O2", os.path.basename(program), "-o", page],
                       capture_output=True, text=True, cwd=os.path.dirname(program))
    check("simplec --emit=html exits 0", r.returncode == 0, r.stderr)
    if r.returncode != 0:
        return
    data = page_data(open(page, encoding="utf-8").read())
    fn = next(i for i, f in enumerate(data["functions"]) if f["name"] == "main")
    final = data["functions"][fn]["versions"][-1]["nodes"]
    # The node to click: a value of the final graph with a source line,
    # inputs and uses (a comparison is a good one).
    uses_of = {}
    for n in final:
        for d in n["in"]:
            uses_of.setdefault(d, []).append(n["id"])
    target = next(n for n in final if n["op"] in ("LT", "LE", "EQ", "NE") and n["line"] and n["id"] in uses_of)

    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1600,1000",
              "--hide-scrollbars", "--force-device-scale-factor=1"):
        options.add_argument(a)
    options.set_capability("goog:loggingPrefs", {"browser": "SEVERE"})
    try:
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    except Exception as e:  # noqa: BLE001 - any failure to start the browser
        unavailable(f"cannot start headless chromium: {e}")
    try:
        driver.get("file://" + page)
        check("the graph is drawn", wait_for(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#graph .node")))
        errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
        check("no script errors", not errors, str(errors))

        # The slider: Home goes to the parser's graph, one step right to the first pass.
        slider = driver.find_element(By.ID, "pass")
        slider.click()
        slider.send_keys(Keys.HOME)
        name = driver.find_element(By.ID, "pass-name")
        check("slider at the parser's graph", wait_for(driver, lambda: name.text == "0: parse"), name.text)
        slider.send_keys(Keys.ARROW_RIGHT)
        want = f"1: {data['passes'][1]}"
        check("slider moves one pass on", wait_for(driver, lambda: name.text == want), name.text)
        slider.send_keys(Keys.END)
        want = f"{len(data['passes']) - 1}: {data['passes'][-1]}"
        check("slider at the last pass", wait_for(driver, lambda: name.text == want), name.text)

        # Click the target node (brought on screen first: off-screen nodes are not drawn).
        driver.execute_script("showNode(arguments[0]); drawGraph();", target["id"])
        node = driver.find_element(By.CSS_SELECTOR, f'#graph .node[data-id="{target["id"]}"]')
        node.click()
        node = driver.find_element(By.CSS_SELECTOR, f'#graph .node[data-id="{target["id"]}"]')
        check("the clicked node is selected", "selected" in classes(node), classes(node))
        line = driver.find_element(By.CSS_SELECTOR, f'#source .src-line[data-line="{target["line"]}"]')
        check(f"its source line {target['line']} is highlighted", "selected-line" in classes(line), classes(line))
        others = driver.find_elements(By.CSS_SELECTOR, "#source .selected-line")
        check("only that source line", len(others) == 1, len(others))
        for u in uses_of[target["id"]]:
            els = driver.find_elements(By.CSS_SELECTOR, f'#graph .node[data-id="{u}"]')
            check(f"use #{u} is highlighted", els and "use" in classes(els[0]), els and classes(els[0]))
        for d in target["in"]:
            if d < 0:
                continue
            els = driver.find_elements(By.CSS_SELECTOR, f'#graph .node[data-id="{d}"]')
            check(f"input #{d} is highlighted", els and "input" in classes(els[0]), els and classes(els[0]))
        hot = driver.find_elements(By.CSS_SELECTOR, "#graph .edge.hot")
        check("its edges are highlighted", len(hot) >= len(uses_of[target["id"]]), len(hot))
        # The same node in the other passes: the pass strip marks each pass that has it.
        have = [b.text for b in driver.find_elements(By.CSS_SELECTOR, "#passes button.has-node")]
        want = [data["passes"][v["pass"]] for v in data["functions"][fn]["versions"]
                if any(n["id"] == target["id"] for n in v["nodes"])]
        check("the pass strip marks the passes that have the node", len(have) >= len(want) > 0 and set(want) <= set(have),
              f"{have} vs {want}")
        info = driver.find_element(By.ID, "info").text
        check("the info bar names the node and its passes", f"#{target['id']}" in info and "in passes:" in info, info)
        asm = driver.find_elements(By.CSS_SELECTOR, "#asm .linked-line")
        check("its machine code lines are linked", all(a.get_attribute("data-line") == str(target["line"]) for a in asm))

        # Diff mode at the first pass that changed main: something is coloured.
        changed = data["functions"][fn]["versions"][1]["pass"]
        driver.find_element(By.ID, "diff").click()
        driver.execute_script("setPass(arguments[0]); fitGraph();", changed)
        time.sleep(0.3)
        coloured = driver.find_elements(By.CSS_SELECTOR, "#graph .node.added, #graph .node.removed, #graph .node.retyped")
        check(f"diff mode colours the changes of '{data['passes'][changed]}'", len(coloured) > 0)
        driver.find_element(By.ID, "diff").click()

        # Search by opcode and by id.
        search = driver.find_element(By.ID, "search")
        search.send_keys("Phi")
        result = driver.find_element(By.ID, "search-result")
        check("search by opcode finds Phis", wait_for(driver, lambda: "match" in result.text and "no match" not in result.text),
              result.text)
        search.clear()
        search.send_keys(f"#{target['id']}", Keys.ENTER)
        check("search by id selects the node", wait_for(driver, lambda: driver.find_elements(
            By.CSS_SELECTOR, f'#graph .node.selected[data-id="{target["id"]}"]')))

        # The picture for the README: the last pass, the node selected.
        driver.execute_script("setPass(DATA.passes.length - 1); fitGraph();")
        time.sleep(0.2)
        driver.execute_script("state.zoom = 1; selectNode(arguments[0], true);", target["id"])
        time.sleep(0.3)
        driver.save_screenshot(args.screenshot)
        check("screenshot saved", os.path.getsize(args.screenshot) > 10000, args.screenshot)

        check_big_program(driver, args.simplec, work)
    finally:
        driver.quit()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
    print(f"explorer_test: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
