# boardpress: one GNU Makefile for the program, the site, the tests and the benches.
# `make site` and `make test` are the two commands a user runs; both install
# missing Debian packages first (README "Two commands").

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := all
MAKEFLAGS += --no-builtin-rules

CC ?= cc
ifeq ($(origin CC),default)
CC := cc
endif
BUILD ?= build
ASAN_BUILD := $(BUILD)/asan
OPT ?= -O2

# ---------------------------------------------------------------- packages
# pkg-config name : Debian package, then command-or-file : Debian package.
# Debian's libcmark-gfm-extensions-dev ships no .pc file: its header is checked.
BUILD_PKGS := libcmark-gfm:libcmark-gfm-dev yaml-0.1:libyaml-dev cairo:libcairo2-dev libpng:libpng-dev \
              fontconfig:libfontconfig-dev cmocka:libcmocka-dev libmicrohttpd:libmicrohttpd-dev
BUILD_CMDS := pkg-config:pkg-config /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf:fonts-dejavu-core \
              /usr/include/cmark-gfm-core-extensions.h:libcmark-gfm-extensions-dev \
              clang-14:clang-14 wasm-ld-14:lld-14 wasm-opt:binaryen
TEST_CMDS := clang:clang /usr/lib/python3/dist-packages/feedparser/__init__.py:python3-feedparser /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a:libclang-rt-14-dev \
             xmllint:libxml2-utils tidy:tidy valgrind:valgrind node:nodejs npm:npm \
             /usr/bin/chromium:chromium python3:python3 strace:strace \
             /usr/lib/python3/dist-packages/yaml/__init__.py:python3-yaml
# SimPy 3 (python3-simpy3) for Debian's /usr/bin/python3; python3-simpy is SimPy 2.3.
BENCH_CMDS := hugo:hugo /usr/lib/python3/dist-packages/simpy/core.py:python3-simpy3 \
              /usr/bin/python3:python3 /usr/bin/time:time node:nodejs npm:npm /usr/bin/chromium:chromium

