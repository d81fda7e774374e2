package pluginprobe

import (
	"strings"
	"unicode/utf8"
)

const (
	// maxDetailBytes is the maxLength of KMSPluginHealthReport.detail in
	// openshift/api. One overlong detail makes the whole apply fail
	// validation, losing every report of the node, so details are cut to fit.
	// Counting bytes rather than characters keeps every cut string within the
	// limit however the API server counts.
	maxDetailBytes = 1024

	// truncatedMarker ends a detail that was cut, so a reader knows the error
	// went on. It is ASCII so its length in bytes and in characters agree.
	truncatedMarker = "..."

	// emptyDetail stands in for an empty message: detail has a minLength of 1.
	emptyDetail = "no detail given"
)

// detail makes s a valid KMSPluginHealthReport.detail: valid UTF-8 (the JSON
// encoder would otherwise replace bad bytes and change the length), not empty,
// and at most maxDetailBytes bytes, cut at a character boundary.
func detail(s string) string {
	s = strings.ToValidUTF8(s, string(utf8.RuneError))
	if s == "" {
		return emptyDetail
	}
	if len(s) <= maxDetailBytes {
		return s
	}
	cut := maxDetailBytes - len(truncatedMarker)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + truncatedMarker
}
