# Stoneplay — the two commands a newcomer needs:
#   make play   install what is missing, build, serve the app and online play
#               (/ws) on http://127.0.0.1:8080
#   make test   install what is missing, run every check and test
# Everything else here is a piece of those two.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
export PATH := $(CURDIR)/.tools/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)

ADDRESS ?= 127.0.0.1
PORT ?= 8080

# Browser tests: cargo runs the wasm test binaries through our wrapper,
# which runs wasm-bindgen-test-runner in headless Chromium.
WASM_TEST_ENV := CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=$(CURDIR)/.ci/wasm-test-runner \
                 CHROMEDRIVER=/usr/bin/chromedriver WASM_BINDGEN_TEST_TIMEOUT=120

.PHONY: play test setup dist check fmt-check clippy test-native test-browser test-e2e perft bench bench-wasm bench-load bench-server server-bin screenshots

# The app (dist/) and the online-play server (/ws) on one port; games are
# kept in $(DATA) and survive a restart. Ctrl-C stops it (clocks are saved).
DATA ?= data
play: dist
	cargo build --release --features server --bin server
	@echo "Stoneplay: open http://$(ADDRESS):$(PORT)/ (online play on ws://$(ADDRESS):$(PORT)/ws, games kept in $(DATA)/)"
	./target/release/server --addr $(ADDRESS):$(PORT) --data $(DATA) --static dist

test: setup check test-native test-browser test-e2e
	@echo "make test: all checks and tests passed"

setup:
	@bash .ci/setup

dist: setup
	trunk build --release
	@echo "dist/ is ready to copy to any static host"

check: fmt-check clippy

fmt-check:
	cargo fmt --all --check

clippy:
	cargo clippy --all-targets -- -D warnings
	cargo clippy --all-targets --all-features -- -D warnings
	cargo clippy --all-targets --target wasm32-unknown-unknown -- -D warnings

# The rules, engine and protocol tests, then the online server's tests
# (library unit tests and tests/server_*.rs with the `server` feature; the
# other test files do not change with it, so they are not built twice).
test-native:
	cargo test --release
	cargo test --release --features server --lib --test 'server_*'

test-browser:
	$(WASM_TEST_ENV) cargo test --target wasm32-unknown-unknown --test browser

# The online tests start the real server binary (tests/e2e/online.test.mjs).
test-e2e: dist server-bin
	node --test tests/e2e/

server-bin:
	cargo build --release --features server --bin server

# perft from the start position, native release build: make perft GAME=ataxx DEPTH=6
GAME ?= ataxx
DEPTH ?= 6
perft:
	cargo run --release --bin engine -- perft $(GAME) $(DEPTH)

# Search speed, native release build: one line per game, then the total.
bench:
	cargo run --release --bin engine -- bench

# The same bench natively and inside the AI worker in headless Chromium,
# with the wasm/native ratio.
bench-wasm: dist
	cargo build --release --bin engine
	node tests/e2e/bench.mjs

# The load budget: bytes of the first visit, gzip size of the wasm, time to
# an interactive board in headless Chromium.
bench-load: dist
	node tests/e2e/load-bench.mjs

# Load benchmark for the online server: GAMES concurrent games of random
# legal moves over loopback against the real server binary; prints moves/s,
# move round-trip latency and the server's memory.
GAMES ?= 1000
bench-server:
	cargo build --release --features server --bin server --bin server-bench
	./target/release/server-bench --games $(GAMES)

# Screenshots of every game and of online play at desktop and phone sizes,
# light and dark, and of the main screens in English and Marathi.
SHOTS ?= /tmp/stoneplay-shots
screenshots: dist server-bin
	mkdir -p $(SHOTS)
	node tests/e2e/screenshots.mjs $(SHOTS)
	node tests/e2e/screenshots-languages.mjs $(SHOTS) en mr
	node tests/e2e/online-screenshots.mjs $(SHOTS)
