#!/usr/bin/env bash
# Applies each patch under hack/upstream/<repo>/ to a fresh checkout of its base commit (BASE in that directory)
# and runs the Go tests of the packages the patch touches, as upstream's CI would run them.
#
#   hack/upstream/verify.sh              # every repository
#   hack/upstream/verify.sh library-go   # one
#
# A clone of each repository is cached in _output/upstream/<repo>.git; UPSTREAM_<REPO>_URL (dashes as
# underscores, upper case) overrides where it comes from, e.g. a local mirror.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
repos=("$@")
if [[ ${#repos[@]} -eq 0 ]]; then
  for d in hack/upstream/*/; do repos+=("$(basename "$d")"); done
fi

failed=0
for repo in "${repos[@]}"; do
  dir="hack/upstream/$repo"
  base="$(cat "$dir/BASE")"
  var="UPSTREAM_$(echo "$repo" | tr 'a-z-' 'A-Z_')_URL"
  url="${!var:-https://github.com/openshift/$repo.git}"
  cache="_output/upstream/$repo.git"
  if [[ ! -d "$cache" ]]; then
    echo "upstream: cloning $url into $cache"
    git clone -q --bare "$url" "$cache"
  fi
  if ! git --git-dir="$cache" cat-file -e "$base^{commit}" 2>/dev/null; then
    git --git-dir="$cache" fetch -q "$url" "$base" || git --git-dir="$cache" fetch -q "$url"
  fi
  for patch in "$dir"/*.patch; do
    work="$(mktemp -d)"
    git --git-dir="$cache" worktree add -q --detach "$work" "$base"
    echo "upstream: $repo@${base:0:12} + $(basename "$patch")"
    if ! git -C "$work" -c user.name=verify -c user.email=verify@example.invalid am -q "$root/$patch"; then
      echo "upstream: FAIL: $(basename "$patch") does not apply to $base"
      failed=1
    else
      mapfile -t pkgs < <(git -C "$work" diff --name-only HEAD~1 -- '*.go' | xargs -r -n1 dirname | sort -u | sed 's|^|./|')
      if ! (cd "$work" && go test -count=1 "${pkgs[@]}"); then
        echo "upstream: FAIL: $(basename "$patch")"
        failed=1
      else
        echo "upstream: PASS: $(basename "$patch") (${pkgs[*]})"
      fi
    fi
    git --git-dir="$cache" worktree remove --force "$work"
  done
done
exit "$failed"
