"""`make bench` part `lighthouse` (BENCH_ONLY=lighthouse): the Lighthouse bar of issue 22, per page and language.

The site is built for a local server that compresses text as GitHub Pages does (tests/site/siteinfo.py SiteServer,
gzip), and npm `lighthouse` (mobile preset, its default) runs against Debian's Chromium (CHROME_PATH) with every
host but 127.0.0.1 unresolvable, so nothing leaves the machine. Each page runs BENCH_LIGHTHOUSE_RUNS times
(default 5); the table gives the median of each score, of total blocking time and largest contentful paint, and
of Lighthouse's benchmarkIndex (the machine's speed during the runs), with the load average before and after, and
PASS or FAIL against the bar: performance >= 95, accessibility, best practices and SEO = 100. BENCH_PAGES (comma
separated paths such as `,errors/,ru/errors/`; an empty item is the landing page) measures only those pages.
It reports; nothing here is a test and nothing fails on a threshold.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from tests.site.siteinfo import CHROMIUM, CHROMIUM_ARGS, ROOT, SiteServer, discover_pages, free_port

CACHE = ROOT / ".cache"
REPORTS = CACHE / "lighthouse-bar"
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = [("performance", "Perf"), ("accessibility", "A11y"), ("best-practices", "BestPr"), ("seo", "SEO")]
BAR = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 100}
RUNS = int(os.environ.get("BENCH_LIGHTHOUSE_RUNS", "5"))
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "TF_CPP_MIN_LOG_LEVEL": "3"}
# Only the local server resolves: Chromium cannot reach any other host.
OFFLINE = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"


def run_once(url: str, out: Path) -> dict | None:
    flags = " ".join(["--headless=new", *CHROMIUM_ARGS, f'"{OFFLINE}"'])
    proc = subprocess.run(
        [
            str(LIGHTHOUSE),
            url,
            "--only-categories=" + ",".join(c for c, _ in CATEGORIES),
            "--output=json",
            f"--output-path={out}",
            f"--chrome-flags={flags}",
            "--disable-full-page-screenshot",
            "--quiet",
        ],
        capture_output=True,
        text=True,
        env={**ENV, "CHROME_PATH": CHROMIUM},
    )
    if proc.returncode != 0 or not out.exists():
        print(f"  lighthouse failed on {url} (exit {proc.returncode}): {proc.stderr.strip()[-500:]}", flush=True)
        return None
    return json.loads(out.read_text())


def figures(report: dict) -> dict:
    audits = report["audits"]
    return {
        **{c: round(100 * (report["categories"][c]["score"] or 0)) for c, _ in CATEGORIES},
        "tbt": audits["total-blocking-time"]["numericValue"],
        "lcp": audits["largest-contentful-paint"]["numericValue"],
        "index": report.get("environment", {}).get("benchmarkIndex") or 0,
    }


def failing_audits(report: dict) -> list[str]:
    found = []
    for category, short in CATEGORIES:
        for ref in report["categories"][category]["auditRefs"]:
            audit = report["audits"][ref["id"]]
            if ref["weight"] and audit.get("score") is not None and audit["score"] < 1:
                found.append(f"{short}: {audit['id']} {audit.get('displayValue') or ''}".rstrip())
    return found


def build(site_dir: Path, site_url: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)],
        cwd=ROOT,
        env={**ENV, "SITE_URL": site_url},
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        print(proc.stdout[-3000:], proc.stderr[-3000:], sep="\n")
        raise SystemExit(f"bench: the strict build failed (exit {proc.returncode}); run `make build`")


def lighthouse_bar() -> None:
    if not LIGHTHOUSE.exists():
        raise SystemExit("bench: node_modules/.bin/lighthouse missing; run `make node_modules/.installed`")
    port = free_port()
    site_dir = CACHE / "bench-site"
    base = f"http://127.0.0.1:{port}/"
    print(f"\nLighthouse bar (issue 22): building the site for {base} ...", flush=True)
    build(site_dir, base)
    pages = discover_pages(site_dir)
    wanted = os.environ.get("BENCH_PAGES")
    if wanted is not None:
        chosen = [p.strip() for p in wanted.split(",")]
        pages = [p for p in pages if p.path in chosen]
    REPORTS.mkdir(parents=True, exist_ok=True)
    rows = []
    with SiteServer(site_dir, gzip_enabled=True, port=port) as server:
        print(f"{len(pages)} pages, {RUNS} run(s) each, served gzipped ...", flush=True)
        for page in pages:
            load_before = os.getloadavg()[0]
            stem = page.path.strip("/").replace("/", "__") or "index"
            reports = [r for i in range(RUNS) if (r := run_once(server.url(page), REPORTS / f"{stem}.{i + 1}.json"))]
            load_after = os.getloadavg()[0]
            if not reports:
                rows.append((page.name, None, [], load_before, load_after))
                continue
            runs = [figures(r) for r in reports]
            median = {k: statistics.median(run[k] for run in runs) for k in runs[0]}
            rows.append((page.name, median, failing_audits(reports[0]), load_before, load_after))
    print("\n| page | Perf | A11y | BestPr | SEO | TBT ms | LCP s | benchmarkIndex | load before, after | verdict |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, m, _, before, after in rows:
        if m is None:
            print(f"| {name} | lighthouse did not run | | | | | | | {before:.1f}, {after:.1f} | FAIL |")
            continue
        verdict = "PASS" if all(m[c] >= BAR[c] for c in BAR) else "FAIL"
        print(
            f"| {name} | {m['performance']:.0f} | {m['accessibility']:.0f} | {m['best-practices']:.0f} | "
            f"{m['seo']:.0f} | {m['tbt']:.0f} | {m['lcp'] / 1000:.1f} | {m['index']:.0f} | {before:.1f}, {after:.1f} "
            f"| {verdict} |"
        )
    print(f"\nmedian of {RUNS} run(s); bar: performance >= 95, the others = 100. Audits that cost points (first run):")
    for name, _, audits, _, _ in rows:
        if audits:
            print(f"  {name}: " + "; ".join(audits))
    print(f"Lighthouse JSON reports: {REPORTS}")


if __name__ == "__main__":
    lighthouse_bar()
