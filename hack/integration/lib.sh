# Sourced by the scripts of hack/integration: their logging, their timed steps, and how they find an operator tree's
# patch.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
log() { echo "[integration $(date +%H:%M:%S)] $*" >&2; }
fail() { log "FAILED: $*"; exit 1; }

# step runs a command as a named step and logs its time; a failure ends the script.
step() {
  local what=$1
  shift
  log "${what} ..."
  local start=${SECONDS}
  "$@" || fail "${what}"
  log "${what}: done in $((SECONDS - start)) s"
}

# operator_tree sets dir (the absolute path of the operator tree $1), module (its Go module) and patch (its
# hack/integration patch), and fails when the tree has no go.mod or the module no patch.
operator_tree() {
  dir=$(cd "$1" 2>/dev/null && pwd) || fail "no directory $1"
  [[ -f "${dir}/go.mod" ]] || fail "${dir} has no go.mod"
  module=$(awk '$1 == "module" {print $2; exit}' "${dir}/go.mod")
  patch="${ROOT}/hack/integration/${module##*/}.patch"
  [[ -f "${patch}" ]] || fail "no patch for ${module} (looked for ${patch})"
}
