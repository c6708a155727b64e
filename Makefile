# certsym build, test and demo targets. Every target that needs Debian packages installs the
# missing ones first through scripts/install-deps.sh.

GO ?= go
export CGO_ENABLED := 1
BIN := bin/certsym

.PHONY: all build deps deps-proofs deps-browser deps-artifacts demo check check-go check-proofs check-refinement check-refinement-stream mutation ref bench clean compare-strategies

all: build

deps:
	@bash scripts/install-deps.sh core

deps-proofs:
	@bash scripts/install-deps.sh proofs

deps-browser:
	@bash scripts/install-deps.sh browser

# graphviz renders run --dot in a test, lcov reads run --lcov, groff renders certsym help --man.
deps-artifacts:
	@bash scripts/install-deps.sh graphviz lcov man

build: deps
	$(GO) build -o $(BIN) ./cmd/certsym

# The demo's run exits 1 (a bug); the target succeeds when that is what certsym answers.
DEMO := testdata/factorial_mutant_swapped_update.imp
demo: build
	@echo '$$ certsym run $(DEMO)'
	@./$(BIN) run $(DEMO); status=$$?; echo "(exit status $$status: 1 means a confirmed bug)"; test $$status -eq 1

check: check-proofs check-go check-refinement

check-go: deps deps-browser deps-artifacts ref
	$(GO) vet ./...
	CERTSYM_REQUIRE_CORPUS=1 $(GO) test -count=1 ./...

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
check-refinement: deps ref
	SEED=$(SEED) N=$(N) SHARD=$(SHARD) SUMMARY=$(SUMMARY) bash refinement/run.sh

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
# the insertion sort of 4 to 7 symbolic elements with arrays and forall (issue 13), the solver
# caching's figures and the memory per pending state (issue 17); verify: BenchmarkVerify), each
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

clean:
	rm -rf bin

# The search strategies side by side (scripts/compare-strategies): states to the first bug and
# time of bfs, dfs, coverage, random-path and generational on every buggy program of testdata and
# the PyWiSE buggy programs. MAXSTATES and TIMEOUT bound each run.
MAXSTATES ?= 200000
TIMEOUT ?= 60s
compare-strategies: deps
	$(GO) run ./scripts/compare-strategies -max-states $(MAXSTATES) -timeout $(TIMEOUT)
