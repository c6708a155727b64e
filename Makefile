# certsym's build, test and demo targets.
#
#   make build   builds bin/certsym and installs nothing: when Go, the C compiler, pkg-config or
#                Z3's development files are missing, it names them and how to install them
#   make deps    installs the Debian packages that building needs (apt-get; sudo when not root)
#   make demo    installs what building needs, builds, and runs certsym on a buggy program
#   make test    the Go tests that need neither the Coq reference (certsym-ref) nor the PyWiSE
#                corpus, without the slow differential tests (go test -short), with the corpus
#                golden test (internal/corpusgolden): about two minutes of CPU
#   make check   the whole gate: the proofs, every Go test, the refinement layer; it installs the
#                Debian packages it needs and builds the Coq reference
#   make fuzz    the command's fuzz targets, FUZZTIME each, under a memory limit; appends their
#                executions to cmd/certsym/testdata/fuzz/record.tsv (not part of make check)
#   make check-shards  the shard test with every split (make check samples two per program)
#   make check-workers  the --workers comparison with every format of every program (make check
#                alternates them)
#   make check-steal  the partitioned runs' comparisons (run --workers) on every program (make
#                check takes a slice, rotating with the day)
#   make soak    N random programs through every command, each stopped at a random moment by its
#                deadline or SIGINT; prints the latencies (not part of make check)
#   make check-distributed  the distributed runs' long tests (every corpus program on 1, 2, 4
#                workers, 300 runs with workers killed); make check-slurm  a distributed run on a
#                single-node Slurm the test starts (neither is part of make check)
#
# The other targets that need Debian packages install the missing ones first through
# scripts/install-deps.sh.

GO ?= go
export CGO_ENABLED := 1
# Two arenas for the C allocator from each process's start (Z3 allocates on many threads, and
# glibc's arenas, up to eight per core, each keep what is freed into them: docs/performance.md,
# Memory of the refinement run); the processes that link Z3 also set it in their init.
export MALLOC_ARENA_MAX ?= 2
BIN := bin/certsym

.PHONY: all build need-build deps deps-proofs deps-browser deps-artifacts deps-nats deps-slurm check-distributed check-slurm demo test check check-go check-go-noref check-go-ref check-proofs check-refinement refinement-run check-refinement-stream mutation ref bench bench-invariants clean compare-strategies fuzz soak check-shards check-workers check-steal

all: build

deps:
	@bash scripts/install-deps.sh core

# need-build checks what building needs without installing it (scripts/check-deps.sh). Z3_HEADER
# and Z3_LIB are the header and the library it compiles and links against, e.g.
# make build Z3_HEADER=/nonexistent/z3.h shows what a machine without libz3-dev is told.
Z3_HEADER ?= z3.h
Z3_LIB ?= z3
need-build:
	@GO='$(GO)' Z3_HEADER='$(Z3_HEADER)' Z3_LIB='$(Z3_LIB)' bash scripts/check-deps.sh

deps-proofs:
	@bash scripts/install-deps.sh proofs

deps-browser:
	@bash scripts/install-deps.sh browser

# graphviz renders run --dot in a test, lcov reads run --lcov, groff renders certsym help --man.
deps-artifacts:
	@bash scripts/install-deps.sh graphviz lcov man

# nats-server is the broker the distributed runs' tests start (distrib); slurm is a single-node
# Slurm (slurmctld, slurmd, munge) for make check-slurm.
deps-nats:
	@bash scripts/install-deps.sh nats

deps-slurm:
	@bash scripts/install-deps.sh slurm

# VERSION and REVISION are stamped into the binary (cmd/certsym/version.go): certsym --version and
# the SARIF logs' tool version say them. The Go toolchain's own stamp is missing in a git worktree
# and with -buildvcs=false; outside a git repository both are empty and the build info speaks.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null)
REVISION ?= $(shell git rev-parse HEAD 2>/dev/null)
LDFLAGS := -X main.stampedVersion=$(VERSION) -X main.stampedRevision=$(REVISION)

