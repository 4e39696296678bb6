#!/usr/bin/env bash
# Fills bench/.corpora/ (gitignored) with real code nobody here wrote, for benchmarks and large tests:
#   django, flask, requests, click, werkzeug  <- Debian 12 packages (apt-get download + dpkg-deb -x)
#   httpx, marshmallow, attr                  <- Debian 12 packages too, only with UNSEEN=1: corpora no
#                                                one tuned the completion context on (bench:context --corpora)
#   jinja2, markdown                          <- Debian 12 python3-jinja2 and python3-markdown, only with CALLERS=1: bench:callers' held-out corpora
#                                                (CALLERS=1 also fetches marshmallow)
#   effect                                    <- npm package effect@3.22.4 (363 .ts sources in src/)
#   tokio                                     <- Debian 12 librust-tokio-dev (the crate folder: src/, tests/, Cargo.toml)
#   rust-crates                               <- 10 Debian 12 librust-*-dev crates side by side (clap, serde, regex, ...)
#   scale/<package>                           <- only with SCALE=1: bench:scale's large Python packages (Django, the
#                                                standard library, sympy, pandas, scipy, astropy, twisted, sklearn),
#                                                each package's python folder as Debian installs it
# Each corpus lands in bench/.corpora/<name>/ as a plain directory: for Debian packages the
# extracted usr/lib/python3/dist-packages/<name>/ folder, for npm the package's src/ tree plus
# package.json and LICENSE (its compiled dist/ is left out so an index sees each module once).
# Versions actually fetched are written to bench/.corpora/VERSIONS. Re-running skips what is there;
# FORCE=1 refetches everything. Works as root on a fresh Debian 12 (runs apt-get update if needed).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="${CORPORA_DIR:-$HERE/.corpora}"
DEBIAN_PACKAGES=(python3-django python3-flask python3-requests python3-click python3-werkzeug)
# Held out from tuning (issue 19): fetched on demand by bench:context, which sets UNSEEN=1.
[[ "${UNSEEN:-0}" == 1 ]] && DEBIAN_PACKAGES+=(python3-httpx python3-marshmallow python3-attr)
# Held out from everything (issue 34): bench:callers' corpora besides Django, fetched on demand with CALLERS=1.
[[ "${CALLERS:-0}" == 1 ]] && DEBIAN_PACKAGES+=(python3-jinja2 python3-markdown python3-marshmallow)
NPM_TS_PACKAGE="effect@3.22.4"
NPM_TS_NAME="effect"

mkdir -p "$OUT"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/cartograph-corpora.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
VERSIONS="$OUT/VERSIONS"
touch "$VERSIONS"
[[ "${FORCE:-0}" == 1 ]] && : >"$VERSIONS"

log() { printf '[fetch-corpora] %s\n' "$*"; }

record_version() { # name, version line
  grep -v -E "^$1 " "$VERSIONS" >"$WORK/versions.tmp" || true
  printf '%s %s\n' "$1" "$2" >>"$WORK/versions.tmp"
  sort "$WORK/versions.tmp" >"$VERSIONS"
}

have_corpus() { # dir name, VERSIONS key
  [[ "${FORCE:-0}" != 1 && -d "$OUT/$1" ]] && grep -q -E "^$2 " "$VERSIONS"
}

count_files() { find "$1" -type f -name "$2" ! -name '*.d.ts' | wc -l; }

apt_updated=0
apt_download() { # package -> .deb in $WORK/debs
  mkdir -p "$WORK/debs"
  # apt drops privileges to _apt for downloads; a folder it can write avoids its "unsandboxed" warning.
  chmod 755 "$WORK"
  chmod 777 "$WORK/debs"
  if (cd "$WORK/debs" && apt-get download -q "$1" >/dev/null 2>"$WORK/apt.err"); then return 0; fi
  if [[ $apt_updated == 0 ]]; then
    log "apt-get download $1 failed ($(tail -1 "$WORK/apt.err")); running apt-get update"
    apt-get update -q >/dev/null
    apt_updated=1
    (cd "$WORK/debs" && apt-get download -q "$1" >/dev/null 2>"$WORK/apt.err") || { cat "$WORK/apt.err" >&2; return 1; }
  else
    cat "$WORK/apt.err" >&2
    return 1
  fi
}

for pkg in "${DEBIAN_PACKAGES[@]}"; do
  name="${pkg#python3-}"
  if have_corpus "$name" "$pkg"; then
    log "$name: present ($(count_files "$OUT/$name" '*.py') .py files), skipped"
    continue
  fi
  apt_download "$pkg"
  deb="$(ls "$WORK"/debs/"${pkg}"_*.deb | head -1)"
  version="$(dpkg-deb -f "$deb" Version)"
  dpkg-deb -x "$deb" "$WORK/x-$name"
  src="$WORK/x-$name/usr/lib/python3/dist-packages/$name"
  [[ -d "$src" ]] || { echo "fetch-corpora: $deb has no dist-packages/$name" >&2; exit 1; }
  rm -rf "$OUT/$name"
  mv "$src" "$OUT/$name"
  if [[ -f "$WORK/x-$name/usr/share/doc/$pkg/copyright" ]]; then
    cp "$WORK/x-$name/usr/share/doc/$pkg/copyright" "$OUT/$name.copyright"
  fi
  record_version "$pkg" "$version"
  log "$name: $pkg $version -> $OUT/$name ($(count_files "$OUT/$name" '*.py') .py files)"
