#!/usr/bin/env bash
# Debian's Chromium for the browser tests (test/e2e/editor-*.test.ts) and `npm run screenshots`.
# A no-op when the browser is already there (CHROMIUM, default /usr/bin/chromium). Playwright's own
# browser download is not reachable from CI; playwright-core drives this one instead.
# Installs with apt-get as root or with password-less sudo (as scripts/queue/services.sh); otherwise says what to run.
set -euo pipefail
chromium="${CHROMIUM:-/usr/bin/chromium}"
if [ -x "$chromium" ]; then
	exit 0
fi
sudo=()
if [ "$(id -u)" != "0" ]; then
	if ! sudo -n true 2>/dev/null; then
		echo "install-chromium: $chromium missing; run: sudo apt-get install -y chromium" >&2
		exit 1
	fi
	sudo=(sudo -n)
fi
start=$(date +%s)
export DEBIAN_FRONTEND=noninteractive
# The package lists are fetched only when the local ones are missing or out of date (the install fails).
if ! "${sudo[@]}" apt-get install -y -qq --no-install-recommends chromium >/dev/null 2>&1; then
	"${sudo[@]}" apt-get update -qq
	"${sudo[@]}" apt-get install -y -qq --no-install-recommends chromium >/dev/null
fi
echo "install-chromium: installed $("$chromium" --version 2>/dev/null) in $(($(date +%s) - start)) s"
