#!/usr/bin/env bash
# `npm test`: the whole suite, as CI runs it.
#   1. lint of everything (ESLint: typescript-eslint's type-aware rules, import cycles, imports against the grain,
#      n8n's community-node rules on the published code), unused files, exports and dependencies (knip),
#      formatting (Prettier) and type check of everything, tests included
#   2. build (bundle)
#   3. the published package.json against what `npm pack` packs (publint); package size and one bundled graphql
#      (scripts/package-size.js); n8n's community-package scan of the source and of the packed tarball
#      (scripts/scan.sh); n8n's official CLI lint, `n8n-node lint` with its default configuration in strict mode,
#      on the published sources (scripts/node-cli-lint.sh)
#   4. unit and integration tests against the emulators (jest)
#   5. end-to-end in real n8n 1.123.81 and 2.40.7 (installed once into a cache outside the repo)
#   6. end-to-end in n8n queue mode (Redis, PostgreSQL, workers, webhook processors)
# Set SKIP_E2E=1 to stop after step 4. Prints one closing line "N passed, N failed" over all jest runs.
set -euo pipefail
cd "$(dirname "$0")/.."
results=.build/test-results
mkdir -p "$results"
rm -f "$results"/*.json "$results"/*.log
trap 'node scripts/test-summary.js "$results"' EXIT

# On a cold machine, what steps 5-6 need (Chromium, Redis and PostgreSQL, both n8n versions) installs in the
# background from the start; the steps wait for it (every install is idempotent and locked) and repeat a failed one.
prepare_pid=
if [ "${SKIP_E2E:-}" != "1" ]; then
	(
		set -e
		bash scripts/install-chromium.sh
		bash scripts/queue/services.sh ensure
		node scripts/run-ts.js dev/e2e/run.ts --install-only
	) >"$results/prepare.log" 2>&1 &
	prepare_pid=$!
fi

# Steps 1-3 in two lanes at once (each lane is one process at a time; CI has 2 cores); each lane's output is printed
# when it ends, and the run stops if either failed.
lane() {
	local name=$1
	shift
	local log="$results/$name.log"
	(
		set -e
		for step in "$@"; do
			echo "---- $step"
			bash -c "$step"
		done
	) >"$log" 2>&1
}
lane checks 'npm run lint' 'npm run knip' 'npm run format:check' 'npm run typecheck' &
checks_pid=$!
lane package 'npm run build' 'npm run publint' 'node scripts/package-size.js' 'bash scripts/scan.sh' 'bash scripts/node-cli-lint.sh' &
package_pid=$!
checks_status=0
wait "$checks_pid" || checks_status=$?
package_status=0
wait "$package_pid" || package_status=$?
cat "$results/checks.log" "$results/package.log"
if [ "$checks_status" -ne 0 ] || [ "$package_status" -ne 0 ]; then
	echo "npm test: lint, type check or package checks failed (see above)" >&2
	exit 1
fi
npx jest --json --outputFile="$results/unit.json"
if [ "${SKIP_E2E:-}" != "1" ]; then
	if ! wait "$prepare_pid"; then
		cat "$results/prepare.log"
		echo "npm test: installing what the end-to-end tests need failed (above); the tests try once more" >&2
	fi
	npm run e2e -- --json --outputFile="$PWD/$results/e2e.json"
	npm run e2e:queue -- --json --outputFile="$PWD/$results/e2e-queue.json"
fi