done

npm_key="npm:${NPM_TS_PACKAGE%@*}"
if have_corpus "$NPM_TS_NAME" "$npm_key"; then
  log "$NPM_TS_NAME: present ($(count_files "$OUT/$NPM_TS_NAME" '*.ts') .ts files), skipped"
else
  tgz="$(cd "$WORK" && npm pack --silent "$NPM_TS_PACKAGE" 2>/dev/null | tail -1)"
  mkdir -p "$WORK/npm"
  tar xzf "$WORK/$tgz" -C "$WORK/npm"
  rm -rf "$OUT/$NPM_TS_NAME"
  mkdir -p "$OUT/$NPM_TS_NAME"
  mv "$WORK/npm/package/src" "$OUT/$NPM_TS_NAME/src"
  for f in package.json LICENSE README.md; do
    [[ -f "$WORK/npm/package/$f" ]] && cp "$WORK/npm/package/$f" "$OUT/$NPM_TS_NAME/"
  done
  version="$(node -p "require('$OUT/$NPM_TS_NAME/package.json').version")"
  record_version "$npm_key" "$version"
  log "$NPM_TS_NAME: npm $NPM_TS_PACKAGE -> $OUT/$NPM_TS_NAME ($(count_files "$OUT/$NPM_TS_NAME" '*.ts') .ts files)"
fi

# Rust: tokio from Debian (librust-tokio-dev ships the crate's sources under usr/share/cargo/registry/).
RUST_PACKAGE="librust-tokio-dev"
if have_corpus tokio "$RUST_PACKAGE"; then
  log "tokio: present ($(count_files "$OUT/tokio" '*.rs') .rs files), skipped"
else
  apt_download "$RUST_PACKAGE"
  deb="$(ls "$WORK"/debs/"${RUST_PACKAGE}"_*.deb | head -1)"
  version="$(dpkg-deb -f "$deb" Version)"
  dpkg-deb -x "$deb" "$WORK/x-tokio"
  src="$(ls -d "$WORK"/x-tokio/usr/share/cargo/registry/tokio-* | head -1)"
  rm -rf "$OUT/tokio"
  mv "$src" "$OUT/tokio"
  record_version "$RUST_PACKAGE" "$version"
  log "tokio: $RUST_PACKAGE $version -> $OUT/tokio ($(count_files "$OUT/tokio" '*.rs') .rs files)"
fi

# Rust: a set of crates that depend on each other (clap on clap_lex, serde_json on serde, itoa,
# ryu, indexmap; regex on regex-syntax), one folder per crate as Debian ships them: Rust stage 2's
# cross-crate resolution (a dependency present in the tree is resolved into it).
RUST_CRATES="librust-clap-dev librust-clap-lex-dev librust-clap-derive-dev librust-serde-dev librust-serde-json-dev librust-itoa-dev librust-ryu-dev librust-indexmap-dev librust-regex-dev librust-regex-syntax-dev"
if have_corpus rust-crates rust-crates; then
  log "rust-crates: present ($(count_files "$OUT/rust-crates" '*.rs') .rs files), skipped"
else
  rm -rf "$OUT/rust-crates" "$WORK/x-crates" && mkdir -p "$OUT/rust-crates"
  versions=""
  for package in $RUST_CRATES; do
    apt_download "$package"
    deb="$(ls "$WORK"/debs/"${package}"_*.deb | head -1)"
    versions="$versions $package=$(dpkg-deb -f "$deb" Version)"
    dpkg-deb -x "$deb" "$WORK/x-crates"
  done
  mv "$WORK"/x-crates/usr/share/cargo/registry/* "$OUT/rust-crates/"
  record_version rust-crates "${versions# }"
  log "rust-crates: ->$OUT/rust-crates ($(count_files "$OUT/rust-crates" '*.rs') .rs files)"
fi

# bench:scale: whole Python packages side by side (scale/<package>/), each as Debian installs it under
# usr/lib/python3*/ (compiled extensions included, as a user's tree would have them).
SCALE_PACKAGES="python3-django libpython3.11-stdlib python3-sympy python3-pandas python3-scipy python3-astropy python3-twisted python3-sklearn"
if [[ "${SCALE:-0}" == 1 ]]; then
  for package in $SCALE_PACKAGES; do
    if have_corpus "scale/$package" "scale:$package"; then
      log "scale/$package: present ($(count_files "$OUT/scale/$package" '*.py') .py files), skipped"
      continue
    fi
    apt_download "$package"
    deb="$(ls "$WORK"/debs/"${package}"_*.deb | head -1)"
    dpkg-deb -x "$deb" "$WORK/x-$package"
    rm -rf "$OUT/scale/$package" && mkdir -p "$OUT/scale"
    mv "$(ls -d "$WORK/x-$package"/usr/lib/python3* | head -1)" "$OUT/scale/$package"
    record_version "scale:$package" "$(dpkg-deb -f "$deb" Version)"
    log "scale/$package: -> $OUT/scale/$package ($(count_files "$OUT/scale/$package" '*.py') .py files)"
  done
fi

log "versions ($VERSIONS):"
sed 's/^/  /' "$VERSIONS"
