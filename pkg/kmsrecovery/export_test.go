package kmsrecovery

import operatorv1 "github.com/openshift/api/operator/v1"

// Verdict is what the controller's last condition was rendered from, for the tests to assert as typed data.
type Verdict = verdict

// LastVerdict is the verdict of the last condition the controller rendered.
func (c *Controller) LastVerdict() Verdict {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.last
}

// Condition renders KMSRecoveryDegraded from v, as the controller does.
func (c *Controller) Condition(v Verdict) operatorv1.OperatorCondition { return c.condition(v) }

// BatchMessage is the message of BatchRecorder's event for one batch of results.
var BatchMessage = batchMessage
