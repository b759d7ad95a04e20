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

.PHONY: play cluster test setup dist check fmt-check clippy test-native test-browser test-e2e perft bench bench-wasm bench-load bench-server server-bin screenshots baseline duel books weights net

# The app (dist/) and the online-play server (/ws) on one port; games are
# kept in $(DATA) and survive a restart. Ctrl-C stops it (clocks are saved).
DATA ?= data
play: dist
	cargo build --release --features cluster --bin server
	@echo "Stoneplay: open http://$(ADDRESS):$(PORT)/ (online play on ws://$(ADDRESS):$(PORT)/ws, games kept in $(DATA)/)"
	./target/release/server --addr $(ADDRESS):$(PORT) --data $(DATA) --static dist

# A local cluster on loopback: PostgreSQL and Redis from the machine's
# packages, NODES=3 server nodes on ports 8081.. and an nginx front on
# $(PORT) that spreads connections over them (docs/operations.md, "Scaling
# past one machine"). Data in cluster-data/; Ctrl-C stops all (the nodes cleanly).
NODES ?= 3
cluster: dist
	cargo build --release --features cluster --bin server
	NODES=$(NODES) FRONT_PORT=$(PORT) .ci/cluster run cluster-data

test: setup check test-native test-browser test-e2e
	@echo "make test: all checks and tests passed"

setup:
	@bash .ci/setup

