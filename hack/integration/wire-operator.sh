#!/usr/bin/env bash
# Wires kmsguard into an operator source tree, the one way both hack/integration/build-operator.sh (an operator
# checkout) and hack/integration/build-kube-apiserver-operator.sh (the copy in third_party/, the lab's binary) do:
#   1. applies hack/integration/<operator>.patch (the wiring in pkg/operator/starter.go);
#   2. points the operator's go.mod at this kmsguard checkout, and its library-go at third_party/library-go (the
#      Go module proxy does not serve the operator's library-go; the copy is that exact commit); a replacement of
#      the operator's own that the proxy refuses is served from the operator's vendor/.
# What comes next is the caller's: build-operator.sh tidies and vendors, as the integration PR would; the lab's
# build lets go build add what kmsguard requires (-mod=mod), since tidy needs the operator's test/ tree, which the
# copy does not carry.
#
#   hack/integration/wire-operator.sh OPERATOR_TREE
#
# OPERATOR_TREE holds github.com/openshift/cluster-kube-apiserver-operator at c813e820 or
# github.com/openshift/cluster-openshift-apiserver-operator at 8206430b (the commits the patches are written
# against), unpatched; it is changed in place. Needs the Go module proxy.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[[ $# -eq 1 ]] || { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2; }
operator_tree "$1"

export GOWORK=off GOFLAGS=

cd "${dir}"
# patch(1), not git apply: the tree may sit inside another git work tree (the lab's copy is under kmsguard's
# _output/), where git apply takes paths relative to that work tree's top.
step "apply ${patch##*/}" patch --batch --forward --strip=1 --quiet --input="${patch}"
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
log "${module}: kmsguard wired in"
