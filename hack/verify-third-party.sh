#!/usr/bin/env bash
# Checks that each copy under third_party/ is exactly what hack/update-third-party.sh copied from the commit its
# manifest third_party/<name>.sha256 names: every file's checksum matches, and no file was added or removed. A
# change to a copy belongs upstream (or, for kube-apiserver-operator, in hack/integration's patch), not in the copy.
# For library-go it also checks that go.mod requires that commit and replaces library-go with the copy.
#
# Usage: hack/verify-third-party.sh                    check every copy (make verify)
#        hack/verify-third-party.sh --write NAME ID    record the manifest of copy NAME at commit ID
#                                                      (hack/update-third-party.sh does)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "${ROOT}/third_party"

# The repository each copy is of, named on its manifest's first line.
declare -A REPOSITORY=(
  [library-go]=github.com/openshift/library-go
  [cluster-kube-apiserver-operator]=github.com/openshift/cluster-kube-apiserver-operator
)

checksums() {
  find "$1" -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum
}

if [[ "${1:-}" == "--write" ]]; then
  [[ $# -eq 3 && -n "${REPOSITORY[$2]:-}" ]] || { echo "usage: $0 --write NAME COMMIT (NAME: ${!REPOSITORY[*]})" >&2; exit 2; }
  {
    echo "# ${REPOSITORY[$2]} commit $3, copied by hack/update-third-party.sh"
    checksums "$2"
  } >"$2.sha256"
  exit 0
fi

# commit_of prints the commit a manifest records.
commit_of() {
  local commit
  commit=$(sed -n '1s/.* commit \([0-9a-f]\{40\}\),.*/\1/p' "$1.sha256")
  [[ -n "$commit" ]] || { echo "third_party/$1.sha256: no commit on its first line" >&2; return 1; }
  echo "$commit"
}

status=0
for name in $(printf '%s\n' "${!REPOSITORY[@]}" | sort); do
  [[ -f "${name}.sha256" ]] || { echo "third_party/${name}.sha256 is missing" >&2; status=1; continue; }
  commit=$(commit_of "${name}") || { status=1; continue; }
  if [[ "${name}" == library-go ]]; then
    # The replace must point at the copy, and the copy must be the version go.mod requires.
    required=$(awk '$1 == "github.com/openshift/library-go" && $2 ~ /^v/ {print $2; exit}' "$ROOT/go.mod")
    if ! grep -Eq '^replace github.com/openshift/library-go => \./third_party/library-go$' "$ROOT/go.mod"; then
      echo "go.mod must replace github.com/openshift/library-go with ./third_party/library-go" >&2
      status=1
    fi
    if [[ "$required" != *"-${commit:0:12}" ]]; then
      echo "go.mod requires library-go ${required}, but third_party/library-go is ${commit}" >&2
      status=1
    fi
  fi
  diff=$(mktemp)
  if ! diff -u <(sed 1d "${name}.sha256") <(checksums "${name}") >"${diff}"; then
    echo "third_party/${name} differs from ${REPOSITORY[$name]} ${commit} as recorded in third_party/${name}.sha256:" >&2
    grep '^[-+][0-9a-f]' "${diff}" | head -20 >&2
    echo "refresh it with hack/update-third-party.sh ${name}, never by hand" >&2
    status=1
  else
    echo "third_party/${name}: ${REPOSITORY[$name]} ${commit}, $(sed 1d "${name}.sha256" | wc -l) files unmodified"
  fi
  rm -f "${diff}"
done
exit "${status}"
