# Entry points for a fresh Debian machine. `make demo` and `make test` each install what they need.
BUILD_DIR ?= build
JOBS ?= $(shell nproc)

.PHONY: deps build demo test bench clean format

deps:
	./scripts/install_deps.sh

build: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(BUILD_DIR) -j $(JOBS)

demo: build
	./scripts/demo.sh $(BUILD_DIR)/engram

test: build
	./scripts/setup_schemathesis.sh || [ $$? -eq 77 ]
	./scripts/setup_hermes.sh || [ $$? -eq 77 ]
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

MEMORYBANK_DATA ?= ../shared/data/memorybank

bench: build
	$(BUILD_DIR)/engram-bench locomo --data ../shared/data/locomo/locomo_dev.json
	@if [ -d $(MEMORYBANK_DATA) ]; then \
	  for lang in cn en; do \
	    $(BUILD_DIR)/engram-bench memorybank --data $(MEMORYBANK_DATA) --lang $$lang \
	      --gold $(MEMORYBANK_DATA)/gold_$${lang}_dev.jsonl || exit $$?; \
	  done; \
	else \
	  echo "make bench: $(MEMORYBANK_DATA) not found, skipping the MemoryBank bench"; \
	fi

format:
	clang-format -i $$(git ls-files '*.h' '*.cc')

clean:
	rm -rf $(BUILD_DIR)
