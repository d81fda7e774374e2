#!/usr/bin/env bash
# Wires kmsguard into an operator checkout through its entry point and proves that the result builds, vets and
# passes the operator's own unit tests, as a reviewer of the integration PR would check it.
#
#   hack/integration/build-operator.sh OPERATOR_CHECKOUT
#
# OPERATOR_CHECKOUT is a clean git checkout of github.com/openshift/cluster-kube-apiserver-operator at c813e820 or of
# github.com/openshift/cluster-openshift-apiserver-operator at 8206430b (the commits the patches are written
# against; another commit may not apply). The script changes it in place:
#   1. applies hack/integration/<operator>.patch (the wiring in pkg/operator/starter.go);
#   2. points the operator's go.mod at this kmsguard checkout, and its library-go at third_party/library-go (the
#      Go module proxy does not serve the operator's library-go; the copy is that exact commit); a replacement of
#      the operator's own that the proxy refuses is served from the operator's vendor/;
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
# The operator's own replacements at versions the proxy refuses (openshift-apiserver-operator's Ginkgo fork) are
# served from its vendor/ instead, as the carried library-go is: the same source the operator builds today.
vendored_replacements() {
  local old new version dir go_version
  go_version=$(go mod edit -json | python3 -c 'import json,sys; print(json.load(sys.stdin)["Go"])')
  while read -r old new version; do
    if go mod download "${new}@${version}" >/dev/null 2>&1; then
      continue
    fi
    [[ -d "vendor/${old}" ]] || fail "the proxy refuses ${new}@${version} (replacing ${old}) and vendor/${old} is missing"
    dir="$(mktemp -d)/${old##*/}"
    cp -r "vendor/${old}" "${dir}"
    # At the operator's go version, so that serving it changes nothing of the operator's go.mod.
    (cd "${dir}" && go mod init "${old}" >/dev/null 2>&1 && go mod edit -go="${go_version}")
    log "the proxy refuses ${new}@${version}: ${old} is served from the operator's vendor/ (${dir})"
    go mod edit -replace="${old}=${dir}"
  done < <(go mod edit -json | python3 -c 'import json,sys
for r in json.load(sys.stdin).get("Replace") or []:
    if r["New"].get("Version"): print(r["Old"]["Path"], r["New"]["Path"], r["New"]["Version"])')
}
step "replacements the proxy does not serve" vendored_replacements
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
