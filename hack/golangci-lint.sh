#!/usr/bin/env bash
# Builds golangci-lint from the Go module proxy into _output/bin/ (there is no prebuilt download here) and runs
# it with the arguments given. The version is pinned in hack/tools/golangci-lint/go.mod; a build is reused while
# that version stays. The first build takes 2-4 minutes on 2 cores.
# Usage: hack/golangci-lint.sh run ./...
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TOOL="${ROOT}/hack/tools/golangci-lint"
log() { echo "[golangci-lint $(date +%H:%M:%S)] $*" >&2; }

version=$(cd "${TOOL}" && GOWORK=off GOFLAGS=-mod=mod go list -m -f '{{.Version}}' github.com/golangci/golangci-lint/v2)
bin="${ROOT}/_output/bin/golangci-lint-${version}"
if ! [[ -x "${bin}" ]] || ! "${bin}" version >/dev/null 2>&1; then
  log "${version}: building from the module proxy (2-4 minutes the first time)"
  start=${SECONDS}
  mkdir -p "$(dirname "${bin}")"
  (cd "${TOOL}" && GOWORK=off GOFLAGS=-mod=mod go build -trimpath -o "${bin}.tmp" github.com/golangci/golangci-lint/v2/cmd/golangci-lint)
  mv "${bin}.tmp" "${bin}"
  log "${version}: built in $((SECONDS - start)) s"
fi
cd "${ROOT}"
exec "${bin}" "$@"
