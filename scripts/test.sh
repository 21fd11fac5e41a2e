#!/usr/bin/env bash
# `npm test`: the whole suite, as CI runs it.
#   1. lint (n8n community-node rules), unused exports and import cycles in nodes/ and credentials/, imports
#      from test/ in dev/, nodes/, credentials/ and scripts/ (scripts/check-exports.js), formatting (Prettier) and
#      type check of everything, tests included
#   2. build (bundle)
#   3. package size and one bundled graphql (scripts/package-size.js); n8n's community-package scan of the
#      source and of the packed tarball (scripts/scan.sh); n8n's official CLI lint, `n8n-node lint` with its
#      default configuration in strict mode, on the published sources (scripts/node-cli-lint.sh)
#   4. unit and integration tests against the emulators (jest)
#   5. end-to-end in real n8n 1.123.81 and 2.40.7 (installed once into a cache outside the repo)
#   6. end-to-end in n8n queue mode (Redis, PostgreSQL, workers, webhook processors)
# Set SKIP_E2E=1 to stop after step 4. Prints one closing line "N passed, N failed" over all jest runs.
set -euo pipefail
cd "$(dirname "$0")/.."
results=.build/test-results
mkdir -p "$results"
rm -f "$results"/*.json
trap 'node scripts/test-summary.js "$results"' EXIT

npm run lint
node scripts/check-exports.js
npm run format:check
npm run typecheck
npm run build
node scripts/package-size.js
bash scripts/scan.sh
bash scripts/node-cli-lint.sh
npx jest --json --outputFile="$results/unit.json"
if [ "${SKIP_E2E:-}" != "1" ]; then
	npm run e2e -- --json --outputFile="$PWD/$results/e2e.json"
	npm run e2e:queue -- --json --outputFile="$PWD/$results/e2e-queue.json"
fi
