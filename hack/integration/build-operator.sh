#!/usr/bin/env bash
# Wires kmsguard into an operator checkout through its entry point and proves that the result builds, vets and
# passes the operator's own unit tests, as a reviewer of the integration PR would check it.
#
#   hack/integration/build-operator.sh OPERATOR_CHECKOUT
#
# OPERATOR_CHECKOUT is a clean git checkout of github.com/openshift/cluster-kube-apiserver-operator at c813e820 or of
# github.com/openshift/cluster-openshift-apiserver-operator at 8206430b (the commits the patches are written
# against; another commit may not apply). The script changes it in place:
#   1. wires kmsguard in with hack/integration/wire-operator.sh, as the lab's binary is built
#      (hack/integration/build-kube-apiserver-operator.sh): applies hack/integration/<operator>.patch, points
#      go.mod at this checkout and third_party/library-go;
#   2. go mod tidy, go mod vendor;
#   3. go build ./..., go vet ./pkg/operator/..., go test ./pkg/operator/...
# and prints each step's time. Undo with: git -C OPERATOR_CHECKOUT checkout . && git -C OPERATOR_CHECKOUT clean -fdq
#
# Not part of make test: it needs a checkout of the operator, and the operator's unit tests take minutes. It
# needs the Go module proxy.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[[ $# -eq 1 ]] || { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2; }
operator_tree "$1"
if [[ -n "$(git -C "${dir}" status --porcelain 2>/dev/null)" ]]; then
  fail "${dir} is not a clean checkout; the script changes it in place"
fi

export GOWORK=off GOFLAGS=

cd "${dir}"
log "${module} at $(git rev-parse --short HEAD 2>/dev/null || echo '?'), kmsguard at $(git -C "${ROOT}" rev-parse --short HEAD)"
"${ROOT}/hack/integration/wire-operator.sh" "${dir}"
step "go mod tidy" go mod tidy
step "go mod vendor" go mod vendor
# What vendoring kmsguard changed in the operator's go.mod, besides kmsguard itself and the replaces above:
# nothing is the goal (make verify-operator-pins in kmsguard).
log "go.mod lines changed by vendoring kmsguard, besides kmsguard and the replaces:"
git diff --unified=0 go.mod | grep '^[-+]' | grep -v '^+++\|^---\|kmsguard\|library-go\|^[-+]replace \|^[-+]$' >&2 || log "  none"
step "go build ./..." go build ./...
step "go vet ./pkg/operator/..." go vet ./pkg/operator/...
step "go test ./pkg/operator/..." go test -count=1 ./pkg/operator/...
log "${module}: builds, vets and passes its unit tests with kmsguard wired in"
