#!/usr/bin/env bash
# Builds the kube-apiserver-operator binary the lab runs: third_party/cluster-kube-apiserver-operator (the operator
# at c813e820, unmodified) copied to _output/kube-apiserver-operator/, with kmsguard from this checkout wired in by
# hack/integration/wire-operator.sh, the same step hack/integration/build-operator.sh takes on an operator
# checkout. The one patch, hack/integration/cluster-kube-apiserver-operator.patch, is the only wiring of kmsguard
# into a static-pod operator that the lab runs.
#
#   hack/integration/build-kube-apiserver-operator.sh [--print-path]
#
# Prints the binary's path on the last line of stdout (_output/bin/cluster-kube-apiserver-operator); progress
# goes to stderr. --print-path prints the path and exits without building. The binary is rebuilt every time; the
# Go build cache makes a rebuild with nothing changed take seconds. Needs the Go module proxy (the operator's
# dependencies; its vendor/ is not carried).
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
BIN="${ROOT}/_output/bin/cluster-kube-apiserver-operator"
WORK="${ROOT}/_output/kube-apiserver-operator"

case "${1:-}" in
  --print-path) echo "${BIN}"; exit 0 ;;
  "") ;;
  *) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac

"${ROOT}/hack/verify-third-party.sh" >/dev/null
commit=$(sed -n '1s/.* commit \([0-9a-f]\{40\}\),.*/\1/p' "${ROOT}/third_party/cluster-kube-apiserver-operator.sha256")

start=${SECONDS}
rm -rf "${WORK}"
mkdir -p "${WORK}" "$(dirname "${BIN}")"
cp -r "${ROOT}/third_party/cluster-kube-apiserver-operator" "${WORK}/src"
"${ROOT}/hack/integration/wire-operator.sh" "${WORK}/src"
# -trimpath: the build cache is then shared by every checkout of kmsguard on the machine (a CI clone reuses what
# a developer's compiled). The version the operator reports comes from its environment (OPERATOR_IMAGE_VERSION),
# as in its Deployment.
build() { (cd "${WORK}/src" && GOWORK=off GOFLAGS='-mod=mod -trimpath' go build -o "${BIN}.tmp" ./cmd/cluster-kube-apiserver-operator); }
step "go build ./cmd/cluster-kube-apiserver-operator" build
mv "${BIN}.tmp" "${BIN}"
log "cluster-kube-apiserver-operator ${commit:0:8} + hack/integration patch, kmsguard $(git -C "${ROOT}" describe --always --dirty 2>/dev/null || echo '?'): built in $((SECONDS - start)) s"
echo "${BIN}"
