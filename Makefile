# Telegraph's verbs. `make help` lists them. Every verb that builds first makes sure the machine has what the
# project needs (`make deps`, under a second when nothing is missing).
SHELL := /bin/bash
SWIFT ?= swift
# Fail the build when a target imports a module outside its dependency closure (the lint checks direct deps).
BUILD_FLAGS := --explicit-target-dependency-import-check error
# Executables: the apps, and the lower-kebab tools in BuildTools.
APPS := $(notdir $(wildcard Apps/*)) $(notdir $(wildcard BuildTools/*-*))
TEST_TARGETS := $(patsubst Tests/%Tests,%,$(wildcard Tests/*Tests))
# A test run still going after TEST_TIMEOUT seconds is killed and fails, naming itself; one that leaves a process
# running (a server, a tool, python) fails too (BuildTools/scripts/watchdog.py).
TEST_TIMEOUT ?= 2400
WATCHDOG = python3 BuildTools/scripts/watchdog.py --limit $(TEST_TIMEOUT) --name
# Test targets whose tests run servers, sockets and clients against timeouts. `make test` runs them in a second
# process of their own: swift-testing queues every test body at once on the two-thread pool, so in one process a
# test's continuation after a socket read waits behind all the CPU-bound unit tests queued before it (a full run
# reported no test ended for its first 150 s), and a server's frame or idle timeout fired meanwhile.
LIVE_TESTS := NetworkTests MTProtoServerTests MTProtoTransportTests MTProxyRelayTests TelegramCoreTests MediaResourcesTests \
	ChatRenderTests
# The `tg` process tests (tg-server, tg, Telethon, tmux and make run's script as processes) come last, alone: beside
# the live tests they are many processes on two cores, and their deadlines were missed in loaded runs.
CLIENT_TESTS := TelegramClientTests
LIVE_FILTER := ^($(subst $(eval) ,|,$(strip $(LIVE_TESTS))))\.
CLIENT_FILTER := ^($(subst $(eval) ,|,$(strip $(CLIENT_TESTS))))\.

.DEFAULT_GOAL := help
.PHONY: help run test build lint format readme-tables repro repro-verify bench bench-check deps clean tsan notification-service-release $(APPS)

help: ## List the verbs.
	@echo "Telegraph — make verbs"
	@{ grep -hE '^[a-zA-Z_%<>-]+:.*## ' $(MAKEFILE_LIST) | grep -v '^test-%' | sed -E 's/^([^:]+):.*## (.*)/  \1|\2/'; \
	  echo "  test-<Target>|one module's tests, e.g. make test-Buffers; targets: $(TEST_TARGETS)"; \
	  echo "  <app>|one executable and only its closure: $(APPS)"; } | column -t -s '|'

deps: ## Install what the project needs (apt packages, SQLCipher 4, Telethon venv); fast when all is present.
	@bash BuildTools/scripts/install-deps.sh

build: deps ## Build every module and app (debug), with the import-closure check.
	$(SWIFT) build $(BUILD_FLAGS)

run: build ## Build everything, then play a conversation between tg clients on a local tg-server (BuildTools/scripts/run-tg.sh).
	@bash BuildTools/scripts/run-tg.sh

test: deps ## Build, check boundaries, and run every module's tests.
	$(SWIFT) build $(BUILD_FLAGS) --build-tests
	@$(MAKE) --no-print-directory lint-only
	$(WATCHDOG) 'swift test (unit)' -- $(SWIFT) test --skip-build --skip '$(LIVE_FILTER)' --skip '$(CLIENT_FILTER)'
	$(WATCHDOG) 'swift test (live: $(LIVE_TESTS))' -- $(SWIFT) test --skip-build --filter '$(LIVE_FILTER)'
	$(WATCHDOG) 'swift test (client processes: $(CLIENT_TESTS))' -- $(SWIFT) test --skip-build --filter '$(CLIENT_FILTER)'

test-%: deps
	@test -d Tests/$*Tests || { echo "make: no tests for '$*' (known: $(TEST_TARGETS))"; exit 2; }
	$(SWIFT) build $(BUILD_FLAGS) --build-tests
	$(WATCHDOG) 'swift test --filter $*Tests' -- $(SWIFT) test --skip-build --filter '^$*Tests\.'

lint: deps ## Check module boundaries (direct imports, app subsets, C modules only in their wrappers), the README tables and the format of every non-test source (.swift-format: 120 columns).
	@$(MAKE) --no-print-directory lint-only

# The sources `swift format lint` checks: everything but the tests (`make format` formats those too).
FORMAT_CHECKED := Package.swift Modules Apps BuildTools Benchmarks/Sources

lint-only:
	@$(SWIFT) build --product boundary-check -q
	@$$($(SWIFT) build --show-bin-path)/boundary-check --package-path .
	@python3 BuildTools/scripts/readme_tables.py --check README.md Package.swift
	@$(SWIFT) format lint --strict --recursive --parallel $(FORMAT_CHECKED) \
		|| { echo "lint: run 'make format' (swift-format, .swift-format) and commit the result"; exit 1; }

readme-tables: ## Write the README's area and module tables (areas, who imports what) from Package.swift.
	@python3 BuildTools/scripts/readme_tables.py README.md Package.swift

format: ## Format every Swift file in place with swift-format (.swift-format).
	$(SWIFT) format --in-place --recursive --parallel Package.swift Modules Apps Tests BuildTools Benchmarks/Sources

tsan: deps ## Run the tests under ThreadSanitizer.
	$(SWIFT) test --sanitize=thread $(if $(FILTER),--filter '$(FILTER)')

$(APPS): deps
	$(SWIFT) build $(BUILD_FLAGS) --product $@

notification-service-release: deps ## notification-service as shipped: release, Swift runtime static, no PIE (.build/notification-service/static-no-pie).
	$(SWIFT) build -c release --product notification-service --scratch-path .build/notification-service/static-no-pie \
		--static-swift-stdlib -Xlinker -no-pie
	@echo "built .build/notification-service/static-no-pie/release/notification-service"

repro: deps ## Build every executable (release) twice from two paths; compare SHA-256; write .repro/hashes.txt.
	@bash BuildTools/scripts/repro.sh build

repro-verify: deps ## Rebuild and check against a published hash list: make repro-verify HASHES=file.
	@test -n "$(HASHES)" || { echo "make: give the hash list: make repro-verify HASHES=path/to/hashes.txt"; exit 2; }
	@bash BuildTools/scripts/repro.sh verify "$(HASHES)"

bench: deps ## Run the benchmarks (Benchmarks/ package, release) and print their ratio tables.
	@bash BuildTools/scripts/bench.sh $(BENCH)

bench-check: deps ## Run each interleaved benchmark once (BENCH=name for one) and fail if the two sides of a comparison did different work.
	@bash BuildTools/scripts/bench-check.sh $(BENCH)

clean: ## Remove build output (.build, Benchmarks/.build, .repro).
	rm -rf .build Benchmarks/.build .repro

# Network: the TL toolchain.
.PHONY: tl tl-check fuzz fuzz-all
tl: ## Regenerate TelegramApi, MTProtoApi and SecretApi from Schemas/tl with tl-gen (commit the GENERATED-* result).
	$(SWIFT) build --product tl-gen -q
	$$($(SWIFT) build --show-bin-path)/tl-gen Schemas/tl/api.tl Modules/Network/TelegramApi Api
	$$($(SWIFT) build --show-bin-path)/tl-gen Schemas/tl/mtproto.tl Modules/Network/MTProtoApi MTProto
	$$($(SWIFT) build --show-bin-path)/tl-gen Schemas/tl/secret_api.tl Modules/Network/SecretApi SecretApi

tl-check: ## Fail when the committed GENERATED-* files differ from what tl-gen produces.
	$(SWIFT) build --product tl-gen -q
	$$($(SWIFT) build --show-bin-path)/tl-gen Schemas/tl/api.tl Modules/Network/TelegramApi Api --check
	$$($(SWIFT) build --show-bin-path)/tl-gen Schemas/tl/mtproto.tl Modules/Network/MTProtoApi MTProto --check
	$$($(SWIFT) build --show-bin-path)/tl-gen Schemas/tl/secret_api.tl Modules/Network/SecretApi SecretApi --check
# Media (MediaPipeline, StickerDecode): sticker-tool and voice-tool on inputs made on the spot.
.PHONY: media-demo
media-demo: deps ## Run sticker-tool and voice-tool on fresh speech, tones and stickers (outputs in .build/media-demo).
	@bash BuildTools/scripts/media-demo.sh

# Signal area (SwiftSignalKit, SignalTesting).
.PHONY: tsan-signal
tsan-signal: deps ## Run the Signal area's tests under ThreadSanitizer (same as make tsan FILTER=…).
	$(SWIFT) test --sanitize=thread --filter 'SwiftSignalKitTests|SignalTestingTests'

# Postbox.
.PHONY: chat-png
chat-png: deps ## Draw a chat made through tg-server as a 1080×2400 PNG (chatrender-bench, release); prints its path under .build/chat-png.
	cd Benchmarks && $(SWIFT) build -c release --product chatrender-bench -q
	@mkdir -p .build/chat-png
	@"$$(cd Benchmarks && $(SWIFT) build -c release --show-bin-path)/chatrender-bench" --runs 0 \
		--png "$(CURDIR)/.build/chat-png/chat.png" --top-png "$(CURDIR)/.build/chat-png/chat-top.png"

.PHONY: bench-postbox postbox-check
bench-postbox: deps ## Postbox benchmarks: builds the GRDB peer (its own binary), runs postbox-bench with ratios.
	cd Benchmarks && $(SWIFT) build -c release --product postbox-grdb-bench -q
	@bash BuildTools/scripts/bench.sh postbox-bench

postbox-check: deps ## Postbox acceptance by hand: import-jsonl, search "pho" finds "phở", a wrong key exits 2.
	@bash BuildTools/scripts/postbox-check.sh

fuzz: deps ## Every fuzz harness under libFuzzer + ASan (FUZZ_SECONDS=60 each, or FUZZ_RUNS=N; HARNESS=name for one).
	@bash BuildTools/scripts/fuzz.sh $(if $(FUZZ_RUNS),--runs $(FUZZ_RUNS),--seconds $(or $(FUZZ_SECONDS),60)) $(HARNESS)

fuzz-all: deps ## Recorded run of every harness (FUZZ_RUNS=1000000 or FUZZ_MAX_SECONDS=3600 each); writes the table in Fuzz/README.md.
	@FUZZ_RUNS=$(or $(FUZZ_RUNS),1000000) FUZZ_MAX_SECONDS=$(or $(FUZZ_MAX_SECONDS),3600) bash BuildTools/scripts/fuzz-all.sh $(HARNESS)

# Core: the simulation of many accounts and the server (BuildTools/Simulation).
.PHONY: simulate
simulate: deps ## Simulation seeds (SEEDS=100 from FIRST=1, JOBS at a time (one per core), or SEED=n to replay one with its trace; FAIL_FAST=1 stops at the first failure; TRACE_TASKS=1 records the order the accounts' queues ran their tasks in).
	$(SWIFT) build --product simulate -q
	$$($(SWIFT) build --show-bin-path)/simulate $(if $(SEED),--seed $(SEED),--seeds $(or $(SEEDS),100) --first $(or $(FIRST),1) $(if $(JOBS),--jobs $(JOBS))) $(if $(FAIL_FAST),--fail-fast) $(if $(TRACE_TASKS),--trace-tasks)

# Postbox live views.
.PHONY: bench-postbox-views
bench-postbox-views: deps ## Live-view write-to-emit latency: postbox-views-bench and its GRDB ValueObservation peer, one table.
	@bash BuildTools/scripts/bench.sh postbox-views-bench
