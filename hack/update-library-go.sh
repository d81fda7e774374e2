#!/usr/bin/env bash
# Refreshes third_party/library-go, the copy of github.com/openshift/library-go that go.mod's `replace` points
# at, and its manifest third_party/library-go.sha256.
#
# Why a copy: kube-apiserver-operator and openshift-apiserver-operator pin library-go versions that the Go module
# proxy does not serve (it answers "not available" for every pseudo-version after 0c9fbc9f043a). kmsguard must
# compile against exactly what they compile against, so it carries that commit's source. A consumer ignores
# kmsguard's `replace` and builds against its own, identical, library-go. Delete the copy, the manifest and the
# `replace` once the proxy serves the pinned version.
#
# What is copied: LICENSE, go.mod, go.sum, pkg/ and test/ (the operators' e2e tests import test/library) at
# COMMIT, without *_test.go files, testdata/ directories and OWNERS files (library-go's approvers are not this
# repository's). Nothing else is changed.
#
# Usage: hack/update-library-go.sh LIBRARY_GO_GIT_DIR COMMIT
#   LIBRARY_GO_GIT_DIR  a clone (or bare git directory) of github.com/openshift/library-go that has COMMIT
#   COMMIT              the full commit id the operators pin (go.mod's pseudo-version names its first 12 digits)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DEST="${ROOT}/third_party/library-go"
MANIFEST="${ROOT}/third_party/library-go.sha256"

if [[ $# -ne 2 ]]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
src=$1
commit=$(git --git-dir="$(git -C "$src" rev-parse --absolute-git-dir 2>/dev/null || echo "$src")" rev-parse --verify "$2^{commit}")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git --git-dir="$(git -C "$src" rev-parse --absolute-git-dir 2>/dev/null || echo "$src")" archive "$commit" LICENSE go.mod go.sum pkg test |
  tar -x -C "$tmp"
find "$tmp" \( -name '*_test.go' -o -name OWNERS \) -type f -delete
find "$tmp" -type d -name testdata -prune -exec rm -rf {} +
find "$tmp" -type d -empty -delete

rm -rf "$DEST"
mkdir -p "$(dirname "$DEST")"
mv "$tmp" "$DEST"
trap - EXIT
chmod -R u+rwX,go+rX "$DEST"

"${ROOT}/hack/verify-library-go.sh" --write "$commit"
echo "third_party/library-go is github.com/openshift/library-go at ${commit}"
