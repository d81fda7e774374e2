#!/usr/bin/env bash
# Refreshes a copy under third_party/ of a repository that the Go module proxy does not serve at the commit
# kmsguard must build against, and its manifest third_party/<name>.sha256 (hack/verify-third-party.sh checks it).
#
#   library-go                       github.com/openshift/library-go, which go.mod's `replace` points at. Both
#                                    operators pin a library-go the proxy answers "not available" for (every
#                                    pseudo-version after 0c9fbc9f043a); kmsguard compiles against exactly that
#                                    commit. A consumer ignores kmsguard's `replace` and builds against its own,
#                                    identical, library-go. Copied: LICENSE, go.mod, go.sum, pkg/ and test/ (the
#                                    operators' e2e tests import test/library), without *_test.go files, testdata/
#                                    directories and OWNERS files (library-go's approvers are not this repository's).
#   cluster-kube-apiserver-operator  github.com/openshift/cluster-kube-apiserver-operator (the proxy answers 403 for
#                                    the commit the integration patch is written against). make
#                                    kube-apiserver-operator applies hack/integration/cluster-kube-apiserver-operator.patch
#                                    to a copy of it and builds the binary the lab runs. Copied: LICENSE, go.mod,
#                                    go.sum, cmd/, pkg/ and bindata/, tests included (the integration script runs
#                                    the operator's unit tests), without its vendor/ (its dependencies come from the
#                                    proxy) and OWNERS files.
#
# Nothing else is changed. Delete a copy, its manifest and what points at it once the proxy serves the commit.
#
# Usage: hack/update-third-party.sh NAME GIT_DIR COMMIT
#   NAME     library-go or cluster-kube-apiserver-operator
#   GIT_DIR  a clone (or bare git directory) of the repository that has COMMIT
#   COMMIT   the full commit id (for library-go, the one go.mod's pseudo-version names the first 12 digits of)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

if [[ $# -ne 3 ]]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
name=$1
case "${name}" in
  library-go) paths=(LICENSE go.mod go.sum pkg test) tests=false ;;
  cluster-kube-apiserver-operator) paths=(LICENSE go.mod go.sum cmd pkg bindata) tests=true ;;
  *) echo "unknown copy ${name}: library-go or cluster-kube-apiserver-operator" >&2; exit 2 ;;
esac
git_dir=$(git -C "$2" rev-parse --absolute-git-dir 2>/dev/null || echo "$2")
commit=$(git --git-dir="${git_dir}" rev-parse --verify "$3^{commit}")
DEST="${ROOT}/third_party/${name}"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git --git-dir="${git_dir}" archive "$commit" "${paths[@]}" | tar -x -C "$tmp"
find "$tmp" -name OWNERS -type f -delete
if ! ${tests}; then
  find "$tmp" -name '*_test.go' -type f -delete
  find "$tmp" -type d -name testdata -prune -exec rm -rf {} +
fi
find "$tmp" -type d -empty -delete

rm -rf "$DEST"
mkdir -p "$(dirname "$DEST")"
mv "$tmp" "$DEST"
trap - EXIT
chmod -R u+rwX,go+rX "$DEST"

"${ROOT}/hack/verify-third-party.sh" --write "${name}" "$commit"
echo "third_party/${name} is $(sed -n '1s/^# \([^ ]*\) commit.*/\1/p' "${ROOT}/third_party/${name}.sha256") at ${commit}"
