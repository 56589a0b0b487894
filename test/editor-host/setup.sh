#!/usr/bin/env bash
# Installs the real editor the editor suites run in: Debian's chromium (+ ripgrep, and libkrb5-dev for
# code-server's native kerberos module), then code-server 4.100.3 + playwright-core into test/editor-host/
# from its own package-lock.json. Idempotent: when everything is in place it returns in well under a second.
# Only the npm registry and Debian's packages are reached (nothing is downloaded from GitHub or Microsoft).
set -euo pipefail
HOST_DIR="$(cd "$(dirname "$0")" && pwd)"
cd "$HOST_DIR"

# 1. Debian packages, only the missing ones (apt-get is slow even when it has nothing to do).
missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v rg >/dev/null || missing+=(ripgrep)
[ -f /usr/include/gssapi/gssapi.h ] || missing+=(libkrb5-dev)
command -v g++ >/dev/null || missing+=(g++)
command -v make >/dev/null || missing+=(make)
command -v python3 >/dev/null || missing+=(python3)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "editor host: installing Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# 2. npm packages, skipped when node_modules was installed from this very lockfile and its native parts exist.
VSCODE_MODULES="node_modules/code-server/lib/vscode/node_modules"
STAMP="node_modules/.editor-host-installed"
want="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want" ] \
  && [ -x "$VSCODE_MODULES/@vscode/ripgrep/bin/rg" ] && [ -f "$VSCODE_MODULES/node-pty/build/Release/pty.node" ]; then
  exit 0
fi

# @vscode/ripgrep's postinstall downloads rg from GitHub, which this machine cannot reach: seed its download
# cache with Debian's rg (the same 13.0.0), which it then unpacks instead.
RGCACHE="$(node -p "require('os').tmpdir()")/vscode-ripgrep-cache-1.15.11"
RGTAR="$RGCACHE/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"
mkdir -p "$RGCACHE"
[ -f "$RGTAR" ] || tar czf "$RGTAR" -C "$(dirname "$(command -v rg)")" rg

echo "editor host: installing code-server and playwright-core (about a minute: native modules are compiled)"
# The install scripts MUST run: code-server's postinstall installs VS Code's own modules and builds node-pty,
# argon2 builds from source. package.json's `allowScripts` approves exactly those two for npm 11's install-script
# policy. The environment below is read by those scripts, not by npm itself:
#   npm_config_unsafe_perm=true  code-server's postinstall refuses to run as root without it;
#   npm_config_yes=true          node-pty's build runs `npx node-gyp`, which must not stop to ask (user config may say yes=false);
#   npm_config_nodedir=/usr      node-gyp builds against the installed Node headers instead of downloading them.
rm -rf node_modules
log="$(mktemp)"
status=0
npm_config_unsafe_perm=true npm_config_yes=true npm_config_nodedir=/usr \
  npm ci --no-audit --no-fund --ignore-scripts=false >"$log" 2>&1 || status=$?
grep -v 'Unknown \(user\|env\) config' "$log" || true
rm -f "$log"
[ "$status" -eq 0 ] || { echo "editor host: npm ci failed (exit $status)" >&2; exit 1; }

# Prove the install really worked, so a silently skipped script fails here and not in the middle of a test run.
test -x "$VSCODE_MODULES/@vscode/ripgrep/bin/rg" || { echo "editor host: ripgrep missing: code-server's postinstall did not run" >&2; exit 1; }
test -f "$VSCODE_MODULES/node-pty/build/Release/pty.node" || { echo "editor host: node-pty was not built" >&2; exit 1; }
tmp="$(mktemp -d)"
XDG_DATA_HOME="$tmp" XDG_CONFIG_HOME="$tmp" XDG_CACHE_HOME="$tmp" node node_modules/code-server/out/node/entry.js --version --config /dev/null >/dev/null
rm -rf "$tmp"
echo "$want" > "$STAMP"
echo "editor host: ready"
