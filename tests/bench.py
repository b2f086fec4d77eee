"""`make bench`: figures about the site and the foundation. It reports; it never fails on a threshold.

1. Lighthouse (npm `lighthouse`, mobile preset, Debian's Chromium) on every page in both languages, with
   each page's transfer size: the site is built with SITE_URL set to a local server that compresses text
   like the static host it is published on. Each page is measured BENCH_LIGHTHOUSE_RUNS times (default 3)
   and the median run is reported.
2. A screenshot of every page in both languages, light and dark, on a desktop and on a 390 px phone, into
   .cache/screenshots/<lang>/<page>-<scheme>-<device>.png.
3. What a contributor waits for (tests/bench_speed.py): a warm `make test`, a cold `.ci/run` on a clean clone and
   the rebuild after a real page edit (`make build` and `make serve`), each the median of BENCH_RUNS runs
   (default 5) with the load average and PASS or FAIL against its budget.

4. Each cookbook snippet run alone, as a reader runs it, against issue 23's 15 s (tests/bench_recipes.py).

BENCH_ONLY=pages runs 1 and 2 only, BENCH_ONLY=speed 3 only, BENCH_ONLY=recipes 4 only, BENCH_ONLY=lighthouse the
Lighthouse bar of tests/bench_lighthouse.py (median of 5 per page); the default runs all. BENCH_SPEED=warm,cold,build,serve picks
the figures of 3 (default all).
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from tests.bench_lighthouse import CATEGORIES, LIGHTHOUSE, lighthouse_bar
from tests.bench_lighthouse import run_once as lighthouse
from tests.bench_recipes import recipe_times
from tests.bench_speed import RUNS as SPEED_RUNS
from tests.bench_speed import speed_figures
from tests.site.siteinfo import (
    ROOT,
    SiteServer,
    discover_pages,
    free_port,
    launch_chromium,
    wait_until_settled,
)

CACHE = ROOT / ".cache"
SCREENSHOTS = CACHE / "screenshots"
LIGHTHOUSE_REPORTS = CACHE / "lighthouse"
BUDGET = 95
# Lighthouse runs per page; the median run (by performance) is reported. Performance varies with the
# machine's load (it is measured on a real trace, then throttled by simulation).
RUNS = int(os.environ.get("BENCH_LIGHTHOUSE_RUNS", "3"))
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "TF_CPP_MIN_LOG_LEVEL": "3"}


def timed(cmd: list[str], **kwargs) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    return time.perf_counter() - start, proc


def build(site_dir: Path, site_url: str) -> float:
    seconds, proc = timed(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)],
        cwd=ROOT,
        env={**ENV, "SITE_URL": site_url},
    )
    if proc.returncode != 0:
        print(proc.stdout[-3000:], proc.stderr[-3000:], sep="\n")
        raise SystemExit(f"bench: the strict build failed (exit {proc.returncode}); run `make build`")
    return seconds


def findings(report: dict) -> list[str]:
    """The audits that cost points, per category, in a few words."""
    lines = []
    for category, short in CATEGORIES:
        cat = report["categories"][category]
        for ref in cat["auditRefs"]:
            audit = report["audits"][ref["id"]]
            if ref["weight"] and audit.get("score") is not None and audit["score"] < 1:
                shown = audit.get("displayValue") or ""
                lines.append(f"{short}: {audit['id']} ({audit['score']:.2f}) {audit['title']} {shown}".rstrip())
    return lines


def median_run(reports: list[dict]) -> dict:
    """The run with the median performance score (as Lighthouse advises for its variance); the other
    categories do not vary between runs."""
    ordered = sorted(reports, key=lambda r: r["categories"]["performance"]["score"] or 0)
    return ordered[(len(ordered) - 1) // 2] if len(ordered) % 2 else ordered[len(ordered) // 2 - 1]


def run_lighthouse(pages, server) -> list[dict]:
    if LIGHTHOUSE_REPORTS.exists():
        shutil.rmtree(LIGHTHOUSE_REPORTS)
    LIGHTHOUSE_REPORTS.mkdir(parents=True)
    rows = []
    for page in pages:
        name = page.name
        stem = page.path.strip("/").replace("/", "__") or "index"
        reports = [
            r for i in range(RUNS) if (r := lighthouse(server.url(page), LIGHTHOUSE_REPORTS / f"{stem}.{i + 1}.json"))
        ]
        if not reports:
            rows.append({"page": name, "scores": {}, "bytes": None, "findings": ["lighthouse did not run"]})
            continue
        report = median_run(reports)
        scores = {c: round(100 * (report["categories"][c]["score"] or 0)) for c, _ in CATEGORIES}
        weight = report["audits"]["total-byte-weight"]["numericValue"]
        index = report.get("environment", {}).get("benchmarkIndex")
        rows.append({"page": name, "scores": scores, "bytes": weight, "findings": findings(report), "index": index})
        print(
            f"  {name:50} " + " ".join(f"{scores[c]:>6}" for c, _ in CATEGORIES) + f" {weight / 1024:8.1f} KB",
            flush=True,
        )
    return rows


def print_lighthouse_table(rows: list[dict]) -> None:
    print(
        f"\nLighthouse, mobile preset (simulated slow 4G, 4x CPU slowdown), median of {RUNS} run(s) per page;"
        " transfer = total-byte-weight (bytes over the wire, gzip)"
    )
    print(
        "(CPU idx = Lighthouse's benchmarkIndex of this machine during that run: the lower, the busier the"
        " machine and the worse the performance score; the other three categories do not depend on it)"
    )
    width = max([len("page"), *(len(r["page"]) for r in rows)])
    header = f"| {'page':{width}} | " + " | ".join(f"{s:>6}" for _, s in CATEGORIES) + " | transfer | CPU idx |"
    print(header)
    print("|" + "-" * (width + 2) + "|" + "|".join("-" * 8 for _ in CATEGORIES) + "|----------|---------|")
    for row in rows:
        cells = " | ".join(f"{row['scores'].get(c, '—'):>6}" for c, _ in CATEGORIES)
        size = f"{row['bytes'] / 1024:5.1f} KB" if row["bytes"] is not None else "       —"
        index = f"{row['index']:7.0f}" if row.get("index") else "      —"
        print(f"| {row['page']:{width}} | {cells} | {size} | {index} |")
    scored = [r for r in rows if r["scores"]]
    if scored:
        print("\nWorst page per category:")
        for category, short in CATEGORIES:
            worst = min(scored, key=lambda r: r["scores"][category])
            mark = "ok" if worst["scores"][category] >= BUDGET else f"BELOW {BUDGET}"
            print(
                f"  {short:7} {worst['scores'][category]:>3}  {worst['page']}  ({worst['bytes'] / 1024:.1f} KB)  {mark}"
            )
    costly = [r for r in rows if r["findings"]]
    if costly:
        print("\nAudits that cost points:")
        for row in costly:
            for line in row["findings"]:
                print(f"  {row['page']}: {line}")


SCREENSHOT_DEVICES = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "is_mobile": True,
        "has_touch": True,
        "device_scale_factor": 2,
    },
}


def screenshots(pages, server) -> int:
    from playwright.sync_api import sync_playwright

    if SCREENSHOTS.exists():
        shutil.rmtree(SCREENSHOTS)
    count = 0
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        for scheme, (device, options) in itertools.product(("light", "dark"), SCREENSHOT_DEVICES.items()):
            context = browser.new_context(color_scheme=scheme, **options)
            tab = context.new_page()
            for page in pages:
                tab.goto(server.url(page), wait_until="commit")
                wait_until_settled(tab)
                slug = page.path.removeprefix("ru/").strip("/").replace("/", "__") or "index"
                target = SCREENSHOTS / page.lang / f"{slug}-{scheme}-{device}.png"
                target.parent.mkdir(parents=True, exist_ok=True)
                tab.screenshot(path=str(target), full_page=True)
                count += 1
            context.close()
        browser.close()
    return count


def page_figures() -> None:
    if not LIGHTHOUSE.exists():
        raise SystemExit("bench: node_modules/.bin/lighthouse missing; `make bench` installs it (npm ci)")
    port = free_port()
    site_dir = CACHE / "bench-site"
    base = f"http://127.0.0.1:{port}/"
    print(f"Building the site for {base} ...", flush=True)
    build_seconds = build(site_dir, base)
    print(f"strict build (both languages): {build_seconds:.1f} s", flush=True)
    pages = discover_pages(site_dir)
    with SiteServer(site_dir, gzip_enabled=True, port=port) as server:
        print(f"Lighthouse on {len(pages)} pages, {RUNS} run(s) each (15-40 s a run) ...", flush=True)
        rows = run_lighthouse(pages, server)
        print_lighthouse_table(rows)
        shots = screenshots(pages, server)
    print(f"\nScreenshots: {shots} files (every page, en and ru, light and dark, desktop and phone) in {SCREENSHOTS}")
    print(f"Lighthouse JSON reports: {LIGHTHOUSE_REPORTS}")


def speed_table() -> None:
    print(f"\nWhat a contributor waits for (this machine, now; medians of {SPEED_RUNS} runs):", flush=True)
    figures = speed_figures()
    width = max(len(f.what) for f in figures)
    print(f"\n| {'what':{width}} | median | budget | verdict | runs (s) | CPU (s) | load before, after |")
    print(f"|{'-' * (width + 2)}|--------|--------|---------|----------|---------|-------------------|")
    for f in figures:
        runs = ", ".join(f"{r:.1f}" for r in f.runs)
        cpu = ", ".join(f"{c:.1f}" for c in f.cpu) or "—"
        print(
            f"| {f.what:{width}} | {f.median:5.1f} s | {f.budget:5.1f} s | {f.verdict} | {runs} | {cpu} "
            f"| {f.load_before:.1f}, {f.load_after:.1f} |"
        )


# BENCH_ONLY=pages (Lighthouse, page weights, screenshots), speed (warm, cold, rebuild), lighthouse, recipes; default all.
PARTS = {
    "pages": page_figures,
    "speed": speed_table,
    "lighthouse": lighthouse_bar,
    "recipes": recipe_times,
}  # lighthouse: tests/bench_lighthouse.py; recipes: tests/bench_recipes.py


def main() -> int:
    chosen = [p.strip() for p in os.environ.get("BENCH_ONLY", ",".join(PARTS)).split(",") if p.strip()]
    unknown = [p for p in chosen if p not in PARTS]
    if unknown:
        raise SystemExit(f"bench: BENCH_ONLY={','.join(unknown)}: not one of {', '.join(PARTS)}")
    for part in chosen:
        PARTS[part]()
    return 0


if __name__ == "__main__":
    sys.exit(main())
