"""The strict build passes with zero warnings (a broken link, anchor or include fails it)."""

import re


def test_strict_build_has_no_warnings(built_site):
    problems = [line for line in built_site.log.splitlines() if re.match(r"^(WARNING|ERROR)\s+-\s", line.strip())]
    assert built_site.returncode == 0 and not problems, (
        "mkdocs build --strict failed. Reproduce with: make build\n"
        + "\n".join(problems or built_site.log.splitlines()[-30:])
    )


def test_both_languages_are_built(built_site):
    assert (built_site.site_dir / "index.html").exists(), "English landing page missing from the build"
    assert (built_site.site_dir / "ru" / "index.html").exists(), "Russian landing page missing from the build (/ru/)"
