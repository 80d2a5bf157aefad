# The two set-up commands of the README. Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test boundscheck lint bench clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e ".[dev]"
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/powerlab run power --players 4 --strategy counter --strategy bluffer --strategy honest --strategy random \
		--rotate-seats --games 400000 --seed 2026 --out out/demo
	$(BIN)/powerlab report out/demo -o out/demo/report.pdf
	@echo "Demo report written to out/demo/report.pdf"

# Each game's kernels compiled first, a process per core, then one pytest worker per core
# (pytest-xdist), tests handed out by work stealing, loading the kernels from numba's cache.
# Compiled by the tests instead, two workers compiled the same kernel at once (POWER's game, 150 s
# on each core). On a fresh clone with 2 quiet cores: about 6 minutes of compile and 12-15 of
# pytest (docs/performance.md, "Where a designer waits").
test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/powerlab warmup
	$(BIN)/python -m pytest -n auto --dist worksteal

# The whole suite with numba's bounds checks on: a kernel read past an array's end fails as an
# IndexError instead of making games depend on stray memory. Compiled first and run as `make test`
# is, in a cache folder of its own: 18 minutes on 2 cores, cold (d28efa6: 6 of warm-up, 12 of
# pytest); one pytest process alone, compiling as it went, was on pace for over two hours.
boundscheck: $(STAMP)
	NUMBA_BOUNDSCHECK=1 $(BIN)/powerlab warmup
	NUMBA_BOUNDSCHECK=1 $(BIN)/python -m pytest -n auto --dist worksteal

lint: $(STAMP)
	$(BIN)/ruff check . && $(BIN)/ruff format --check .

bench: $(STAMP)
	$(BIN)/powerlab bench

clean:
	rm -rf out