# $(call ensure,PKGCONFIG:DEB ...,CMD-OR-FILE:DEB ...,WHY): install what is missing.
define ensure
missing=""; \
command -v pkg-config >/dev/null 2>&1 || missing="pkg-config"; \
for p in $(1); do pc=$${p%%:*}; deb=$${p#*:}; \
  pkg-config --exists "$$pc" 2>/dev/null || missing="$$missing $$deb"; done; \
for c in $(2); do what=$${c%%:*}; deb=$${c#*:}; \
  command -v "$$what" >/dev/null 2>&1 || [ -e "$$what" ] || missing="$$missing $$deb"; done; \
missing=$$(echo $$missing | tr ' ' '\n' | sort -u | tr '\n' ' '); \
if [ -n "$${missing// /}" ]; then \
  echo "boardpress: installing $$missing(needed $(3); missing on this machine)"; \
  sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
  export DEBIAN_FRONTEND=noninteractive; \
  $$sudo apt-get install -y $$missing || { $$sudo apt-get update && $$sudo apt-get install -y $$missing; }; \
fi
endef

.PHONY: deps test-deps bench-deps
deps:
	@$(call ensure,$(BUILD_PKGS),$(BUILD_CMDS),to build boardpress)
test-deps: deps
	@$(call ensure,,$(TEST_CMDS),by make test)
	@bash tests/browser/ready.sh
bench-deps: deps
	@$(call ensure,,$(BENCH_CMDS),by make bench)
	@bash tests/browser/ready.sh

# ---------------------------------------------------------------- flags
# Quiet by default ("CC file"); `make V=1` shows whole commands.
ifeq ($(V),1)
Q :=
say = @true
else
Q := @
say = @echo "  $(1) $(2)"
endif

WARN := -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wstrict-prototypes \
        -Wmissing-prototypes -Wvla -Wformat=2 -Werror
PKG_CFLAGS = $(shell pkg-config --cflags libcmark-gfm yaml-0.1 cairo libpng fontconfig libmicrohttpd 2>/dev/null)
PKG_LIBS = -pthread -lcmark-gfm-extensions $(shell pkg-config --libs libcmark-gfm yaml-0.1 cairo libpng fontconfig libmicrohttpd 2>/dev/null) -lm
CMOCKA_CFLAGS = $(shell pkg-config --cflags cmocka 2>/dev/null)
CMOCKA_LIBS = $(shell pkg-config --libs cmocka 2>/dev/null)
SANITIZE := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# The simulator's results must be the same bits on every compiler and target
# (the native build, the sanitizer and fuzz builds, the WebAssembly module):
# no fused multiply-adds, whatever -march or the compiler's default says.
SIM_DET := -ffp-contract=off

SIM_SRC := $(sort $(wildcard sim-core/*.c))
# generator/ holds one folder per stage of a build (docs/architecture.md);
# main.c and the orchestrator stand at its top. Each folder's sources are
# found by its own wildcard, and every include names its folder
# ("load/board.h"), found through -Igenerator.
GEN_STAGES := base model load run draw render write preview
GEN_SRC := $(sort $(filter-out generator/main.c,$(wildcard generator/*.c \
             $(foreach d,$(GEN_STAGES),generator/$(d)/*.c))))
# The files a site with live boards gets in static/ (generator/assets.h):
# the WebAssembly module and generator/web/'s scripts, compiled into the
# program as a generated source (generator/web/embed.sh), one per build tree.
WEB_JS := $(sort $(wildcard generator/web/*.js))
LIVE_ASSETS_C := $(BUILD)/gen/live_assets.c
TEST_SRC := $(sort $(wildcard tests/unit/test_*.c))
TEST_SUPPORT := $(sort $(filter-out tests/unit/test_%.c,$(wildcard tests/unit/*.c)))

# The results cache keys on the simulator's source, so a changed model can
# never be served a stale result (generator/run/cache.c).
SIM_HASH := $(shell cat $(sort $(wildcard sim-core/*.c sim-core/*.h)) | sha256sum | cut -c1-16)
CACHE_DEFS := -DBP_SIM_HASH='"$(SIM_HASH)"'

# objects for one build flavour: $(call objs,DIR,SOURCES)
objs = $(patsubst %.c,$(1)/obj/%.o,$(2))

# ---------------------------------------------------------------- release build
REL_CFLAGS := $(WARN) $(OPT) -g -MMD -MP
SIM_OBJ := $(call objs,$(BUILD),$(SIM_SRC))
GEN_OBJ := $(call objs,$(BUILD),$(GEN_SRC) generator/main.c) $(BUILD)/obj/gen/live_assets.o

.PHONY: all
all: deps
	@$(MAKE) --no-print-directory $(BUILD)/boardpress $(WASM)

$(BUILD)/libsimcore.a: $(SIM_OBJ)
	@rm -f $@
	$(call say,AR,$@)
	$(Q)ar rcs $@ $^

$(BUILD)/boardpress: $(GEN_OBJ) $(BUILD)/libsimcore.a
	$(call say,CC,$@)
	$(Q)$(CC) $(REL_CFLAGS) -o $@ $(GEN_OBJ) $(BUILD)/libsimcore.a $(PKG_LIBS)

$(BUILD)/obj/sim-core/%.o: sim-core/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@)
	$(Q)$(CC) $(REL_CFLAGS) $(SIM_DET) -Isim-core -c -o $@ $<

$(BUILD)/obj/generator/%.o: generator/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@)
	$(Q)$(CC) $(REL_CFLAGS) -D_DEFAULT_SOURCE $(CACHE_DEFS) -Isim-core -Igenerator $(PKG_CFLAGS) -c -o $@ $<

# ---------------------------------------------------------------- sanitizer build (tests)
ASAN_CFLAGS := $(WARN) -O1 -g -fPIC $(SANITIZE) -MMD -MP
ASAN_SIM_OBJ := $(call objs,$(ASAN_BUILD),$(SIM_SRC))
ASAN_GEN_OBJ := $(call objs,$(ASAN_BUILD),$(GEN_SRC)) $(ASAN_BUILD)/obj/gen/live_assets.o
ASAN_SUPPORT_OBJ := $(call objs,$(ASAN_BUILD),$(TEST_SUPPORT))
ASAN_TESTS := $(patsubst tests/unit/%.c,$(ASAN_BUILD)/tests/%,$(TEST_SRC))
ASAN_TEST_OBJ := $(patsubst tests/unit/%.c,$(ASAN_BUILD)/obj/tests/unit/%.o,$(TEST_SRC))
# The unit tests link the generator and simulator as one shared library, so
# editing one .c file recompiles that object and relinks the library, not
# every test; the objects are kept (make would delete them as intermediate).
ASAN_LIB := $(ASAN_BUILD)/libbp.so
.SECONDARY: $(ASAN_TEST_OBJ) $(ASAN_SUPPORT_OBJ)

# The objects are rebuilt when these flags change (a stamp holding them).
ASAN_STAMP := $(ASAN_BUILD)/cflags.stamp
$(shell mkdir -p $(ASAN_BUILD) && { echo '$(ASAN_CFLAGS)' | cmp -s - $(ASAN_STAMP) || \
  echo '$(ASAN_CFLAGS)' >$(ASAN_STAMP); })

$(ASAN_BUILD)/obj/sim-core/%.o: sim-core/%.c $(ASAN_STAMP)
	@mkdir -p $(dir $@)
	$(call say,CC,$@)
	$(Q)$(CC) $(ASAN_CFLAGS) $(SIM_DET) -Isim-core -c -o $@ $<

$(ASAN_BUILD)/obj/generator/%.o: generator/%.c $(ASAN_STAMP)
	@mkdir -p $(dir $@)
	$(call say,CC,$@)
	$(Q)$(CC) $(ASAN_CFLAGS) -D_DEFAULT_SOURCE $(CACHE_DEFS) -Isim-core -Igenerator $(PKG_CFLAGS) -c -o $@ $<

$(BUILD)/obj/generator/run/cache.o $(ASAN_BUILD)/obj/generator/run/cache.o: $(wildcard sim-core/*.c sim-core/*.h)
# The preview's page script is built into reload.o (.incbin, reload.c).
RELOAD_OBJ = $(1)/obj/generator/preview/reload.o
$(call RELOAD_OBJ,$(BUILD)) $(call RELOAD_OBJ,$(ASAN_BUILD)): generator/preview/reload.js

$(ASAN_BUILD)/obj/tests/unit/%.o: tests/unit/%.c $(ASAN_STAMP)
	@mkdir -p $(dir $@)
	$(call say,CC,$@)
	$(Q)$(CC) $(ASAN_CFLAGS) -D_DEFAULT_SOURCE -Isim-core -Igenerator -Itests/unit \
	  $(PKG_CFLAGS) $(CMOCKA_CFLAGS) -c -o $@ $<

$(ASAN_BUILD)/boardpress: $(ASAN_GEN_OBJ) $(call objs,$(ASAN_BUILD),generator/main.c) $(ASAN_SIM_OBJ)
	$(call say,CC,$@)
	$(Q)$(CC) $(ASAN_CFLAGS) -o $@ $^ $(PKG_LIBS)

$(ASAN_LIB): $(ASAN_GEN_OBJ) $(ASAN_SIM_OBJ)
	$(call say,LD,$@)
	$(Q)$(CC) $(ASAN_CFLAGS) -shared -o $@.tmp $^ $(PKG_LIBS)
	$(Q)mv $@.tmp $@

# The library is order-only: a test is relinked when its own objects change,
# and picks up a rebuilt library when it runs.
$(ASAN_BUILD)/tests/%: $(ASAN_BUILD)/obj/tests/unit/%.o $(ASAN_SUPPORT_OBJ) | $(ASAN_LIB)
	@mkdir -p $(dir $@)
	$(call say,CC,$@)
	$(Q)$(CC) $(ASAN_CFLAGS) -o $@ $^ -L$(ASAN_BUILD) -lbp -Wl,-rpath,'$$ORIGIN/..' \
	  $(PKG_LIBS) $(CMOCKA_LIBS)

# ---------------------------------------------------------------- WebAssembly module
# sim-core as build/wasm/simcore.wasm, the simulator pages run in the reader's
# browser (docs/architecture.md "Simulator in the browser"; loaded by generator/web/bp-sim.js;
# compiled into boardpress, which writes it as static/simcore.wasm of a site
# with live boards). Debian's clang-14 and wasm-ld (lld-14), no libc but
# the little in sim-core/wasm/, no imports.
# The event loop, queue, distributions and statistics at -Os, the board
# check (its sentences left out: SIM_TERSE_CHECKS, see check.c; the wire
# decoder's field names likewise, see wire.c), encodings,
# names and the shim at -Oz, all as one program (-flto: calls across files
# inline; 5 % faster in Chromium, and smaller), then wasm-opt -Os --converge
# --low-memory-unused (Debian's binaryen, installed like the compilers):
# the module must stay within 20 KB gzipped, and these levels measured the
# fastest that fit (tests/bench; -O2 or -O3 on the hot files grows the
# module by 2-3 KB and is no faster in V8). --low-memory-unused lets
# wasm-opt fold constant offsets into loads (about 400 bytes gzipped) on the
# promise that nothing lives in the first 1 KB of memory: with --stack-first
# that is the far end of the stack, so the stack is 64 KB plus that 1 KB,
# and a run reaches it only where a 64 KB stack would have overflowed.
# -mbulk-memory: memcpy, memmove and memset are one instruction each
# (memory.copy, memory.fill; every browser since 2021), 70 bytes gzipped
# smaller than libc.c's loops and as fast (make bench's largest board, a
# noisy comparison at load 8).
# The module also replays a proof's run from its list of choices
# (bp_run's choices, sim-core/proof.h sim_run_choices); it runs no proof,
# so SIM_REPLAY_ONLY leaves out the recording of the choice points
# (sim-core/choice.c).
# `make WASM_OPT=` leaves wasm-opt out (the module then misses the size limit).
# Either way tests/run-wasm.sh proves the module's results are the native
# build's bits.
WASM_CC := clang-14
WASM_BUILD := $(BUILD)/wasm
WASM := $(WASM_BUILD)/simcore.wasm
WASM_OPT ?= $(shell command -v wasm-opt 2>/dev/null)
WASM_SRC := $(SIM_SRC) $(sort $(wildcard sim-core/wasm/*.c))
WASM_OBJ := $(call objs,$(WASM_BUILD),$(WASM_SRC))
WASM_FAST ?= model model_out model_run queue rng stats
WASM_O_FAST ?= -Os
WASM_O_SMALL ?= -Oz
WASM_OPT_LEVEL ?= -Os --converge --low-memory-unused --enable-bulk-memory
WASM_CFLAGS := --target=wasm32 -mbulk-memory -flto $(WARN) $(SIM_DET) -DSIM_TERSE_CHECKS -DSIM_REPLAY_ONLY -Wno-unneeded-internal-declaration \
               -MMD -MP -isystem sim-core/wasm/include -Isim-core -Isim-core/wasm
WASM_LDFLAGS := --target=wasm32 -mbulk-memory -flto -nostdlib -Wl,--no-entry -Wl,--stack-first \
                -Wl,-z,stack-size=66560 -Wl,--strip-all

$(WASM_BUILD)/obj/sim-core/%.o: sim-core/%.c
	@mkdir -p $(dir $@)
	$(call say,WASMCC,$@)
	$(Q)$(WASM_CC) $(WASM_CFLAGS) $(if $(filter $*,$(WASM_FAST)),$(WASM_O_FAST),$(WASM_O_SMALL)) $(WASM_EXTRA) -c -o $@ $<

# its own memset and memcpy must not be turned into calls to themselves
$(WASM_BUILD)/obj/sim-core/wasm/libc.o: WASM_EXTRA := -ffreestanding

$(WASM): $(WASM_OBJ)
	$(call say,WASMLD,$@)
	$(Q)$(WASM_CC) $(WASM_LDFLAGS) -o $@.tmp $(WASM_OBJ)
	$(Q)if [ -n "$(WASM_OPT)" ]; then $(WASM_OPT) $(WASM_OPT_LEVEL) $@.tmp -o $@.opt && mv $@.opt $@.tmp; fi
	$(Q)mv $@.tmp $@

# The live assets: regenerated when the module or a script changes.
$(LIVE_ASSETS_C): generator/web/embed.sh $(WASM) $(WEB_JS)
	@mkdir -p $(dir $@)
	$(call say,EMBED,$@)
	$(Q)sh generator/web/embed.sh $@ simcore.wasm=$(WASM) $(foreach f,$(WEB_JS),$(notdir $(f))=$(f))

$(BUILD)/obj/gen/live_assets.o: $(LIVE_ASSETS_C)
	@mkdir -p $(dir $@)
	$(call say,CC,$@)
	$(Q)$(CC) $(REL_CFLAGS) -Igenerator -c -o $@ $<

$(ASAN_BUILD)/obj/gen/live_assets.o: $(LIVE_ASSETS_C) $(ASAN_STAMP)
	@mkdir -p $(dir $@)
	$(call say,CC,$@)
	$(Q)$(CC) $(ASAN_CFLAGS) -Igenerator -c -o $@ $<

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# ---------------------------------------------------------------- site
.PHONY: site serve
site: all
	$(BUILD)/boardpress build

# make serve: build, watch and preview, pages reloaded on save (README "Preview
# while you write"); PORT=N for another port, BIND=ADDR to listen elsewhere.
PORT ?= 8000
BIND ?= 127.0.0.1
serve: all
	$(BUILD)/boardpress serve --port $(PORT) --bind $(BIND)

# ---------------------------------------------------------------- docs, install
# make docs: docs/boards.md, the board reference, written by boardpress from
# its own tables and the catalog (tests/run-docs.sh fails when it is stale).
.PHONY: docs install
docs: all
	$(BUILD)/boardpress help board --catalog content/catalog.yaml >docs/boards.md.tmp
	@mv docs/boards.md.tmp docs/boards.md

# make install: boardpress on the PATH (PREFIX=/usr/local; DESTDIR for packaging).
PREFIX ?= /usr/local
install: all
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BUILD)/boardpress $(DESTDIR)$(PREFIX)/bin/boardpress

# ---------------------------------------------------------------- tests
# Every test kind is a script under tests/ named run-*.sh, found by its name
# (a new one needs no registration), given the sanitizer build of boardpress.
# `make test` runs every cmocka suite and every script, TEST_JOBS at a time;
# `make check` the fast tier (below). Each step writes its own log in
# build/test/ (build/check/) and prints one line with its wall and CPU
# seconds, or "FAILED: tests/run-x.sh" and its log. Any two scripts can run
# side by side: each makes its own temporary folders or its own
# build/test-NAME/, takes port 0, and starts its own browser.
TEST_SCRIPTS := $(sort $(wildcard tests/run-*.sh))
TEST_NAMES := $(patsubst tests/run-%.sh,%,$(TEST_SCRIPTS))
UNIT_NAMES := $(notdir $(ASAN_TESTS))
export ASAN_OPTIONS := detect_leaks=1:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS := print_stacktrace=1:halt_on_error=1

# The longest steps start first, so that the lanes end together (measured
# CPU seconds, docs/architecture.md#tests); the rest follow in name order.
TEST_FIRST := crash bad layout fuzz trust interrupt live-browser determinism inview \
              valgrind live feed cards browser ownership serve-browser scale wasm
TEST_ORDER := $(foreach n,$(TEST_FIRST),$(filter $(n),$(TEST_NAMES))) \
              $(filter-out $(TEST_FIRST),$(TEST_NAMES))
TEST_JOBS ?= 2
TEST_LOG := $(BUILD)/test
TEST_STEPS := $(addprefix test-run/,$(TEST_ORDER)) $(addprefix test-unit/,$(UNIT_NAMES))

.PHONY: test unit-tests test-build test-steps
test: test-deps
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) test-build fuzz-build
	@$(call run_steps,make test,$(TEST_LOG),$(TEST_JOBS),$(TEST_STEPS),)

test-build: $(ASAN_BUILD)/boardpress $(ASAN_TESTS) $(BUILD)/boardpress $(WASM) \
            $(ASAN_BUILD)/tests/fmt_dump

# The page's number formatting for tests/live/fmt.js (generator/web/bp-fmt.js
# against generator/base/fmt.c), linked with the library as the suites are.
$(ASAN_BUILD)/tests/fmt_dump: tests/live/fmt_dump.c | $(ASAN_LIB)
	@mkdir -p $(dir $@)
	$(call say,CC,$@)
	$(Q)$(CC) $(ASAN_CFLAGS) -D_DEFAULT_SOURCE -Isim-core -Igenerator $(PKG_CFLAGS) -o $@ $< \
	  -L$(ASAN_BUILD) -lbp -Wl,-rpath,'$$ORIGIN/..' $(PKG_LIBS)

# The cmocka suites alone, every layout round.
unit-tests: test-build
	@$(call run_steps,unit tests,$(TEST_LOG),$(TEST_JOBS),$(addprefix test-unit/,$(UNIT_NAMES)),)

# make check: the fast tier, for every save (under a minute on two cores).
# The unit suites with the random-layout rounds cut to CHECK_ROUNDS, and the
# scripts that take seconds, CHECK_JOBS at a time. No browser, no package
# installs (the scripts' tools come with `make test-deps`).
CHECK_SCRIPTS ?= golden cli cache includes ownership html serve prove docs words reads
CHECK_ROUNDS ?= 20
CHECK_JOBS ?= 2
CHECK_STEPS := $(addprefix test-unit/,$(UNIT_NAMES)) $(addprefix test-run/,$(CHECK_SCRIPTS))

.PHONY: check
check: deps
	@$(MAKE) --no-print-directory test-build
	@$(call run_steps,make check,$(BUILD)/check,$(CHECK_JOBS),$(CHECK_STEPS),BP_LAYOUT_ROUNDS=$(CHECK_ROUNDS))

# $(call run_steps,WHAT,LOGDIR,JOBS,STEPS,UNIT_ENV): runs STEPS, JOBS at a
# time, each into LOGDIR/NAME.log; then one line with the wall time, the
# CPU seconds of all steps and the load, or the steps that failed.
define run_steps
rm -rf $(2); mkdir -p $(2); start=$$(date +%s); \
$(MAKE) --no-print-directory -O -j$(3) -k test-steps STEPS='$(4)' STEP_LOG=$(2) UNIT_ENV='$(5)' || true; \
wall=$$(( $$(date +%s) - start )); \
cpu=$$(cat $(2)/*.cpu 2>/dev/null | awk '{s += $$1} END {printf "%.0f", s}'); \
load=$$(cut -d' ' -f1-3 /proc/loadavg); \
if ls $(2)/*.failed >/dev/null 2>&1; then \
  echo "$(1): FAILED: $$(cd $(2) && ls *.failed | sed 's/\.failed$$//' | tr '\n' ' ')(logs in $(2)/; $$wall s)"; exit 1; \
fi; \
echo "$(1): all $(words $(4)) passed in $$wall s ($$cpu s CPU; load $$load)"
endef

# One step: test-run/NAME runs tests/run-NAME.sh, test-unit/NAME a suite
# (alone: `make test-run/crash`; its log in build/test/).
STEP_LOG ?= $(TEST_LOG)
UNIT_ENV ?=
.PHONY: $(addprefix test-run/,$(TEST_NAMES)) $(addprefix test-unit/,$(UNIT_NAMES))
test-steps: $(STEPS)

# $(call step,NAME,WHAT,COMMAND): COMMAND into NAME's log; "ok" with its
# wall and CPU seconds (bash's `times`, in the shell itself: its children's), or FAILED
# and the log.
define step
@mkdir -p $(STEP_LOG); rm -f $(STEP_LOG)/$(1).failed; t0=$$(date +%s%N); \
if $(3) >$(STEP_LOG)/$(1).log 2>&1; then rc=0; else rc=$$?; fi; \
ms=$$(( ($$(date +%s%N) - t0) / 1000000 )); \
times >$(STEP_LOG)/$(1).times; \
cpu=$$(awk 'NR == 2 {for (i = 1; i <= 2; i++) {split($$i, a, /[ms]/); s += a[1] * 60 + a[2]}} END {printf "%.1f", s}' $(STEP_LOG)/$(1).times); \
echo "$$cpu" >$(STEP_LOG)/$(1).cpu; \
if [ $$rc = 0 ]; then \
  printf '  ok   %-26s %6.1f s %7.1f s CPU\n' $(1) "$$ms"e-3 "$$cpu"; \
else \
  touch $(STEP_LOG)/$(1).failed; \
  echo "FAILED: $(2) (exit $$rc; log $(STEP_LOG)/$(1).log):"; sed 's/^/    /' $(STEP_LOG)/$(1).log; exit 1; \
fi
endef

$(addprefix test-unit/,$(UNIT_NAMES)): test-unit/%:
	$(call step,$*,$(ASAN_BUILD)/tests/$*,$(UNIT_ENV) $(ASAN_BUILD)/tests/$*)
$(addprefix test-run/,$(TEST_NAMES)): test-run/%:
	$(call step,run-$*,tests/run-$*.sh,BP=$(ASAN_BUILD)/boardpress BUILD=$(BUILD) bash tests/run-$*.sh)

# ---------------------------------------------------------------- bench, fuzz
# make bench: the release build (-O2, no sanitizers) against its references
# (tests/bench/run.py prints the table; BENCH_RUNS=N for more runs,
# BENCH_ONLY="wasm live" for some sections). The live rows drive Debian's
# Chromium with playwright-core from tests/browser/package-lock.json.
BENCH_TOOLS := $(addprefix $(BUILD)/bench/,heap fsref cmarkref simdrv drawbench searchbench)
BENCH_GEN_OBJ := $(filter-out $(BUILD)/obj/generator/main.o,$(GEN_OBJ))

.PHONY: bench fuzz regen
bench: bench-deps
	@$(MAKE) --no-print-directory $(BUILD)/boardpress $(BENCH_TOOLS) $(WASM)
	@BUILD=$(BUILD) tests/bench/run.sh

$(BUILD)/bench/heap $(BUILD)/bench/fsref: $(BUILD)/bench/%: tests/bench/%.c
	@mkdir -p $(dir $@)
	$(CC) $(REL_CFLAGS) -o $@ $<

$(BUILD)/bench/cmarkref: tests/bench/cmarkref.c
	@mkdir -p $(dir $@)
	$(CC) $(REL_CFLAGS) $(PKG_CFLAGS) -o $@ $< $(PKG_LIBS)

$(BUILD)/bench/simdrv $(BUILD)/bench/drawbench $(BUILD)/bench/searchbench: $(BUILD)/bench/%: tests/bench/%.c $(BENCH_GEN_OBJ) $(BUILD)/libsimcore.a
	@mkdir -p $(dir $@)
	$(CC) $(REL_CFLAGS) -D_DEFAULT_SOURCE -Isim-core -Igenerator $(PKG_CFLAGS) -o $@ $< \
	  $(BENCH_GEN_OBJ) $(BUILD)/libsimcore.a $(PKG_LIBS)

fuzz: test-deps
	@if [ -x tests/fuzz/run.sh ]; then FUZZ_SECONDS=$${FUZZ_SECONDS:-120} tests/fuzz/run.sh; else echo "no fuzz harnesses yet"; fi

regen: test-build
	@if [ -x tests/regen.sh ]; then BP=$(ASAN_BUILD)/boardpress tests/regen.sh; else echo "nothing to regenerate"; fi

# ---------------------------------------------------------------- housekeeping
.PHONY: format clean
FORMAT_SRC = $(wildcard sim-core/*.[ch] sim-core/wasm/*.[ch] sim-core/wasm/include/*.h generator/*.[ch] \
               $(foreach d,$(GEN_STAGES),generator/$(d)/*.[ch]) \
               tests/unit/*.[ch] tests/fuzz/*.c tests/bench/*.c tests/live/*.c)
format:
	clang-format -i $(FORMAT_SRC)

clean:
	rm -rf $(BUILD)

# ---------------------------------------------------------------- fuzz harnesses (tests/fuzz)
# libFuzzer targets built with Debian's clang against the generator and
# simulator sources (instrumented), linked with the system libraries (not).
# `make fuzz-build` builds them; `make fuzz` runs each for FUZZ_SECONDS
# (tests/fuzz/run.sh); `make test` runs each briefly (tests/run-fuzz.sh).
FUZZ_CC ?= clang
FUZZ_BUILD := $(BUILD)/fuzz
FUZZ_FLAGS := -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
              -fno-sanitize-recover=all
FUZZ_CFLAGS := $(filter-out -Werror,$(WARN)) -Wno-format-nonliteral $(FUZZ_FLAGS) \
               -fsanitize=fuzzer-no-link
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,$(FUZZ_BUILD)/%,$(FUZZ_SRC))
FUZZ_LIB_OBJ := $(call objs,$(FUZZ_BUILD),$(GEN_SRC) $(SIM_SRC)) $(FUZZ_BUILD)/obj/gen/live_assets.o
.SECONDARY: $(FUZZ_LIB_OBJ) $(call objs,$(FUZZ_BUILD),$(FUZZ_SRC))

$(FUZZ_BUILD)/obj/sim-core/%.o: sim-core/%.c
	@mkdir -p $(dir $@)
	$(call say,FUZZCC,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $(SIM_DET) -MMD -MP -Isim-core -c -o $@ $<

$(FUZZ_BUILD)/obj/generator/%.o: generator/%.c
	@mkdir -p $(dir $@)
	$(call say,FUZZCC,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -D_DEFAULT_SOURCE $(CACHE_DEFS) -Isim-core -Igenerator \
	  $(PKG_CFLAGS) -c -o $@ $<

$(FUZZ_BUILD)/obj/tests/fuzz/%.o: tests/fuzz/%.c tests/fuzz/fuzz_common.h
	@mkdir -p $(dir $@)
	$(call say,FUZZCC,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -D_DEFAULT_SOURCE -Isim-core -Igenerator $(PKG_CFLAGS) \
	  -c -o $@ $<

$(FUZZ_BUILD)/obj/gen/live_assets.o: $(LIVE_ASSETS_C)
	@mkdir -p $(dir $@)
	$(call say,FUZZCC,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -Igenerator -c -o $@ $<

$(FUZZ_BUILD)/obj/generator/run/cache.o: $(wildcard sim-core/*.c sim-core/*.h)
$(call RELOAD_OBJ,$(FUZZ_BUILD)): generator/preview/reload.js

$(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/obj/tests/fuzz/fuzz_%.o $(FUZZ_LIB_OBJ)
	$(call say,FUZZLD,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $^ $(PKG_LIBS)

.PHONY: fuzz-build
fuzz-build: $(FUZZ_TARGETS)
