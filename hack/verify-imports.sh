#!/usr/bin/env bash
# verify-imports.sh: the packages under pkg/ form a one-way graph, also "in spirit": no package imports another
# (directly or not) that imports it back or imports one of its subpackages. Go refuses a direct cycle; this
# refuses the one a subpackage hides, where a imports b and b imports a/sub (kmsmigration and kmsprecondition did,
# through kmsmigration/evidence, until pkg/evidence became a package of its own).
set -euo pipefail
cd "$(dirname "$0")/.."
module=$(awk '/^module / { print $2; exit }' go.mod)
graph=$(GOFLAGS=-mod=vendor go list -f '{{.ImportPath}}{{range .Deps}} {{.}}{{end}}' ./pkg/...)
status=0
while read -r pkg deps; do
	for dep in $deps; do
		[[ $dep == "$module"/pkg/* ]] || continue
		# dep must not depend on pkg or on a package under pkg.
		back=$(awk -v d="$dep" '$1 == d { for (i = 2; i <= NF; i++) print $i }' <<<"$graph" |
			grep -E "^${pkg}(/|\$)" || true)
		[[ $dep == "$pkg"/* ]] && continue # a package may import its own subpackages
		if [[ -n $back ]]; then
			echo "${pkg#"$module"/} imports ${dep#"$module"/}, which imports back: ${back//$module\//}" >&2
			status=1
		fi
	done
done <<<"$graph"
if [[ $status == 0 ]]; then
	echo "verify-imports: $(wc -l <<<"$graph") packages under pkg/, no import points back"
fi
exit $status
