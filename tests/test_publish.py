"""`make publish REMOTE=<bare repo>`: what lands on its gh-pages branch, and that it works under a sub-path.

One publish per session, to a temporary bare repository (`git init --bare`), with the commit made in a scratch
repository (`PUBLISH_GIT_DIR`), so a test run never moves this repository's own gh-pages branch. It runs
after the session's strict build (`built_site`), so its build is a second build: it must not execute any
notebook again.
"""

from __future__ import annotations

import os
import re
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import urljoin, urlsplit

import pytest

from tests.harness import ROOT

SITE_URL = "https://custom-gradients-faq.github.io/custom-gradients-faq/"  # mkdocs.yml default (SITE_URL unset)
SITE_PATH = urlsplit(SITE_URL).path


@dataclass(frozen=True)
class Published:
    remote: Path
    tree: Path
    returncode: int
    log: str


def git(*args: str, remote: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["git", f"--git-dir={remote}", *args], capture_output=True)


@pytest.fixture(scope="module")
def published(built_site, tmp_path_factory) -> Published:
    tmp = tmp_path_factory.mktemp("publish")
    remote, scratch = tmp / "remote.git", tmp / "scratch.git"
    for repo in (remote, scratch):
        subprocess.run(["git", "init", "--quiet", "--bare", str(repo)], check=True)
    env = {k: v for k, v in os.environ.items() if k != "SITE_URL"}
    proc = subprocess.run(
        ["make", "--no-print-directory", "publish", f"REMOTE={remote}", f"PUBLISH_GIT_DIR={scratch}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    tree = tmp / "gh-pages"
    tree.mkdir()
    # git itself writes the branch's files (tarfile's extraction filters need Python 3.11.4+; Debian 12 has 3.11.2)
    git(f"--work-tree={tree}", "checkout", "gh-pages", "--", ".", remote=remote)
    return Published(remote, tree, proc.returncode, proc.stdout + proc.stderr)


def test_make_publish_pushes_to_gh_pages(published):
    assert published.returncode == 0, f"make publish failed:\n{published.log[-4000:]}"
    log = git("log", "--format=%s", "gh-pages", remote=published.remote)
    assert log.returncode == 0 and log.stdout.decode().startswith("Publish site from"), "no publish commit on gh-pages"


def test_gh_pages_holds_both_languages_nojekyll_404_and_sitemap(published):
    tree = published.tree
    for name in [".nojekyll", "index.html", "ru/index.html", "404.html", "ru/404.html", "sitemap.xml"]:
        assert (tree / name).is_file(), f"{name} is not on gh-pages"
    for page, lang in [("index.html", "en"), ("ru/index.html", "ru"), ("404.html", "en"), ("ru/404.html", "ru")]:
        assert f'<html lang="{lang}"' in (tree / page).read_text(encoding="utf-8"), f"gh-pages {page} is not in {lang}"
    for name in (ROOT / "docs" / "notebooks").glob("*.py"):
        stem = name.name.split(".")[0]
        for lang_prefix in ("", "ru/"):
            assert (tree / lang_prefix / "notebooks" / stem / "index.html").is_file(), (
                f"notebook page {lang_prefix}notebooks/{stem}/ not published"
            )


def test_sitemap_lists_every_page_in_both_languages(published):
    tree = published.tree
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    locs = [el.text for el in ET.parse(tree / "sitemap.xml").getroot().findall("s:url/s:loc", ns)]
    assert locs, "sitemap.xml lists no page"
    wrong = [loc for loc in locs if not loc.startswith(SITE_URL)]
    assert not wrong, f"sitemap entries outside site_url {SITE_URL}: {wrong}"
    listed = {loc[len(SITE_URL) :] for loc in locs}
    pages = set()
    for index in tree.rglob("index.html"):
        folder = index.parent.relative_to(tree).as_posix()
        if not {"assets", "pagefind", "search"} & set(folder.split("/")):
            pages.add("" if folder == "." else folder + "/")
    missing = sorted(pages - listed)
    assert not missing, f"pages missing from sitemap.xml: {missing}"
    assert any(path.startswith("ru/") for path in listed), "sitemap.xml lists no Russian page"


_REF = re.compile(r'<(?:a|link|script|img|source|iframe)\b[^>]*?\b(?:href|src)="([^"]*)"', re.S)


def test_links_and_assets_resolve_under_the_sub_path(published):
    """Every local link and asset of every published page resolves to a published file when the site is
    served from the sub-path of site_url (as a GitHub Pages project site is). 404 pages are checked as
    served from a deep, missing address, where only absolute links work."""
    tree = published.tree
    broken = []
    for page in sorted(tree.rglob("*.html")):
        rel = page.relative_to(tree).as_posix()
        if rel.startswith(("assets/", "pagefind/")):
            continue
        if rel.endswith("404.html"):
            url = urljoin(SITE_URL, "no/such/page/")
        else:
            url = urljoin(SITE_URL, rel[: -len("index.html")] if rel.endswith("index.html") else rel)
        for ref in _REF.findall(page.read_text(encoding="utf-8")):
            if not ref or ref.startswith(("#", "mailto:", "data:", "javascript:")):
                continue
            target = urlsplit(urljoin(url, ref))
            if target.netloc and target.netloc != urlsplit(SITE_URL).netloc:
                continue  # another host: a plain link for the reader (the browser suite checks nothing loads)
            if not target.path.startswith(SITE_PATH):
                broken.append(f"{rel}: {ref} leaves the site's path {SITE_PATH}")
                continue
            local = PurePosixPath(target.path[len(SITE_PATH) :])
            file = tree / local
            if target.path.endswith("/"):
                file = file / "index.html"
            if not file.is_file():
                broken.append(f"{rel}: {ref} -> {target.path} (no such file on gh-pages)")
    assert not broken, f"{len(broken)} broken link(s)/asset(s) under {SITE_PATH}:\n  " + "\n  ".join(broken[:40])


def test_a_second_build_executes_no_notebook(published):
    """The publish build follows the session's build: every notebook must come from the cache."""
    assert published.returncode == 0, "make publish failed (see test_make_publish_pushes_to_gh_pages)"
    executed = [line for line in published.log.splitlines() if "executed in" in line]
    assert not executed, "the second build executed notebooks again (cache miss):\n" + "\n".join(executed)
