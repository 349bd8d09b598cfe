# Developer shortcuts; every target is a plain go or script command.
.PHONY: bench bench-quick robustness robustness-quick

# Benchmark against the floors, go vet and contextcheck; updates docs/performance.md.
bench:
	go run ./bench -write docs/performance.md

# Smoke test of the benchmark (< 2 minutes on an idle 2-core machine).
bench-quick:
	go run ./bench -quick

robustness:
	scripts/robustness.sh

robustness-quick:
	scripts/robustness.sh --quick
