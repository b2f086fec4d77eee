"""Publish the site: strict build, then push it to the ``gh-pages`` branch of a git remote.

What ``make publish [REMOTE=origin]`` runs::

    python -m tools.publish --remote origin              # a remote name of this repository
    python -m tools.publish --remote /srv/site.git       # or a path / URL

The build is the one the tests make (``mkdocs build --strict``) into a fresh temporary folder, so nothing
stale from ``site/`` is ever published. ``.nojekyll`` is added (GitHub Pages must serve the files as they
are). The commit is made in a temporary repository whose parent is the remote's current ``gh-pages``
(history is kept, and the push is a plain fast-forward: no force). This repository's branches, index and
objects are not touched.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BRANCH = "gh-pages"
LANGUAGES = ("", "ru/")  # site root is English, /ru/ is Russian
REQUIRED = [".nojekyll", "sitemap.xml"] + [f"{lang}{page}" for lang in LANGUAGES for page in ("index.html", "404.html")]
BOT = ("github-actions[bot]", "41898282+github-actions[bot]@users.noreply.github.com")


def run(*args: str, cwd: Path | None = None, env: dict | None = None, capture: bool = True) -> str:
    proc = subprocess.run(args, cwd=cwd, env=env, text=True, capture_output=capture)
    if proc.returncode != 0:
        detail = (proc.stderr or proc.stdout or "").strip() if capture else ""
        raise SystemExit(f"publish: `{' '.join(args)}` failed ({proc.returncode})\n{detail}")
    return proc.stdout.strip() if capture else ""


def git_config(key: str) -> str:
    proc = subprocess.run(["git", "config", "--get", key], cwd=ROOT, text=True, capture_output=True)
    return proc.stdout.strip()


def resolve_remote(remote: str) -> str:
    """A remote name of this repository becomes its URL; a path or URL stays as given."""
    proc = subprocess.run(["git", "remote", "get-url", remote], cwd=ROOT, text=True, capture_output=True)
    if proc.returncode == 0 and proc.stdout.strip():
        return proc.stdout.strip()
    if Path(remote).exists():
        return str(Path(remote).resolve())
    if "://" in remote or "@" in remote:
        return remote
    raise SystemExit(f"publish: REMOTE '{remote}' is neither a git remote of this repository nor a path/URL")


def build(site_dir: Path) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    print(f"publish: strict build into {site_dir}", flush=True)
    run(
        sys.executable,
        "-m",
        "mkdocs",
        "build",
        "--strict",
        "--site-dir",
        str(site_dir),
        cwd=ROOT,
        env=env,
        capture=False,
    )


def prepare(site_dir: Path) -> None:
    (site_dir / ".nojekyll").write_text("")
    missing = [name for name in REQUIRED if not (site_dir / name).is_file()]
    if missing:
        raise SystemExit(f"publish: the build lacks {missing}; refusing to publish an incomplete site")


def source_revision() -> str:
    proc = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True, capture_output=True)
    rev = proc.stdout.strip() or "unknown"
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, text=True, capture_output=True
    )
    return rev + ("+local changes" if dirty.stdout.strip() else "")


def push(site_dir: Path, url: str) -> str:
    with tempfile.TemporaryDirectory(prefix="publish-git-") as tmp:
        git_dir = Path(tmp, "repo.git")
        name = git_config("user.name") or os.environ.get("GIT_AUTHOR_NAME") or BOT[0]
        email = git_config("user.email") or os.environ.get("GIT_AUTHOR_EMAIL") or BOT[1]
        # Credentials that actions/checkout keeps in this repository's config (http.<url>.extraheader).
        headers = subprocess.run(
            ["git", "config", "--get-regexp", r"^http\..*\.extraheader$"], cwd=ROOT, text=True, capture_output=True
        ).stdout
        extra = []
        for line in headers.splitlines():
            key, _, value = line.partition(" ")
            extra += ["-c", f"{key}={value}"]
        base = [
            "git",
            *extra,
            "-c",
            f"user.name={name}",
            "-c",
            f"user.email={email}",
            f"--git-dir={git_dir}",
            f"--work-tree={site_dir}",
        ]
        run("git", "init", "--quiet", "--bare", str(git_dir))
        parent = []
        if run(*base, "ls-remote", "--heads", url, BRANCH):
            run(*base, "fetch", "--quiet", "--depth=1", url, f"refs/heads/{BRANCH}")
            parent = ["-p", run(*base, "rev-parse", "FETCH_HEAD")]
        run(*base, "add", "--all", "--force", ".", cwd=site_dir)
        tree = run(*base, "write-tree")
        if parent and run(*base, "rev-parse", "FETCH_HEAD^{tree}") == tree:
            print(f"publish: {BRANCH} already holds exactly this site; nothing to push")
            return parent[1]
        message = f"Publish site from {source_revision()}"
        commit = run(*base, "commit-tree", tree, *parent, "-m", message)
        run(*base, "push", "--quiet", url, f"{commit}:refs/heads/{BRANCH}")
        return commit


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--remote", default="origin", help="git remote name, path or URL (default: origin)")
    args = parser.parse_args(argv)
    url = resolve_remote(args.remote)
    with tempfile.TemporaryDirectory(prefix="publish-site-") as tmp:
        site_dir = Path(tmp, "site")
        build(site_dir)
        prepare(site_dir)
        files = sum(1 for p in site_dir.rglob("*") if p.is_file())
        commit = push(site_dir, url)
    print(f"publish: pushed {files} files to {BRANCH} of {args.remote} ({commit[:12]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
