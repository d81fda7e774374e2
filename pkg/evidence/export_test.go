package evidence

import "time"

// SetNotEvaluatedRetry sets how soon a census waiting for kmsstate is tried again, and returns what restores it.
func SetNotEvaluatedRetry(d time.Duration) (restore func()) {
	old := notEvaluatedRetry
	notEvaluatedRetry = d
	return func() { notEvaluatedRetry = old }
}
