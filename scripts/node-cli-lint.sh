#!/usr/bin/env bash
# n8n's official node CLI lint (`n8n-node lint` from @n8n/node-cli), as n8n asks verified-node authors to run it:
# its unmodified default ESLint configuration, in strict mode (package.json "n8n.strict": true makes the CLI refuse
# any other eslint.config.mjs), on the package as published: package.json, tsconfig.json, nodes/ and credentials/.
# The CLI lints the whole folder it runs in, and this repository also holds tests, emulators and scripts that are
# not published, so it runs on a staged copy. Our own `npm run lint` (eslint.config.mjs) adds n8n's classic rule
# sets on top and stays the one developers run.
# The CLI (pinned in scripts/node-cli/package-lock.json, about 700 MB) is installed once into a cache outside the
# repo: ${ARCHIVE_N8N_CACHE:-~/.cache/n8n-nodes-archive-services}/node-cli. Exits non-zero on any problem, warnings
# included.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"

cache_dir="${ARCHIVE_N8N_CACHE:-$HOME/.cache/n8n-nodes-archive-services}/node-cli"
pin_hash="$(cat scripts/node-cli/package.json scripts/node-cli/package-lock.json | sha256sum | cut -c1-16)"
marker="$cache_dir/.install-ok-$pin_hash"

install_cli() {
	echo "[node-cli] installing @n8n/node-cli into $cache_dir" >&2
	rm -rf "$cache_dir"
	mkdir -p "$cache_dir"
	cp scripts/node-cli/package.json scripts/node-cli/package-lock.json "$cache_dir/"
	# As scripts/scan.sh: from the cache dir, no install scripts, peers installed.
	(cd "$cache_dir" && npm ci --ignore-scripts --legacy-peer-deps=false --no-audit --no-fund --loglevel=error >&2)
	touch "$marker"
}
[[ -f "$marker" && -x "$cache_dir/node_modules/.bin/n8n-node" ]] || install_cli

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
cp -r "$repo/package.json" "$repo/tsconfig.json" "$repo/nodes" "$repo/credentials" "$stage/"
# The CLI's own template, byte for byte: strict mode compares eslint.config.mjs with it.
cp "$cache_dir/node_modules/@n8n/node-cli/dist/template/templates/shared/default/eslint.config.mjs" "$stage/"
ln -s "$cache_dir/node_modules" "$stage/node_modules"

output="$(cd "$stage" && "$cache_dir/node_modules/.bin/n8n-node" lint 2>&1)" || {
	echo "$output"
	echo "[node-cli] n8n-node lint failed" >&2
	exit 1
}
# Warnings do not fail the CLI; they fail here.
if grep -qE '[0-9]+ problems? \(' <<<"$output"; then
	echo "$output"
	echo "[node-cli] n8n-node lint reported problems" >&2
	exit 1
fi
echo "[node-cli] n8n-node lint $(node -p "require('$cache_dir/node_modules/@n8n/node-cli/package.json').version"): 0 problems on nodes/, credentials/ and package.json"
