#!/usr/bin/env bash
# n8n's community-package scan, as n8n runs it before it verifies a package (see scripts/scan.mjs):
#   source leg:  package.json and {nodes,credentials}/**/*.{js,ts,json} of this tree
#   tarball leg: **/*.js and package.json of what `npm pack` would publish (needs `npm run build` first)
# The scanner (pinned in scripts/scanner/package-lock.json) is installed once into a cache outside the repo:
# ${ARCHIVE_N8N_CACHE:-~/.cache/n8n-nodes-archive-services}/scanner. Exits non-zero on any scan error.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"

cache_dir="${ARCHIVE_N8N_CACHE:-$HOME/.cache/n8n-nodes-archive-services}/scanner"
pin_hash="$(cat scripts/scanner/package.json scripts/scanner/package-lock.json | sha256sum | cut -c1-16)"
marker="$cache_dir/.install-ok-$pin_hash"

install_scanner() {
	echo "[scan] installing @n8n/scan-community-package into $cache_dir" >&2
	rm -rf "$cache_dir"
	mkdir -p "$cache_dir"
	cp scripts/scanner/package.json scripts/scanner/package-lock.json "$cache_dir/"
	# From the cache dir, so the repo's .npmrc does not apply; no install scripts are needed (ESLint only). Under
	# `npm test`, npm hands the repo's config to child processes as npm_config_* variables: legacy-peer-deps would
	# leave out the ESLint plugin's peer n8n-workflow, so it is turned off here explicitly.
	(cd "$cache_dir" && npm ci --ignore-scripts --legacy-peer-deps=false --no-audit --no-fund --loglevel=error >&2)
	touch "$marker"
}
# The marker is written only after a complete install; n8n-workflow (a peer) is checked too, since an install made
# with legacy-peer-deps lacks it.
[[ -f "$marker" && -d "$cache_dir/node_modules/n8n-workflow" ]] || install_scanner

# The tarball leg's file patterns are not exported by the scanner: make sure ours are still the ones it uses.
scanner_src="$cache_dir/node_modules/@n8n/scan-community-package/scanner/scanner.mjs"
grep -qF "analyzePackage(packageDir, ['**/*.js', 'package.json'])" "$scanner_src" ||
	{ echo "[scan] the installed scanner's tarball-leg patterns changed: update scripts/scan.mjs" >&2; exit 1; }

[[ -d dist ]] || { echo "[scan] dist/ is missing: run npm run build first" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# --ignore-scripts: pack the dist/ just built instead of building again (prepack).
tarball="$(npm pack --ignore-scripts --silent --pack-destination "$work" | tail -n 1)"
mkdir "$work/package"
tar -xzf "$work/$tarball" -C "$work/package" --strip-components=1

node scripts/scan.mjs "$cache_dir" "$repo" "$work/package"
