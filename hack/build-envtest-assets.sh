#!/usr/bin/env bash
# Builds the real kube-apiserver and etcd binaries that kmsguard's tests run through envtest, from the Go
# module proxy (there is no other way to get them here: envtest's setup-envtest downloads prebuilt binaries).
#
# The binaries land in _output/envtest-assets/<k8s>-<etcd>/ and are reused when present and working, so only
# the first run pays for the build (kube-apiserver: about 9 minutes and 3 GB of memory on 2 cores).
#
# Prints the asset directory on the last line of stdout; progress goes to stderr.
# Usage: hack/build-envtest-assets.sh [--print-dir]
#   --print-dir  print the asset directory and exit without building.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TOOLS="${ROOT}/hack/tools"

# Versions are read from the tools modules so that go.mod stays the one place they are pinned.
k8s_version=$(cd "${TOOLS}/kube-apiserver" && GOWORK=off GOFLAGS=-mod=mod go list -m -f '{{.Version}}' k8s.io/kubernetes)
etcd_version=$(cd "${TOOLS}/etcd" && GOWORK=off GOFLAGS=-mod=mod go list -m -f '{{.Version}}' go.etcd.io/etcd/server/v3)
ASSETS="${ROOT}/_output/envtest-assets/k8s-${k8s_version}-etcd-${etcd_version}"

if [[ "${1:-}" == "--print-dir" ]]; then
  echo "${ASSETS}"
  exit 0
fi

log() { echo "[build-envtest-assets $(date +%H:%M:%S)] $*" >&2; }
fail() { log "FAILED: $*"; exit 1; }

mkdir -p "${ASSETS}"

# usable reports whether a built binary exists and runs: a half-written file from an interrupted build is
# not reused.
usable() { [[ -x "$1" ]] && "$1" --version >/dev/null 2>&1; }

build_etcd() {
  local out="${ASSETS}/etcd"
  if usable "${out}"; then
    log "etcd ${etcd_version}: present, not rebuilt"
    return
  fi
  log "etcd ${etcd_version}: building (under a minute on a warm module cache)"
  local start=${SECONDS}
  (cd "${TOOLS}/etcd" && GOWORK=off GOFLAGS=-mod=mod go build -o "${out}.tmp" go.etcd.io/etcd/server/v3) \
    || fail "go build of go.etcd.io/etcd/server/v3 ${etcd_version} (is the Go module proxy reachable?)"
  mv "${out}.tmp" "${out}"
  log "etcd ${etcd_version}: built in $((SECONDS - start)) s: $("${out}" --version | head -n1)"
}

build_kube_apiserver() {
  local out="${ASSETS}/kube-apiserver"
  if usable "${out}"; then
    log "kube-apiserver ${k8s_version}: present, not rebuilt"
    return
  fi
  # Without these the binary reports v0.0.0-master, and version-dependent behaviour (feature gate defaults
  # through emulation version) breaks.
  local v="${k8s_version#v}" major minor
  major=${v%%.*}
  minor=${v#*.}
  minor=${minor%%.*}
  local ldflags=""
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ldflags+=" -X ${pkg}.gitVersion=${k8s_version} -X ${pkg}.gitMajor=${major} -X ${pkg}.gitMinor=${minor}"
    ldflags+=" -X ${pkg}.gitTreeState=clean -X ${pkg}.buildDate=1970-01-01T00:00:00Z"
  done
  log "kube-apiserver ${k8s_version}: building; a cold build takes about 10 minutes on 2 cores and 3 GB of memory"
  local start=${SECONDS}
  (cd "${TOOLS}/kube-apiserver" && GOWORK=off GOFLAGS=-mod=mod go build -ldflags "${ldflags}" -o "${out}.tmp" k8s.io/kubernetes/cmd/kube-apiserver) &
  local pid=$!
  # go build prints nothing while it compiles: say that it is still alive once a minute.
  while kill -0 "${pid}" 2>/dev/null; do
    sleep 5
    if (( (SECONDS - start) % 60 < 5 )) && kill -0 "${pid}" 2>/dev/null; then
      log "kube-apiserver: still building ($((SECONDS - start)) s)"
    fi
  done
  wait "${pid}" || fail "go build of k8s.io/kubernetes/cmd/kube-apiserver ${k8s_version} (see the compiler output above)"
  mv "${out}.tmp" "${out}"
  log "kube-apiserver ${k8s_version}: built in $((SECONDS - start)) s: $("${out}" --version)"
}

build_etcd
build_kube_apiserver
echo "${ASSETS}"
