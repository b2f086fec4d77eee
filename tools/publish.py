"""Publish the site: strict build, then push it to the ``gh-pages`` branch of a git remote.

What ``make publish [REMOTE=origin]`` runs::

    python -m tools.publish --remote origin              # a remote name of this repository
    python -m tools.publish --remote /srv/site.git       # or a path / URL

The build is the one the tests make (``mkdocs build --strict``) into a fresh temporary folder, so nothing
stale from ``site/`` is ever published; it must hold both languages' landing and 404 pages and the sitemap.
The commit is made by ghp-import (the tool behind ``mkdocs gh-deploy``, installed with MkDocs), with
``.nojekyll`` (GitHub Pages must serve the files as they are), on top of the remote's current ``gh-pages``:
history is kept and the push is a plain fast-forward, no force. As with ``mkdocs gh-deploy``, the commit is
made on the local ``gh-pages`` branch of this repository and pushed with git's own credentials (on GitHub
Actions: the ones actions/checkout configured); ``--git-dir`` makes it in another repository instead (the
tests use a scratch one, so a test run never moves this repository's branches).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BRANCH = "gh-pages"  # hooks/notebooks.py links Colab to notebooks on this branch
LANGUAGES = ("", "ru/")  # site root is English, /ru/ is Russian
REQUIRED = ["sitemap.xml"] + [f"{lang}{page}" for lang in LANGUAGES for page in ("index.html", "404.html")]
BOT = ("github-actions[bot]", "41898282+github-actions[bot]@users.noreply.github.com")


def run(*args: str, cwd: Path | None = None, env: dict | None = None, capture: bool = True) -> str:
    proc = subprocess.run(args, cwd=cwd, env=env, text=True, capture_output=capture)
    if proc.returncode != 0:
        detail = (proc.stderr or proc.stdout or "").strip() if capture else ""
        raise SystemExit(f"publish: `{' '.join(args)}` failed ({proc.returncode})\n{detail}")
    return proc.stdout.strip() if capture else ""


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


def check(site_dir: Path) -> None:
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


def push(site_dir: Path, remote: str, git_dir: Path | None) -> str:
    """Commit ``site_dir`` onto the remote's gh-pages with ghp-import and push it; return the commit."""
    env = dict(os.environ)
    if git_dir is not None:
        env["GIT_DIR"] = str(git_dir)
    # ghp-import builds on the local branch (or on <remote>/gh-pages for a remote name): bring both up to the
    # remote's, so the push is a fast-forward.
    if run("git", "ls-remote", "--heads", remote, BRANCH, cwd=ROOT, env=env):
        refspecs = [f"+refs/heads/{BRANCH}:refs/heads/{BRANCH}"]
        if subprocess.run(["git", "remote", "get-url", remote], cwd=ROOT, env=env, capture_output=True).returncode == 0:
            refspecs.append(f"+refs/heads/{BRANCH}:refs/remotes/{remote}/{BRANCH}")
        run("git", "fetch", "--quiet", remote, *refspecs, cwd=ROOT, env=env)
    for var, value in (("GIT_COMMITTER_NAME", BOT[0]), ("GIT_COMMITTER_EMAIL", BOT[1])):
        key = "user.name" if var.endswith("NAME") else "user.email"
        configured = subprocess.run(
            ["git", "config", "--get", key], cwd=ROOT, env=env, text=True, capture_output=True
        ).stdout.strip()
        env.setdefault(var, configured or value)
        env.setdefault(var.replace("COMMITTER", "AUTHOR"), env[var])
    message = f"Publish site from {source_revision()}"
    ghp_import = [sys.executable, "-m", "ghp_import", "--no-jekyll", "--push", "--remote", remote, "--branch", BRANCH]
    run(*ghp_import, "--message", message, str(site_dir), cwd=ROOT, env=env)
    return run("git", "rev-parse", BRANCH, cwd=ROOT, env=env)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--remote", default="origin", help="git remote name, path or URL (default: origin)")
    parser.add_argument("--git-dir", type=Path, help="repository in which to make the commit (default: this one)")
    args = parser.parse_args(argv)
    remote = args.remote
    if subprocess.run(["git", "remote", "get-url", remote], cwd=ROOT, capture_output=True).returncode != 0:
        remote = resolve_remote(remote)  # a path or URL
    with tempfile.TemporaryDirectory(prefix="publish-site-") as tmp:
        site_dir = Path(tmp, "site")
        build(site_dir)
        check(site_dir)
        files = sum(1 for p in site_dir.rglob("*") if p.is_file()) + 1  # and .nojekyll
        commit = push(site_dir, remote, args.git_dir)
    print(f"publish: pushed {files} files to {BRANCH} of {args.remote} ({commit[:12]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