build: need-build
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/certsym

# The demo's run exits 1 (a bug); the target succeeds when that is what certsym answers.
DEMO := testdata/factorial_mutant_swapped_update.imp
demo: deps
	@$(MAKE) --no-print-directory build
	@echo '$$ certsym run $(DEMO)'
	@./$(BIN) run $(DEMO); status=$$?; echo "(exit status $$status: 1 means a confirmed bug)"; test $$status -eq 1

# The quick tests: go test -short skips the slow differential and corpus-wide tests (their skip
# message names make check) and the tests that need certsym-ref or the PyWiSE corpus, whether or
# not they are there. A test whose tool (chromium, dot, lcov, groff) is not installed skips too.
# TESTFLAGS adds go test flags: make test TESTFLAGS='-v -run TestTestdata'.
TESTFLAGS ?=
test: need-build
	$(GO) test -short -count=1 -timeout 10m $(TESTFLAGS) ./...

# CHECK_N is the number of random programs of make check's refinement layer (the corpus and the
# layer's targets run whole): make check-refinement's 150, the soak of random programs, is its own
# target, so that make check stays within its time.
CHECK_N ?= 50

# check installs what it needs first, then compiles the Coq development (one core) while the Go
# tests that need no reference run beside it, then proves the Why3 files, runs the Go tests that
# talk to the reference, and the refinement layer (whose unit checks are among those Go tests).
# Each phase's time is printed (scripts/timed.sh).
check: deps deps-proofs deps-browser deps-artifacts deps-nats
	bash scripts/timed.sh "Coq and the Go tests" $(MAKE) --no-print-directory -j2 --output-sync=target ref check-go-noref
	bash scripts/timed.sh "Why3" $(MAKE) -C proofs/why3 check
	bash scripts/timed.sh "the Go tests against certsym-ref" env $(GO_TEST_REF)
	bash scripts/timed.sh "the refinement layer" $(MAKE) --no-print-directory refinement-run REFINEMENT_UNIT_DONE=1 REFINEMENT_NO_LAYER_MUTATION=1 N=$(or $(N),$(CHECK_N))

# Every Go test, none skipped: CERTSYM_REQUIRE_CORPUS=1 and CERTSYM_REQUIRE_REF=1 make an absent
# PyWiSE corpus or certsym-ref a failure. Only the packages of REF_PKGS talk to certsym-ref, so
# only check-go-ref builds it.
REF_PKGS := ./refinement ./refinement/refclient
NOREF_PKGS = $(filter-out $(patsubst ./%,certsym/%,$(REF_PKGS)),$(shell $(GO) list ./...))
check-go: check-go-noref check-go-ref

check-go-noref: deps deps-browser deps-artifacts deps-nats
	$(GO) vet ./...
	CERTSYM_REQUIRE_CORPUS=1 $(GO) test -count=1 -timeout 30m $(NOREF_PKGS)

GO_TEST_REF = CERTSYM_REQUIRE_CORPUS=1 CERTSYM_REQUIRE_REF=1 $(GO) test -count=1 -timeout 30m $(REF_PKGS)
check-go-ref: deps ref
	$(GO_TEST_REF)

# The distributed runs' long variants (not part of make check): every corpus program with 1, 2
# and 4 workers, 150 random programs, 300 runs with workers killed (distrib, CERTSYM_DIST_LONG=1).
check-distributed: deps deps-nats
	CERTSYM_DIST_LONG=1 CI=true $(GO) test -count=1 -timeout 60m -run 'TestDistributed|TestAssemble' -v ./distrib

# A distributed run through a real single-node Slurm (slurmctld, slurmd, munge started by the
# test, no cgroups, no systemd): sbatch starts the workers, srun the coordinator (not part of
# make check).
check-slurm: deps deps-nats deps-slurm
	CERTSYM_SLURM=1 CI=true $(GO) test -count=1 -timeout 20m -run 'TestSlurm' -v ./distrib

