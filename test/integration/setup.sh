#!/usr/bin/env bash
# Installs what the real-VS-Code integration suite needs, outside the extension's own dependencies:
# Debian chromium/ripgrep/libkrb5-dev (only if missing) and, in a cache folder, code-server 4.100.3,
# playwright-core and mocha. Idempotent: a filled cache is reused. Prints the cache folder on stdout's last line.
set -euo pipefail
CACHE=${CARTOGRAPH_E2E_CACHE:-$HOME/.cache/cartograph-e2e}
mkdir -p "$CACHE"
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v rg >/dev/null 2>&1 || missing+=(ripgrep)
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
if [ ${#missing[@]} -gt 0 ]; then
  echo "e2e setup: apt-get install ${missing[*]}" >&2
  SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >&2
fi
CS="$CACHE/node_modules/code-server/out/node/entry.js"
if [ ! -f "$CACHE/node_modules/.bin/code-server" ] || [ ! -f "$CACHE/.code-server-ok" ]; then
  echo "e2e setup: installing code-server@4.100.3 into $CACHE" >&2
  # @vscode/ripgrep looks for its tarball in os.tmpdir() before downloading: hand it Debian's rg
  TMP=$(node -p 'require("os").tmpdir()')
  D="$TMP/vscode-ripgrep-cache-1.15.11"; mkdir -p "$D"
  RG=$(command -v rg)
  tar czf "$D/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$(dirname "$RG")" rg
  [ -f "$CACHE/package.json" ] || echo '{"name":"cartograph-e2e-cache","private":true}' > "$CACHE/package.json"
  npm_config_unsafe_perm=true npm_config_yes=true npm install --no-audit --no-fund --prefix "$CACHE" code-server@4.100.3 >&2
  touch "$CACHE/.code-server-ok"
fi
if [ ! -d "$CACHE/node_modules/playwright-core" ] || [ ! -d "$CACHE/node_modules/mocha" ]; then
  echo "e2e setup: installing playwright-core and mocha into $CACHE" >&2
  npm install --no-audit --no-fund --prefix "$CACHE" playwright-core@1 mocha@10 >&2
fi
echo "$CACHE"