dist: setup
	trunk build --release
	# Precompressed copies for the server (and any static host that serves
	# them): .gz always, .br when the brotli tool is installed (.ci/setup
	# installs it).
	gzip -k -9 -f dist/*.wasm dist/*.js dist/pkg/*.wasm dist/pkg/*.js dist/*.css dist/lang/*.txt
	if command -v brotli >/dev/null; then brotli -k -f -q 11 dist/*.wasm dist/*.js dist/pkg/*.wasm dist/pkg/*.js dist/*.css dist/lang/*.txt; fi
	@echo "dist/ is ready to copy to any static host"

check: fmt-check clippy

fmt-check:
	cargo fmt --all --check

clippy:
	cargo clippy --all-targets -- -D warnings
	cargo clippy --all-targets --all-features -- -D warnings
	cargo clippy --all-targets --target wasm32-unknown-unknown -- -D warnings

# The rules, engine and protocol tests, then the online server's tests
# (library unit tests and tests/server_*.rs with the `cluster` feature,
# which implies `server`: the single-node tests run as before, and
# server_cluster.rs starts its own PostgreSQL and Redis; the other test
# files do not change with it, so they are not built twice).
test-native:
	cargo test --profile ci
	cargo test --profile ci --features cluster --lib --test 'server_*'

# The browser tests (tests/browser.rs) the way docs/toolchain.md tells users
# to run them: wasm-pack in headless Chromium. wasm-bindgen-test-runner takes
# Chromium's flags from webdriver.json in the crate root, copied from .ci/
# (ignored by git): as root Chromium needs --no-sandbox.
test-browser:
	cp .ci/webdriver.json webdriver.json
	WASM_BINDGEN_TEST_TIMEOUT=120 wasm-pack test --headless --chrome --chromedriver /usr/bin/chromedriver -- --test browser

# The online tests start the real server binary (tests/e2e/online.test.mjs);
# tests/e2e/cluster.test.mjs starts two of it as cluster nodes, on a
# PostgreSQL and Redis of its own (.ci/cluster services, free ports).
test-e2e: dist server-bin
	node --test tests/e2e/

# One release server for both: feature `cluster` implies `server`, and the
# binary is a single node on SQLite unless given --database/--bus.
server-bin:
	cargo build --release --features cluster --bin server

# perft from the start position, native release build: make perft GAME=ataxx DEPTH=6
GAME ?= ataxx
DEPTH ?= 6
perft:
	cargo run --release --bin engine -- perft $(GAME) $(DEPTH)

# The frozen baseline engine for duels: main at commit 6b285b7 (before the
# engine work of issue 12), exported with git archive and built on its own
# into target/baseline/engine (built once; delete target/baseline to redo).
BASELINE_COMMIT ?= 6b285b7
baseline: target/baseline/engine
target/baseline/engine:
	@git cat-file -e '$(BASELINE_COMMIT)^{commit}' || { echo "make baseline: commit $(BASELINE_COMMIT) is not in this clone (a shallow clone? run git fetch --unshallow)"; exit 1; }
	rm -rf target/baseline/src && mkdir -p target/baseline/src
	git archive $(BASELINE_COMMIT) | tar -x -C target/baseline/src
	cargo build --release --bin engine --manifest-path target/baseline/src/Cargo.toml --target-dir target/baseline/target
	cp target/baseline/target/release/engine $@

# This tree's engine against the baseline over UAI/UCI, colours swapped
# per opening, with the SPRT: make duel DUEL_GAME=mill TC=10+0.1 DUEL_GAMES=400
# Every game goes to target/duel-GAME.tsv. The engine under test is copied
# first, so a rebuild during the match does not change it.
DUEL_GAME ?= ataxx
TC ?= 10+0.1
DUEL_GAMES ?= 400
CONCURRENCY ?= 2
SPRT ?= elo0=0,elo1=5,alpha=0.05,beta=0.05
duel: baseline
	cargo build --release --bin engine
	cp target/release/engine target/duel-new-engine
	./target/duel-new-engine duel target/baseline/engine target/duel-new-engine --game $(DUEL_GAME) --tc $(TC) --games $(DUEL_GAMES) --book books/$(DUEL_GAME).txt --concurrency $(CONCURRENCY) --sprt $(SPRT) --out target/duel-$(DUEL_GAME).tsv

# The committed opening books (books/*.txt), made again from their seeds.
books:
	cargo build --release --bin engine
	./target/release/engine book ataxx --plies 4 --count 250 --depth 4 --margin 50 --seed 1 --out books/ataxx.txt
	./target/release/engine book mill --plies 4 --count 250 --depth 4 --margin 50 --seed 1 --out books/mill.txt
	./target/release/engine book stones --plies 4 --count 250 --depth 4 --margin 50 --seed 1 --out books/stones.txt

# The learned evaluations made again from nothing (docs/engine.md, "How
# the evaluation weights were made"). Territory Duel's pattern tables
# (src/ai/eval/ataxx-patterns.bin) in three generations: self-play with the
# hand-written evaluation, a first training, self-play with those weights,
# a second training on both, then twice as much self-play with the second
# weights and the final training on that alone. Stones!' stone tables
# (src/ai/eval/stones-tables.bin) in one: self-play with the hand-written
# evaluation, then training. The data files resume where they stop; every
# step is seeded, so the same engine makes the same files. About 2 hours
# on 2 cores. Not part of `make test`.
TRAIN := target/train
THREADS ?= $(shell nproc)
# --net none: Master plays with the pattern tables, not the network.
DATAGEN := datagen ataxx --positions 1200000 --nodes 5000 --random-plies 4 --threads $(THREADS) --net none
DATAGEN3 := datagen ataxx --positions 2400000 --nodes 5000 --random-plies 4 --threads $(THREADS) --net none
TRAINING := train ataxx --epochs 12 --lr 3 --lambda 0.5
STONES_DATAGEN := datagen stones --positions 400000 --nodes 5000 --random-plies 6 --threads $(THREADS)
MILL_DATAGEN := datagen mill --positions 300000 --nodes 5000 --random-plies 6 --threads $(THREADS)
weights:
	cargo build --release --bin engine
	mkdir -p $(TRAIN)
	./target/release/engine $(DATAGEN) --seed 1 --eval hand --out $(TRAIN)/ataxx-1.txt
	./target/release/engine $(TRAINING) --data $(TRAIN)/ataxx-1.txt --out $(TRAIN)/ataxx-1.bin
	./target/release/engine $(DATAGEN) --seed 2 --eval $(TRAIN)/ataxx-1.bin --out $(TRAIN)/ataxx-2.txt
	./target/release/engine $(TRAINING) --data $(TRAIN)/ataxx-1.txt,$(TRAIN)/ataxx-2.txt --out $(TRAIN)/ataxx-2.bin
	./target/release/engine $(DATAGEN3) --seed 3 --eval $(TRAIN)/ataxx-2.bin --out $(TRAIN)/ataxx-3.txt
	./target/release/engine $(TRAINING) --data $(TRAIN)/ataxx-3.txt --out src/ai/eval/ataxx-patterns.bin
	./target/release/engine $(STONES_DATAGEN) --seed 1 --eval hand --out $(TRAIN)/stones-1.txt
	./target/release/engine train stones --epochs 12 --lr 3 --lambda 0.5 --data $(TRAIN)/stones-1.txt --out src/ai/eval/stones-tables.bin
	./target/release/engine $(MILL_DATAGEN) --seed 1 --eval hand --out $(TRAIN)/mill-1.txt
	./target/release/engine train mill --prior 0.0001 --data $(TRAIN)/mill-1.txt --out src/ai/eval/mill-tables.bin
	# Mill's moving-phase mobility weights set by hand: +6 for the mover's
	# free neighbouring points, -6 for the opponent's (learned: -9 and +7;
	# docs/engine.md, "How the evaluation weights were made"). Little-endian i16s.
	printf '\006\000' | dd of=src/ai/eval/mill-tables.bin bs=1 seek=26 conv=notrunc status=none
	printf '\372\377' | dd of=src/ai/eval/mill-tables.bin bs=1 seek=70 conv=notrunc status=none

# Territory Duel's network (src/ai/eval/ataxx-nnue.bin; docs/engine.md,
# "Territory Duel's network"), five generations: self-play of the pattern
# tables at 5,000 nodes a move and a first window net trained on it; then
# self-play of that net and a second net trained on both sets; then three
# generations each of self-play with the last net and that net fine-tuned
# on the new data (`--init`; the fourth and fifth on the generation
# before's data too). One thread for the self-play of the nets, so the
# same file for any machine (the fifth's six runs are the six stopped runs
# of its day, to the positions they held). About 10 hours on 2 cores. The committed net's first generation was the
# earlier 256-unit net, and each generation's data came from the engine of
# its day (docs/engine.md), so a run of this recipe gives a file of its
# own. Not part of `make test`.
NET_DATAGEN := datagen ataxx --nodes 5000 --random-plies 8
NET_TRAINING := nnue-train --inputs windows --tied yes --hidden 128 --lambda 0.5 --threads 1 --seed 1
NET_FINE_TUNING := --epochs 4 --lr 0.001 --validation 0.05
net:
	cargo build --release --bin engine
	mkdir -p $(TRAIN)
	./target/release/engine $(NET_DATAGEN) --positions 2460911 --seed 202 --threads $(THREADS) --net none --out $(TRAIN)/ataxx-net-1.txt
	./target/release/engine $(NET_TRAINING) --epochs 6 --data $(TRAIN)/ataxx-net-1.txt --out $(TRAIN)/ataxx-net-1.bin
	./target/release/engine $(NET_DATAGEN) --positions 483688 --seed 303 --threads 1 --net $(TRAIN)/ataxx-net-1.bin --out $(TRAIN)/ataxx-net-2.txt
	./target/release/engine $(NET_TRAINING) --epochs 8 --data $(TRAIN)/ataxx-net-1.txt,$(TRAIN)/ataxx-net-2.txt --out $(TRAIN)/ataxx-net-2.bin
	./target/release/engine $(NET_DATAGEN) --positions 1291446 --seed 404 --threads 1 --net $(TRAIN)/ataxx-net-2.bin --out $(TRAIN)/ataxx-net-3.txt
	./target/release/engine $(NET_TRAINING) $(NET_FINE_TUNING) --init $(TRAIN)/ataxx-net-2.bin --data $(TRAIN)/ataxx-net-3.txt --out $(TRAIN)/ataxx-net-3.bin
	./target/release/engine $(NET_DATAGEN) --positions 1433321 --seed 505 --threads 1 --net $(TRAIN)/ataxx-net-3.bin --out $(TRAIN)/ataxx-net-4.txt
	./target/release/engine $(NET_DATAGEN) --positions 143965 --seed 606 --threads 1 --net $(TRAIN)/ataxx-net-3.bin --out $(TRAIN)/ataxx-net-4b.txt
	./target/release/engine $(NET_TRAINING) $(NET_FINE_TUNING) --init $(TRAIN)/ataxx-net-3.bin --data $(TRAIN)/ataxx-net-3.txt,$(TRAIN)/ataxx-net-4.txt,$(TRAIN)/ataxx-net-4b.txt --out $(TRAIN)/ataxx-net-4.bin
	./target/release/engine $(NET_DATAGEN) --positions 28621 --seed 707 --threads 1 --net $(TRAIN)/ataxx-net-4.bin --out $(TRAIN)/ataxx-net-5a.txt
	./target/release/engine $(NET_DATAGEN) --positions 28836 --seed 808 --threads 1 --net $(TRAIN)/ataxx-net-4.bin --out $(TRAIN)/ataxx-net-5b.txt
	./target/release/engine $(NET_DATAGEN) --positions 132451 --seed 717 --threads 1 --net $(TRAIN)/ataxx-net-4.bin --out $(TRAIN)/ataxx-net-5c.txt
	./target/release/engine $(NET_DATAGEN) --positions 1070406 --seed 818 --threads 1 --net $(TRAIN)/ataxx-net-4.bin --out $(TRAIN)/ataxx-net-5d.txt
	./target/release/engine $(NET_DATAGEN) --positions 1558254 --seed 909 --threads 1 --net $(TRAIN)/ataxx-net-4.bin --out $(TRAIN)/ataxx-net-5e.txt
	./target/release/engine $(NET_DATAGEN) --positions 1292161 --seed 919 --threads 1 --net $(TRAIN)/ataxx-net-4.bin --out $(TRAIN)/ataxx-net-5f.txt
	./target/release/engine $(NET_TRAINING) $(NET_FINE_TUNING) --init $(TRAIN)/ataxx-net-4.bin --data $(TRAIN)/ataxx-net-4.txt,$(TRAIN)/ataxx-net-4b.txt,$(TRAIN)/ataxx-net-5a.txt,$(TRAIN)/ataxx-net-5b.txt,$(TRAIN)/ataxx-net-5c.txt,$(TRAIN)/ataxx-net-5d.txt,$(TRAIN)/ataxx-net-5e.txt,$(TRAIN)/ataxx-net-5f.txt --out src/ai/eval/ataxx-nnue.bin

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
# With NODES=N on the command line (make bench-server NODES=3): N cluster
# nodes on a PostgreSQL and Redis started for the run (.ci/cluster
# services), the games spread over them.
# BENCH adds options: BENCH=--rated (rated games between named players),
# BENCH='--lobby-churn 8' (games while the lobby churns); see
# src/bin/server-bench/community.rs.
GAMES ?= 1000
BENCH ?=
bench-server:
ifneq ($(origin NODES),command line)
	cargo build --release --features cluster --bin server --bin server-bench
	./target/release/server-bench --games $(GAMES) $(BENCH)
else
	cargo build --release --features cluster --bin server --bin server-bench
	# A fresh database each run: the named players of --rated from a run
	# before would refuse this run's names.
	rm -rf target/bench-cluster
	urls=$$(.ci/cluster services target/bench-cluster); status=0; \
	./target/release/server-bench --games $(GAMES) --nodes $(NODES) $(BENCH) \
	  --database "$$(sed -n 1p <<<"$$urls")" --bus "$$(sed -n 2p <<<"$$urls")" || status=$$?; \
	.ci/cluster stop target/bench-cluster; exit $$status
endif

# Screenshots of every game and of online play at desktop and phone sizes,
# light and dark, and of the main screens in English and Marathi.
SHOTS ?= /tmp/stoneplay-shots
screenshots: dist server-bin
	mkdir -p $(SHOTS)
	node tests/e2e/screenshots.mjs $(SHOTS)
	node tests/e2e/screenshots-languages.mjs $(SHOTS) en mr
	node tests/e2e/online-screenshots.mjs $(SHOTS)
