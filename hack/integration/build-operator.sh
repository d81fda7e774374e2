#!/usr/bin/env bash
# Wires kmsguard into an operator checkout through its entry point and proves that the result builds, vets and
# passes the operator's own unit tests, as a reviewer of the integration PR would check it.
#
#   hack/integration/build-operator.sh OPERATOR_CHECKOUT
#
# OPERATOR_CHECKOUT is a clean git checkout of github.com/openshift/cluster-kube-apiserver-operator at c813e820 (the
# commit the patch is written against; another commit may not apply). The script changes it in place:
#   1. applies hack/integration/<operator>.patch (the wiring in pkg/operator/starter.go);
#   2. points the operator's go.mod at this kmsguard checkout, and its library-go at third_party/library-go (the
#      Go module proxy does not serve the operator's library-go; the copy is that exact commit);
#   3. go mod tidy, go mod vendor;
#   4. go build ./..., go vet ./pkg/operator/..., go test ./pkg/operator/...
# and prints each step's time. Undo with: git -C OPERATOR_CHECKOUT checkout . && git -C OPERATOR_CHECKOUT clean -fdq
#
# Not part of make test: CI has no copy of the operators. It needs the Go module proxy.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
log() { echo "[integration $(date +%H:%M:%S)] $*" >&2; }
fail() { log "FAILED: $*"; exit 1; }

[[ $# -eq 1 ]] || { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2; }
dir=$(cd "$1" && pwd)
[[ -f "${dir}/go.mod" ]] || fail "${dir} has no go.mod"
module=$(awk '$1 == "module" {print $2; exit}' "${dir}/go.mod")
name=${module##*/}
patch="${ROOT}/hack/integration/${name}.patch"
[[ -f "${patch}" ]] || fail "no patch for ${module} (looked for ${patch})"
if [[ -n "$(git -C "${dir}" status --porcelain 2>/dev/null)" ]]; then
  fail "${dir} is not a clean checkout; the script changes it in place"
fi

export GOWORK=off GOFLAGS=
step() {
  local what=$1
  shift
  log "${what} ..."
  local start=${SECONDS}
  "$@" || fail "${what}"
  log "${what}: done in $((SECONDS - start)) s"
}

cd "${dir}"
log "${module} at $(git rev-parse --short HEAD 2>/dev/null || echo '?'), kmsguard at $(git -C "${ROOT}" rev-parse --short HEAD)"
step "git apply ${patch##*/}" git apply "${patch}"
step "go.mod: require kmsguard from ${ROOT}" go mod edit \
  -require=github.com/kmsguard/kmsguard@v0.0.0-00010101000000-000000000000 \
  -replace=github.com/kmsguard/kmsguard="${ROOT}" \
  -replace=github.com/openshift/library-go="${ROOT}/third_party/library-go"
step "go mod tidy" go mod tidy
step "go mod vendor" go mod vendor
# What vendoring kmsguard changed in the operator's module graph, besides kmsguard itself and the library-go
# replace: nothing is the goal (make verify-operator-pins in kmsguard).
log "requirements changed by vendoring kmsguard:"
git diff --unified=0 go.mod | grep '^[-+]\s' | grep -v 'kmsguard\|library-go' >&2 || log "  none"
step "go build ./..." go build ./...
step "go vet ./pkg/operator/..." go vet ./pkg/operator/...
step "go test ./pkg/operator/..." go test -count=1 ./pkg/operator/...
log "${module}: builds, vets and passes its unit tests with kmsguard wired in"
