#!/usr/bin/env bash
# Java corpora for the benchmarks (issue 16), into bench/.corpora/ like fetch-corpora.sh:
#   gson        <- the shared corpus ../shared/corpora/gson-9835b6f90.tar.gz (google/gson, Apache-2.0),
#                  unpacked whole (264 .java files: the library, its tests, extras, proto, metrics)
#   jdk17-util  <- Debian 12 package openjdk-17-source: java.base/java/util/ of the JDK's src.zip
#                  (354 .java files, 229k lines; GPLv2 with the Classpath exception)
# Re-running skips what is there; FORCE=1 refetches.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="${CORPORA_DIR:-$HERE/.corpora}"
SHARED="${SHARED_CORPORA:-$HERE/../../shared/corpora}"
mkdir -p "$OUT"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/cartograph-java-corpora.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
log() { printf '[fetch-java-corpora] %s\n' "$*"; }

if [[ "${FORCE:-0}" != 1 && -d "$OUT/gson" ]]; then
  log "gson: present, skipped"
elif [[ -f "$SHARED/gson-9835b6f90.tar.gz" ]]; then
  tar xzf "$SHARED/gson-9835b6f90.tar.gz" -C "$WORK"
  rm -rf "$OUT/gson"
  mv "$WORK/gson" "$OUT/gson"
  log "gson: 9835b6f90 -> $OUT/gson ($(find "$OUT/gson" -name '*.java' | wc -l) .java files)"
else
  log "gson: $SHARED/gson-9835b6f90.tar.gz not found, skipped"
fi

if [[ "${FORCE:-0}" != 1 && -d "$OUT/jdk17-util" ]]; then
  log "jdk17-util: present, skipped"
else
  mkdir -p "$WORK/debs" && chmod 755 "$WORK" && chmod 777 "$WORK/debs"
  (cd "$WORK/debs" && apt-get download -q openjdk-17-source >/dev/null 2>&1) || { apt-get update -q >/dev/null; (cd "$WORK/debs" && apt-get download -q openjdk-17-source >/dev/null); }
  deb="$(ls "$WORK"/debs/openjdk-17-source_*.deb | head -1)"
  dpkg-deb -x "$deb" "$WORK/x"
  (cd "$WORK" && unzip -q x/usr/lib/jvm/openjdk-17/lib/src.zip 'java.base/java/util/*')
  rm -rf "$OUT/jdk17-util"
  mv "$WORK/java.base" "$OUT/jdk17-util"
  log "jdk17-util: openjdk-17-source $(dpkg-deb -f "$deb" Version) -> $OUT/jdk17-util ($(find "$OUT/jdk17-util" -name '*.java' | wc -l) .java files)"
fi