# ref compiles the Coq development, checks its assumptions and builds the extracted reference
# certsym-ref (proofs/ref/_build/certsym-ref), which the refinement tests replay against.
ref: deps-proofs
	$(MAKE) -C proofs/coq check

check-proofs: ref
	$(MAKE) -C proofs/why3 check

# SEED and N reproduce or extend a run: make check-refinement SEED=1234 N=500
# SHARD=I/N runs shard I of N of the soak (with the same SEED in every shard) and SUMMARY names
# its JSON summary; go run ./refinement/merge FILE... combines them (deploy/README.md).
SEED ?=
N ?=
SHARD ?=
SUMMARY ?=
check-refinement: deps deps-nats ref
	@$(MAKE) --no-print-directory refinement-run

# refinement-run is check-refinement without its prerequisites (make check has made them).
# make check sets REFINEMENT_NO_LAYER_MUTATION: the layer's run once per injected fault
# (TestMutation) is check-refinement's; the packages' fault tests run in both.
REFINEMENT_UNIT_DONE ?=
REFINEMENT_NO_LAYER_MUTATION ?=
refinement-run:
	SEED=$(SEED) N=$(N) SHARD=$(SHARD) SUMMARY=$(SUMMARY) REFINEMENT_UNIT_DONE=$(REFINEMENT_UNIT_DONE) \
	  REFINEMENT_NO_LAYER_MUTATION=$(REFINEMENT_NO_LAYER_MUTATION) bash refinement/run.sh

# The whole-stream comparison at scale (refinement/streamcheck): the unpruned streams of the case
# studies and of random programs against certsym-ref's extracted run, STREAM states per program.
STREAM ?= 2500
check-refinement-stream: deps ref
	REFINEMENT_STREAM=$(STREAM) REFINEMENT_SEED=$(or $(SEED),1) REFINEMENT_N=$(or $(N),20) \
	  go test -count=1 -timeout 60m -run '^TestStream$$' -v ./refinement/

# Mutation score of the engine's symbolic core with the refinement layer alone as the test
# (gremlins; the package's test binary runs only refinement.ReducedRun, from a test file that
# refinement/mutation.sh overlays under the tag refinementonly). Long: see refinement/README.md.
mutation: deps ref
	bash refinement/mutation.sh

# The benchmarks of every package that has some (engine: case studies, scaling, monitoring,
# the insertion sort of 4 to 7 symbolic elements with arrays and forall, the solver caching's
# figures and the memory per pending state; verify: BenchmarkVerify), each
# run BENCH_COUNT times (one iteration a run); the raw lines go to bin/bench.txt, and
# scripts/benchsum prints each metric's median, quartiles and spread over the runs (gonum/stat).
# About 5 minutes with the default count on the 2-core machine (measured while it was shared).
BENCH_PKGS := $(sort $(dir $(shell grep -rl --include='*_test.go' '^func Benchmark' .)))
BENCH_COUNT ?= 5
bench: SHELL := /bin/bash
bench: deps
	@mkdir -p bin
	set -o pipefail; $(GO) test -run '^$$' -bench . -benchtime 1x -count $(BENCH_COUNT) -cpu 1 -timeout 30m $(BENCH_PKGS) \
	  | tee bin/bench.txt | $(GO) run ./scripts/benchsum

# certsym prove --infer against Frama-C's Eva plugin on the SV-COMP tasks of testdata/svcomp (the
# C programs in testdata/svcomp/c), LIMIT seconds per task and tool; the table goes to
# bin/bench-invariants.md (scripts/bench-invariants.sh, docs/performance.md). Not part of check.
LIMIT ?= 10
bench-invariants: build
	@bash scripts/install-deps.sh core framac
	@mkdir -p bin
	LIMIT='$(LIMIT)' CERTSYM=$(abspath $(BIN)) bash scripts/bench-invariants.sh bin/bench-invariants.md

