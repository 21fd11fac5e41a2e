#!/usr/bin/env bash
# Redis and PostgreSQL for n8n queue mode, as the project's own loopback processes.
#
#   services.sh ensure                     install redis-server and postgresql (apt) when missing
#   services.sh major                      print the installed PostgreSQL's major version
#   services.sh redis <port>               run Redis in the foreground on 127.0.0.1:<port>
#   services.sh postgres <port> <dir>      initdb into <dir> (trust auth), then run PostgreSQL in
#                                          the foreground on 127.0.0.1:<port> (socket dir <dir>);
#                                          as root, <dir>'s parent must be traversable by `postgres`
#
# Both servers replace this shell (exec), so whoever started the script stops the server by
# signalling that one process (its process group): the e2e harness does, also on failure.
# Nothing is persisted: Redis saves nothing, PostgreSQL's data lives in <dir>.
set -euo pipefail

die() {
	echo "services.sh: $*" >&2
	exit 2
}

postgres_bin_dir() {
	local dir
	for dir in /usr/lib/postgresql/*/bin; do
		[ -x "$dir/postgres" ] && { echo "$dir"; return 0; }
	done
	return 1
}

ensure() {
	local missing=()
	command -v redis-server >/dev/null || missing+=(redis-server)
	postgres_bin_dir >/dev/null || missing+=(postgresql)
	[ ${#missing[@]} -eq 0 ] && return 0
	local sudo=()
	[ "$(id -u)" -eq 0 ] || sudo=(sudo -n)
	echo "services.sh: installing ${missing[*]} (apt-get)" >&2
	"${sudo[@]}" apt-get update -qq >&2
	DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >&2
}

# PostgreSQL refuses to run as root: as root, run it as the `postgres` user the package creates
# (setpriv execs, so the server stays the process its starter signals).
as_db_user() {
	if [ "$(id -u)" -eq 0 ]; then
		as_db=(setpriv --reuid=postgres --regid=postgres --init-groups --)
	else
		as_db=()
	fi
}

major() {
	local bin
	bin=$(postgres_bin_dir) || die "PostgreSQL is not installed (run: services.sh ensure)"
	basename "$(dirname "$bin")"
}

redis() {
	local port=${1:?port}
	exec redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
		--protected-mode yes --loglevel warning
}

postgres() {
	local port=${1:?port} dir=${2:?dir}
	local bin
	bin=$(postgres_bin_dir) || die "PostgreSQL is not installed (run: services.sh ensure)"
	as_db_user
	mkdir -p "$dir"
	[ "$(id -u)" -eq 0 ] && chown postgres:postgres "$dir"
	chmod 700 "$dir"
	if [ ! -f "$dir/data/PG_VERSION" ]; then
		"${as_db[@]}" "$bin/initdb" -D "$dir/data" -A trust -U postgres --no-sync >/dev/null
	fi
	# fsync and full-page writes only guard against the machine losing power; a killed server (the fault tests'
	# outage) loses nothing without them. synchronous_commit stays on, as in production: off, a killed server drops
	# the last commits n8n was told were saved (an execution already answered 2xx vanished in a fault test).
	exec "${as_db[@]}" "$bin/postgres" -D "$dir/data" -p "$port" -k "$dir" \
		-c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off
}

command=${1:-}
shift || true
case "$command" in
	ensure) ensure ;;
	major) major ;;
	redis) redis "$@" ;;
	postgres) postgres "$@" ;;
	*) die "usage: services.sh ensure | major | redis <port> | postgres <port> <dir>" ;;
esac
