# scx_fuzz: build, test and demo. `make help` lists the targets.
.DELETE_ON_ERROR:
.DEFAULT_GOAL := all

BUILD     ?= build
CLANG     ?= $(shell command -v clang-19 || command -v clang)
BPFTOOL   ?= $(shell command -v bpftool || echo /usr/sbin/bpftool)
CC        ?= cc
ARCH      := $(shell uname -m | sed 's/x86_64/x86/;s/aarch64/arm64/')
PREFIX    ?= /usr/local
SYSCONFDIR ?= /etc
JAVAC     ?= javac
JAR       ?= jar

ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

CFLAGS    ?= -O2 -g
CFLAGS    += -Wall -Wextra -Wno-unused-parameter -std=gnu11 -D_GNU_SOURCE -Iinclude -I$(BUILD) -MMD -MP
BPF_CFLAGS := -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_$(ARCH) -Iinclude -Ibpf -I$(BUILD) \
	-fms-extensions -Wno-microsoft-anon-tag -Wall -Wno-unused-function -MMD -MP
# Static so the loader runs in a bare initramfs.
# hwloc's libudev use is stubbed out (topo/udev_stub.c): Debian has no static libudev.
# Recursive (=), so pkg-config runs after `make deps` has installed what it asks about.
LDLIBS     = -static $(shell pkg-config --static --libs libbpf libdw capstone json-c 2>/dev/null || \
	echo -lbpf -ldw -lbz2 -lelf -lz -llzma -lcapstone -ljson-c) -linih -lhwloc -lm -lpthread
TEST_LDLIBS = $(shell pkg-config --libs criterion 2>/dev/null || echo -lcriterion)

