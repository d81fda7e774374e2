// Package required checks that a constructor was given the options it cannot work without, so that a missing
// one is an error naming it rather than a nil dereference on the first sync.
package required

import (
	"fmt"
	"sort"
	"strings"
)

// Options returns an error naming, sorted, every option whose value in missing is true, or nil when none is.
// component prefixes the message ("kmsstate: missing required options: Keys, Nodes").
func Options(component string, missing map[string]bool) error {
	var names []string
	for name, isMissing := range missing {
		if isMissing {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	sort.Strings(names)
	return fmt.Errorf("%s: missing required options: %s", component, strings.Join(names, ", "))
}
