"""tools/versions/interpreters.py (tools/python.sh find-version): the Python a release runs under is found by
running it; a version that does not run here is not reported as found."""

import subprocess
import sys

from tools.versions.interpreters import find_python, interpreter_for

THIS = f"{sys.version_info.major}.{sys.version_info.minor}"


def test_finds_a_python_of_exactly_that_version_that_runs():
    found = find_python(THIS)
    assert found is not None, f"no Python {THIS} found, yet the tests run under one ({sys.executable})"
    ran = subprocess.run(
        [found, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"], capture_output=True, text=True
    )
    assert ran.stdout.strip() == THIS


def test_a_version_not_installed_is_left_to_uv(capsys):
    assert find_python("3.99") is None
    assert interpreter_for("3.99", "9.9.9") == "3.99"
    assert "no Python 3.99 runs here" in capsys.readouterr().out