clean:
	rm -rf bin

# The search strategies side by side (scripts/compare-strategies): states to the first bug and
# time of bfs, dfs, coverage, random-path and generational on every buggy program of testdata and
# the PyWiSE buggy programs. MAXSTATES and TIMEOUT bound each run.
MAXSTATES ?= 200000
TIMEOUT ?= 60s
compare-strategies: deps
	$(GO) run ./scripts/compare-strategies -max-states $(MAXSTATES) -timeout $(TIMEOUT)

# The fuzz targets of the command (cmd/certsym: FuzzPipeline, FuzzExec, FuzzConcolic, FuzzReplay,
# FuzzVerify), one after the other, FUZZTIME each (a duration, or a count such as 100000x), with
# FUZZ_PARALLEL workers (go test -parallel; 1 on a shared machine), each process limited to
# FUZZ_MEM MiB of address space (ulimit -v) and its Go heap to GOMEMLIMIT. Each target appends a
# line to cmd/certsym/testdata/fuzz/record.tsv (date, executions, rate, machine, result); a
# failing input stays in cmd/certsym/testdata/fuzz/<target>/, which go test replays, and is
# staged for commit (scripts/fuzz.sh). FUZZ picks targets: make fuzz FUZZ=FuzzExec FUZZTIME=1h
FUZZTIME ?= 10m
FUZZ ?= FuzzPipeline FuzzExec FuzzConcolic FuzzReplay FuzzVerify
FUZZ_PARALLEL ?= 1
FUZZ_MEM ?= 8192
fuzz: deps
	GO='$(GO)' FUZZTIME='$(FUZZTIME)' FUZZ='$(FUZZ)' FUZZ_PARALLEL='$(FUZZ_PARALLEL)' FUZZ_MEM='$(FUZZ_MEM)' bash scripts/fuzz.sh

# The soak (TestSoak, cmd/certsym/soak_test.go, run only when CERTSYM_SOAK is set): N random
# programs (refinement/gen; default 1000, from SEED) through run (with every artifact), run
# --shard and merge, run --loop-bound, exec, concolic, replay and verify (with --html and
# --sarif), each a real process stopped at a random moment by its --timeout or by SIGINT. Each must
# end with a parsable JSON report and whole output files; the summary gives per command the
# median and worst time from the deadline or signal to the end, and the runs later than 1 s.
# About 17 minutes for N=1000 on the 2-core machine under a load average of 15 (docs/performance.md).
soak: deps
	CERTSYM_SOAK=1 SOAK_N=$(or $(N),1000) SOAK_SEED=$(SEED) $(GO) test -count=1 -timeout 0 -run '^TestSoak$$' -v ./cmd/certsym

# TestShardMergeEqualsRun with every split on every program (2, 3 and 4 shards, each at two split
# levels); make check tries two splits per program, rotating over the corpus. Not part of make check.
check-shards: need-build
	CERTSYM_SHARD_SWEEP=1 $(GO) test -count=1 -timeout 60m -run '^TestShardMergeEqualsRun$$' ./cmd/certsym

check-workers: need-build
	CERTSYM_WORKERS_ALL=1 $(GO) test -count=1 -timeout 90m -run '^(TestVerifyWorkersCorpus|TestWorkersCorpus)$$' ./cmd/certsym

# The partitioned runs' comparisons on every program and case (make check takes one slice of
# them, rotating with the day: testprog.Sample). Not part of make check.
check-steal: deps
	CERTSYM_SAMPLE_ALL=1 $(GO) test -count=1 -timeout 90m -run '^(TestCorpus|TestGenerated|TestBalance)$$' ./engine/steal
	CERTSYM_SAMPLE_ALL=1 $(GO) test -count=1 -timeout 60m -run '^TestCompare$$' ./refinement/stealcheck