SKEL        := $(BUILD)/scx_fuzz.skel.h
BPF_OBJ     := $(BUILD)/bpf/scx_fuzz.bpf.o
# The loader in layers (docs/design.md): each folder's headers are on the include path.
LOADER_DIRS := loader $(wildcard loader/*/)
LOADER_INC  := $(patsubst %,-I%,$(LOADER_DIRS:/=)) -Itopo
LOADER_SRCS := $(wildcard loader/*.c loader/*/*.c topo/*.c)
LOADER_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(LOADER_SRCS))
LIB_OBJS    := $(filter-out $(BUILD)/loader/cli/main.o,$(LOADER_OBJS))
UNIT_SRCS   := $(wildcard tests/unit/*.c)
UNIT_OBJS   := $(patsubst %.c,$(BUILD)/%.o,$(UNIT_SRCS))

# Small static programs the VM tests and benchmarks run in the guest, and the racy examples.
PROGS := $(patsubst tests/progs/%.c,$(BUILD)/progs/%,$(wildcard tests/progs/*.c)) \
	$(patsubst examples/%.c,$(BUILD)/progs/%,$(wildcard examples/*.c)) \
	$(BUILD)/progs/pairdyn $(BUILD)/progs/pairstore-stripped

# The seed's demo in Java (examples/java), run in the VM with the host's JDK.
JAVA_DEMO := $(BUILD)/java/expiry.jar

.PHONY: all deps java test unit-test vm-test demo bench soak install clean distclean help
all: $(BUILD)/scx_fuzz $(PROGS)

help:
	@echo "make deps       install build and test dependencies (apt; run as root)"
	@echo "make            build $(BUILD)/scx_fuzz (loader with the BPF scheduler embedded)"
	@echo "make test       unit tests, then VM tests on the oldest and newest sched_ext kernels and 6.12 LTS"
	@echo "make unit-test  Criterion unit tests only"
	@echo "make java       build the Java demo ($(JAVA_DEMO))"
	@echo "make vm-test    VM tests only (VM_KERNELS='oldest newest' to choose)"
	@echo "make demo       boot an emulated machine and run a workload under scx_fuzz"
	@echo "make bench      quick benchmarks (example race hit rates, base throughput): bench/results/"
	@echo "make soak       long loads and soaks no CI runs (docs/testing.md), about 20 minutes"
	@echo "make install    scx_fuzz, man page, systemd unit (PREFIX=/usr/local), serve.conf.example (SYSCONFDIR=/etc)"
	@echo "make clean      remove $(BUILD)/"
	@echo "V=1 shows full commands."

deps:
	$(Q)./scripts/deps.sh

# On a fresh machine the first build installs what is missing (needs root).
DEPS_OK := $(BUILD)/.deps-ok
$(DEPS_OK):
	@mkdir -p $(@D)
	$(Q)./scripts/check-deps.sh 2>/dev/null || ./scripts/deps.sh
	$(Q)./scripts/check-deps.sh && touch $@

$(BUILD)/vmlinux.h: | $(DEPS_OK)
	@mkdir -p $(@D)
	$(call msg,GEN,$@)BPFTOOL=$(BPFTOOL) ./scripts/vmlinux-h.sh $@

$(BUILD)/bpf/%.bpf.o: bpf/%.bpf.c $(BUILD)/vmlinux.h | $(DEPS_OK)
	@mkdir -p $(@D)
	$(call msg,BPF,$@)$(CLANG) $(BPF_CFLAGS) -MF $(@:.o=.d) -MT $@ -c $< -o $@.tmp.o
	$(Q)$(BPFTOOL) gen object $@ $@.tmp.o && rm -f $@.tmp.o

# bpftool 7.5 emits `map->link` for struct_ops maps, a field libbpf 1.4 lacks:
# drop it; the loader attaches struct_ops itself.
$(BUILD)/%.skel.h: $(BUILD)/bpf/%.bpf.o
	$(call msg,SKEL,$@)$(BPFTOOL) gen skeleton $< name $(subst -,_,$*) > $@.tmp
	$(Q)sed -i '/^[[:space:]]*map->link = &/d' $@.tmp && mv $@.tmp $@

$(SKEL): $(BPF_OBJ)

# The C runtime's names, to tell a static binary's own functions without debug info.
$(BUILD)/runtime_names.h: scripts/runtime-names.sh | $(DEPS_OK)
	@mkdir -p $(@D)
	$(call msg,GEN,$@)CC=$(CC) ./scripts/runtime-names.sh $@

$(BUILD)/loader/points/runtime.o: $(BUILD)/runtime_names.h

$(BUILD)/loader/%.o: loader/%.c $(SKEL) | $(DEPS_OK)
	@mkdir -p $(@D)
	$(call msg,CC,$@)$(CC) $(CFLAGS) $(LOADER_INC) -c $< -o $@

$(BUILD)/topo/%.o: topo/%.c | $(DEPS_OK)
	@mkdir -p $(@D)
	$(call msg,CC,$@)$(CC) $(CFLAGS) -Itopo -c $< -o $@

$(BUILD)/scx_fuzz: $(LOADER_OBJS)
	$(call msg,LINK,$@)$(CC) $(CFLAGS) $^ $(LDLIBS) -o $@

# The guest's JSON checker: json-c linked in, as the guest has no libraries.
$(BUILD)/progs/jsoncheck: tests/progs/jsoncheck.c | $(DEPS_OK)
	@mkdir -p $(@D)
	$(call msg,CC,$@)$(CC) $(CFLAGS) -static $< -ljson-c -o $@

$(BUILD)/progs/%: tests/progs/%.c | $(DEPS_OK)
	@mkdir -p $(@D)
	$(call msg,CC,$@)$(CC) $(CFLAGS) -static -pthread $< -o $@

# A dynamic program whose race is in its own library (tests/progs/lib), found at $ORIGIN.
$(BUILD)/progs/libpairlib.so: tests/progs/lib/pairlib.c | $(DEPS_OK)
	@mkdir -p $(@D)
	$(call msg,CC,$@)$(CC) -O2 -fPIC -shared -Wall $< -o $@

$(BUILD)/progs/pairdyn: tests/progs/lib/pairdyn.c $(BUILD)/progs/libpairlib.so | $(DEPS_OK)
	$(call msg,CC,$@)$(CC) $(CFLAGS) -pthread $< -L$(BUILD)/progs -lpairlib -Wl,-rpath,'$$ORIGIN' -o $@

# As releases ship: no symbols, no debug info.
$(BUILD)/progs/%-stripped: $(BUILD)/progs/%
	$(call msg,STRIP,$@)strip -o $@ $<

$(BUILD)/progs/%: examples/%.c examples/busywork.h | $(DEPS_OK)
	@mkdir -p $(@D)
	$(call msg,CC,$@)$(CC) $(CFLAGS) -static -pthread $< -o $@

java: $(JAVA_DEMO)

$(JAVA_DEMO): $(wildcard examples/java/*.java) | $(DEPS_OK)
	@rm -rf $(@D)/classes && mkdir -p $(@D)/classes
	$(call msg,JAVAC,$@)$(JAVAC) --release 17 -Xlint:all -Werror -d $(@D)/classes $^
	$(Q)$(JAR) --create --file $@ --main-class Expiry -C $(@D)/classes .

$(BUILD)/tests/unit/%.o: tests/unit/%.c $(SKEL) | $(DEPS_OK)
	@mkdir -p $(@D)
	$(call msg,CC,$@)$(CC) $(CFLAGS) $(LOADER_INC) -c $< -o $@

# Binaries as releases are built (no -g; static; stripped) for the --points unit tests.
UNIT_FIXTURES := $(BUILD)/fixtures/own-static $(BUILD)/fixtures/own-stripped $(BUILD)/progs/pairdyn \
		 $(BUILD)/fixtures/own-dynamic $(BUILD)/fixtures/own-dynamic-stripped $(BUILD)/fixtures/dash
$(BUILD)/fixtures/own-static: tests/fixtures/own_funcs.c | $(DEPS_OK)
	@mkdir -p $(@D)
	$(call msg,CC,$@)$(CC) -O1 -static -pthread $< -o $@
$(BUILD)/fixtures/own-dynamic: tests/fixtures/own_funcs.c | $(DEPS_OK)
	@mkdir -p $(@D)
	$(call msg,CC,$@)$(CC) -O2 -pthread $< -o $@
$(BUILD)/fixtures/dash: /bin/dash	# a stripped program of the distribution, copied out of /bin
	@mkdir -p $(@D)
	$(Q)cp $< $@
$(BUILD)/fixtures/%-stripped: $(BUILD)/fixtures/%
	$(call msg,STRIP,$@)strip -o $@ $<
$(BUILD)/fixtures/own-stripped: $(BUILD)/fixtures/own-static
	$(call msg,STRIP,$@)strip -o $@ $<

$(BUILD)/unit-tests: $(UNIT_OBJS) $(LIB_OBJS) $(UNIT_FIXTURES)
	$(call msg,LINK,$@)$(CC) $(CFLAGS) $(filter %.o,$^) $(TEST_LDLIBS) $(shell pkg-config --libs libbpf libdw capstone json-c) \
		-linih -lhwloc -lm -o $@

unit-test: $(BUILD)/unit-tests $(BUILD)/scx_fuzz
	$(Q)./tests/run --unit-only

vm-test: $(BUILD)/scx_fuzz $(PROGS) $(JAVA_DEMO)
	$(Q)./tests/run --vm-only

test: $(BUILD)/scx_fuzz $(PROGS) $(BUILD)/unit-tests | $(DEPS_OK)
	$(Q)./tests/run

# Every user-facing target builds what it runs in the guest.
demo: $(BUILD)/scx_fuzz $(PROGS) | $(DEPS_OK)
	$(Q)./tests/vm/demo

# Quick versions (15 minutes here); see docs/benchmarks.md for the full ones.
bench: $(BUILD)/scx_fuzz $(PROGS) | $(DEPS_OK)
	$(Q)bench/bugs --rounds 4
	$(Q)bench/overhead --cpus "4 16" --rounds 1 --seconds 2

# The long loads and soaks (docs/testing.md, "make soak"); no CI runs them.
soak: $(BUILD)/scx_fuzz $(PROGS) $(JAVA_DEMO) | $(DEPS_OK)
	$(Q)./tests/run --soak

install: $(BUILD)/scx_fuzz
	install -D -m 755 $(BUILD)/scx_fuzz $(DESTDIR)$(PREFIX)/bin/scx_fuzz
	install -D -m 644 docs/scx_fuzz.1 $(DESTDIR)$(PREFIX)/share/man/man1/scx_fuzz.1
	sed -e 's|@BINDIR@|$(PREFIX)/bin|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' dist/scx_fuzz.service.in > $(BUILD)/scx_fuzz.service
	install -D -m 644 $(BUILD)/scx_fuzz.service $(DESTDIR)$(PREFIX)/lib/systemd/system/scx_fuzz.service
	install -D -m 644 dist/serve.conf.example $(DESTDIR)$(SYSCONFDIR)/scx_fuzz/serve.conf.example

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
