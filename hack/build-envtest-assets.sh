#!/usr/bin/env bash
# Builds the real kube-apiserver and etcd binaries that kmsguard's tests run through envtest, from the Go
# module proxy (there is no other way to get them here: envtest's setup-envtest downloads prebuilt binaries).
# With --kube-controller-manager it also builds kube-controller-manager from the same k8s.io/kubernetes, for
# make bench-migration, which runs its in-tree storage version migrator (KEP-4192) beside kmsguard's.
#
# The binaries land in _output/envtest-assets/<k8s>-<etcd>/ and are reused when present and working, so only
# the first run pays for the build (kube-apiserver: about 9 minutes and 3 GB of memory on 2 cores;
# kube-controller-manager about as much again, less on a warm build cache).
#
# Prints the asset directory on the last line of stdout; progress goes to stderr.
# Usage: hack/build-envtest-assets.sh [--print-dir] [--kube-controller-manager]
#   --print-dir                print the asset directory and exit without building.
#   --kube-controller-manager  also build kube-controller-manager (only the migration benchmark runs it).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TOOLS="${ROOT}/hack/tools"

# Versions are read from the tools modules so that go.mod stays the one place they are pinned.
k8s_version=$(cd "${TOOLS}/kube-apiserver" && GOWORK=off GOFLAGS=-mod=mod go list -m -f '{{.Version}}' k8s.io/kubernetes)
etcd_version=$(cd "${TOOLS}/etcd" && GOWORK=off GOFLAGS=-mod=mod go list -m -f '{{.Version}}' go.etcd.io/etcd/server/v3)
ASSETS="${ROOT}/_output/envtest-assets/k8s-${k8s_version}-etcd-${etcd_version}"

print_dir=false
with_kcm=false
for arg in "$@"; do
  case "${arg}" in
    --print-dir) print_dir=true ;;
    --kube-controller-manager) with_kcm=true ;;
    *) echo "unknown argument ${arg}; usage: $0 [--print-dir] [--kube-controller-manager]" >&2; exit 2 ;;
  esac
done
if ${print_dir}; then
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

# build_kubernetes_command builds k8s.io/kubernetes/cmd/<name> at k8s_version from the kube-apiserver tools
# module, whose go.mod pins k8s.io/kubernetes and its staging modules for every command of it.
build_kubernetes_command() {
  local name=$1
  local out="${ASSETS}/${name}"
  if usable "${out}"; then
    log "${name} ${k8s_version}: present, not rebuilt"
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
  log "${name} ${k8s_version}: building; a cold build takes about 10 minutes on 2 cores and 3 GB of memory"
  local start=${SECONDS}
  (cd "${TOOLS}/kube-apiserver" && GOWORK=off GOFLAGS=-mod=mod go build -ldflags "${ldflags}" -o "${out}.tmp" "k8s.io/kubernetes/cmd/${name}") &
  local pid=$!
  # go build prints nothing while it compiles: say that it is still alive once a minute.
  while kill -0 "${pid}" 2>/dev/null; do
    sleep 5
    if (( (SECONDS - start) % 60 < 5 )) && kill -0 "${pid}" 2>/dev/null; then
      log "${name}: still building ($((SECONDS - start)) s)"
    fi
  done
  wait "${pid}" || fail "go build of k8s.io/kubernetes/cmd/${name} ${k8s_version} (see the compiler output above)"
  mv "${out}.tmp" "${out}"
  log "${name} ${k8s_version}: built in $((SECONDS - start)) s: $("${out}" --version)"
}

build_etcd
build_kubernetes_command kube-apiserver
if ${with_kcm}; then
  build_kubernetes_command kube-controller-manager
fi
echo "${ASSETS}"
