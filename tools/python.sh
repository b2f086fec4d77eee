#!/bin/sh
# Which Python builds .venv. POSIX sh, because it runs before any Python is known to work.
#
#   sh tools/python.sh find                  print the first Python 3.11-3.13 that runs (its real path), or nothing
#   sh tools/python.sh find-version 3.12     print the first Python 3.12 that runs (its real path), or nothing
#                                            (make versions: each TensorFlow release runs under its own Python)
#   sh tools/python.sh venv PYTHON ORIGIN    make .venv with PYTHON, unless .venv already holds a usable one;
#                                            .venv/python.txt names its interpreter (rewritten only on change,
#                                            so make reinstalls the packages exactly when .venv was remade)
#
# An interpreter is probed by running it: version-manager shims (pyenv's python3.12 on the PATH) exist but
# exit with an error unless their version is selected, while the interpreters behind them are installed.
# ORIGIN is make's $(origin PYTHON): "file" when `find` chose it, "command line"/"environment" when the
# reader named one; a named interpreter replaces a .venv made with another one.
set -eu

SUPPORTED="3.11, 3.12 or 3.13"
PROBE='import sys; sys.exit(0 if (3, 11) <= sys.version_info[:2] <= (3, 13) else 1)'
DESCRIBE='import sys; print(sys.version.split()[0], sys.base_prefix)'

candidates() {
    echo python3.11 python3.12 python3.13 python3
    roots=""
    command -v pyenv >/dev/null 2>&1 && roots="$(pyenv root 2>/dev/null || true)"
    for root in "$roots" "${PYENV_ROOT:-}" "$HOME/.pyenv"; do
        [ -n "$root" ] || continue
        for exe in "$root"/versions/3.1[123]*/bin/python3.1[123]; do
            [ -x "$exe" ] && echo "$exe"
        done
    done
    for exe in /usr/local/bin/python3.1[123] /usr/bin/python3.1[123]; do
        [ -x "$exe" ] && echo "$exe"
    done
    return 0
}

find_python() {
    for exe in $(candidates); do
        if "$exe" -c "$PROBE" >/dev/null 2>&1; then
            "$exe" -c 'import sys; print(sys.executable)'
            return 0
        fi
    done
    return 0
}

# The first interpreter of exactly this minor version (e.g. 3.12) that runs: named python3.12 on the PATH,
# under pyenv's roots, or in /usr/local/bin and /usr/bin, plus every candidate above (python3 may be it).
find_version() {
    minor=$1
    probe="import sys; sys.exit(0 if '%d.%d' % sys.version_info[:2] == '$minor' else 1)"
    roots=""
    command -v pyenv >/dev/null 2>&1 && roots="$(pyenv root 2>/dev/null || true)"
    for exe in "python$minor" \
        $(for root in "$roots" "${PYENV_ROOT:-}" "$HOME/.pyenv"; do [ -n "$root" ] && echo "$root"/versions/"$minor"*/bin/python"$minor"; done) \
        "/usr/local/bin/python$minor" "/usr/bin/python$minor" $(candidates); do
        if "$exe" -c "$probe" >/dev/null 2>&1; then
            "$exe" -c 'import sys; print(sys.executable)'
            return 0
        fi
    done
    return 0
}

none_found() {
    cat >&2 <<EOF
No Python $SUPPORTED found (tried python3.11, python3.12, python3.13, python3 and pyenv's versions;
each was run, since a shim on the PATH may exist but fail).
Install one, e.g. on Debian 12: sudo apt-get install python3 python3-venv
                  on Ubuntu 24.04: sudo apt-get install python3 python3-venv
or name one: make test PYTHON=/path/to/python3.12
EOF
    exit 1
}

# Debian/Ubuntu split the venv module (and ensurepip) out of python3.X into python3.X-venv.
make_venv() {
    python=$1 venv=$2
    if "$python" -m venv "$venv" >/dev/null 2>&1; then
        return 0
    fi
    rm -rf "$venv"
    minor=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
    package="python$minor-venv"
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "$python cannot make a virtual environment (no venv/ensurepip module); installing $package"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package" >/dev/null
        "$python" -m venv "$venv"
    else
        echo "$python cannot make a virtual environment: its venv/ensurepip module is missing." >&2
        echo "Install it: sudo apt-get install $package   (then run make again)" >&2
        exit 1
    fi
}

venv() {
    settle_venv "$@"
    described=$(.venv/bin/python -c "$DESCRIBE")
    [ "$(cat .venv/python.txt 2>/dev/null || true)" = "$described" ] || echo "$described" > .venv/python.txt
}

settle_venv() {
    python=$1 origin=$2 venv=.venv
    if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "$PROBE" >/dev/null 2>&1; then
        case $origin in
            "command line"|environment) ;;
            *) return 0 ;;  # keep the environment already made
        esac
        if [ "$("$venv/bin/python" -c "$DESCRIBE")" = "$("$python" -c "$DESCRIBE" 2>/dev/null || true)" ]; then
            return 0
        fi
        echo "$venv was made with $("$venv/bin/python" -c "$DESCRIBE"); remaking it with $python"
    fi
    [ -n "$python" ] || none_found
    if ! "$python" -c "$PROBE" >/dev/null 2>&1; then
        echo "PYTHON=$python does not run, or is not Python $SUPPORTED:" >&2
        "$python" --version >&2 || true
        echo "Name another one (make test PYTHON=/path/to/python3.12), or leave PYTHON out to let make look." >&2
        exit 1
    fi
    rm -rf "$venv"
    make_venv "$python" "$venv"
    echo "$venv: Python $("$venv/bin/python" -c "$DESCRIBE")"
}

case ${1:-} in
    find) find_python ;;
    find-version) find_version "${2:?usage: sh tools/python.sh find-version 3.12}" ;;
    venv) venv "${2:-}" "${3:-file}" ;;
    *) echo "usage: sh tools/python.sh find | find-version X.Y | venv PYTHON ORIGIN" >&2; exit 2 ;;
esac
