# custom-gradients-faq: every target sets up what it needs, and does nothing twice.
#   make serve    set up and serve the site with live reload (English at /, Russian at /ru/)
#   make test     set up, run ruff (check, format) and every test (snippets, pages, strict build, browser)
#   make format   apply ruff's fixes and formatting to snippets/, hooks/, tools/, tests/
#   make build    strict build into site/
#   make outputs  regenerate kept snippet outputs and the diagrams drawn from them (ONLY=snippets/<chapter or file>: just those)
#   make bench    measure build, test and page figures
#   make lock     re-resolve requirements.lock from pyproject.toml (hash-pinned)
#   make publish  strict build, then push the site to the gh-pages branch of REMOTE (remote name, path or URL; default origin)
#   make linkcheck  strict build, then check every external link of the site (needs the network; not in make test)
#   make versions  run every snippet alone under each TensorFlow of versions/releases.yml, write versions/results/
#                  (ONLY=snippets/<chapter or file>: just those entries; RELEASES=2.15.1,2.21.0: just those releases)
#   make versions-check   the same, writing nothing: fails with a diff where a result differs from the committed one
#   make versions-newest  the newest TensorFlow on PyPI (unpinned): fails with a diff where an output changed
#   make versions-lock    re-resolve versions/locks/ (each release as `pip install tensorflow-cpu==X` resolves it)

# Python 3.11, 3.12 or 3.13: the first that runs (tools/python.sh find), or the one named by PYTHON=.
ifeq ($(origin PYTHON),undefined)
PYTHON := $(shell sh tools/python.sh find)
endif
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
NODE_STAMP := node_modules/.installed
export NO_MKDOCS_2_WARNING := 1
export TF_CPP_MIN_LOG_LEVEL := 3
export PYTHONDONTWRITEBYTECODE := 1

# Debian packages the tests need: the browser and the spell checker with its dictionaries.
SYSTEM_PACKAGES := chromium hunspell hunspell-ru hunspell-en-us
SYSTEM_FILES    := /usr/bin/chromium /usr/bin/hunspell /usr/share/hunspell/ru_RU.dic /usr/share/hunspell/en_US.dic

.PHONY: help venv system-deps serve build test format outputs sync-checker bench lock clean publish linkcheck FORCE
.PHONY: versions versions-check versions-newest versions-lock

help:
	@sed -n '2,15p' Makefile

# .venv/python.txt changes exactly when .venv is (re)made with another interpreter; then everything is reinstalled.
$(VENV)/python.txt: FORCE
	@sh tools/python.sh venv "$(PYTHON)" "$(origin PYTHON)"

$(STAMP): requirements.lock requirements-bootstrap.lock $(VENV)/python.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes -r requirements-bootstrap.lock
	$(BIN)/uv pip sync --quiet --compile-bytecode --python $(BIN)/python --require-hashes requirements.lock
	@touch $@

venv: $(STAMP)

system-deps:
	@missing=""; for f in $(SYSTEM_FILES); do test -e $$f || missing="$$missing $$f"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "Installing Debian packages: $(SYSTEM_PACKAGES)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(SYSTEM_PACKAGES) >/dev/null; \
	  else \
	    echo "Missing:$$missing"; \
	    echo "Install the Debian/Ubuntu packages: sudo apt-get install $(SYSTEM_PACKAGES)"; exit 1; \
	  fi; \
	fi

serve: $(STAMP)
	$(BIN)/mkdocs serve --dev-addr 127.0.0.1:8000

build: $(STAMP)
	$(BIN)/mkdocs build --strict --site-dir site

# Python that ruff checks and formats (snippets/ at 80 columns, see snippets/ruff.toml).
LINTED := snippets hooks tools tests

test: $(STAMP) system-deps $(NODE_STAMP)
	@$(BIN)/ruff check --quiet $(LINTED) || { echo "ruff check failed: fix the lines above (\`make format\` fixes the fixable ones)"; exit 1; }
	@$(BIN)/ruff format --check --quiet $(LINTED) || { echo "not formatted: run \`make format\` (a reformatted snippet: then \`make outputs ONLY=<it>\`)"; exit 1; }
	$(BIN)/python -m pytest

format: $(STAMP)
	$(BIN)/ruff check --fix --quiet $(LINTED); $(BIN)/ruff format --quiet $(LINTED)

outputs: $(STAMP)
	$(BIN)/python -m tests.harness --update $(ONLY)
	$(BIN)/python -m tools.diagrams $(if $(ONLY),--only $(ONLY))  # the SVG diagrams drawn from those outputs (all without ONLY)

# The gradient check is written once (snippets/checking_gradients/11_gradient_check.py, section check); every
# recipe snippet holds a byte-identical copy, so it runs alone. This copies it into each of them.
sync-checker: $(STAMP)
	$(BIN)/python -m tests.checking_gradients.checker

# From the npm registry (pinned in package-lock.json), into node_modules/: axe-core and the math font for the
# tests, Lighthouse for `make bench`. Nothing is fetched while the tests run.
$(NODE_STAMP): package.json package-lock.json
	@command -v npm >/dev/null || { if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null; \
	  else echo "Install Node.js 18+ and npm (sudo apt-get install nodejs npm)"; exit 1; fi; }
	npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
	@touch $@

bench: $(STAMP) system-deps $(NODE_STAMP)
	$(BIN)/python -m tests.bench

lock: $(STAMP)
	$(BIN)/uv pip compile pyproject.toml --universal --python-version 3.11 --generate-hashes --quiet -o requirements.lock
	@echo "requirements.lock updated; run 'make venv' to install it"

REMOTE ?= origin
publish: $(STAMP)
	$(BIN)/python -m tools.publish --remote $(REMOTE) $(if $(PUBLISH_GIT_DIR),--git-dir $(PUBLISH_GIT_DIR))

linkcheck: build
	$(BIN)/python -m tools.linkcheck site

# Each TensorFlow release of versions/releases.yml in a throwaway environment under .cache/versions/ (made with
# uv from versions/locks/, deleted after its run); every snippet copied alone into an empty folder and run there.
# Not part of `make test` (minutes per release); `make test` checks the committed results (tests/test_versions.py).
VERSIONS_ARGS = $(if $(RELEASES),--releases $(RELEASES)) $(ONLY)

versions: $(STAMP)
	$(BIN)/python -m tools.versions $(VERSIONS_ARGS)

versions-check: $(STAMP)
	$(BIN)/python -m tools.versions --check $(VERSIONS_ARGS)

versions-newest: $(STAMP)
	$(BIN)/python -m tools.versions --newest $(ONLY)

versions-lock: $(STAMP)
	$(BIN)/python -m tools.versions.lock $(if $(RELEASES),--releases $(RELEASES))

clean:
	rm -rf site .pytest_cache .cache
