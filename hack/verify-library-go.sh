#!/usr/bin/env bash
# Checks that third_party/library-go is exactly what hack/update-library-go.sh copied from the commit that
# third_party/library-go.sha256 names: every file's checksum matches, and no file was added or removed. A change
# to library-go belongs upstream, not in the copy.
#
# Usage: hack/verify-library-go.sh             check (make verify)
#        hack/verify-library-go.sh --write ID  record the manifest for commit ID (hack/update-library-go.sh does)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "${ROOT}/third_party"
MANIFEST=library-go.sha256

checksums() {
  find library-go -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum
}

if [[ "${1:-}" == "--write" ]]; then
  {
    echo "# github.com/openshift/library-go commit $2, copied by hack/update-library-go.sh"
    checksums
  } >"$MANIFEST"
  exit 0
fi

commit=$(sed -n '1s/.* commit \([0-9a-f]\{40\}\),.*/\1/p' "$MANIFEST")
[[ -n "$commit" ]] || { echo "third_party/${MANIFEST}: no commit on its first line" >&2; exit 1; }
# The replace must point at the copy, and the copy must be the version go.mod requires.
required=$(awk '$1 == "github.com/openshift/library-go" && $2 ~ /^v/ {print $2; exit}' "$ROOT/go.mod")
if ! grep -Eq '^replace github.com/openshift/library-go => \./third_party/library-go$' "$ROOT/go.mod"; then
  echo "go.mod must replace github.com/openshift/library-go with ./third_party/library-go" >&2
  exit 1
fi
if [[ "$required" != *"-${commit:0:12}" ]]; then
  echo "go.mod requires library-go ${required}, but third_party/library-go is ${commit}" >&2
  exit 1
fi
if ! diff -u <(sed 1d "$MANIFEST") <(checksums) >/tmp/library-go-manifest.diff; then
  echo "third_party/library-go differs from library-go ${commit} as recorded in third_party/${MANIFEST}:" >&2
  grep '^[-+][0-9a-f]' /tmp/library-go-manifest.diff | head -20 >&2
  echo "refresh it with hack/update-library-go.sh, never by hand" >&2
  exit 1
fi
echo "third_party/library-go: library-go ${commit}, $(sed 1d "$MANIFEST" | wc -l) files unmodified"
