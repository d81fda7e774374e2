package tour

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// settledFor is how long the cluster must look healthy before a story starts: three of the lab's report
// intervals, so that no report or apiserver view of the previous story is still on its way.
const settledFor = 15 * time.Second

// settle waits until every kube-apiserver answers /healthz and KMSPluginsDegraded is False, without a break,
// for settledFor: a story measures from a healthy cluster, not from the tail of the previous story's fault
// (a gRPC client still in reconnect backoff, an apiserver view not yet refreshed).
func (e *Env) settle(ctx context.Context) error {
	started := time.Now()
	var healthySince time.Time
	last := ""
	err := poll(ctx, 500*time.Millisecond, storyTimeout, func() bool {
		if problem := e.unhealthy(ctx); problem != "" {
			healthySince, last = time.Time{}, problem
			return false
		}
		if healthySince.IsZero() {
			healthySince = time.Now()
		}
		return time.Since(healthySince) >= settledFor
	})
	if errors.Is(err, errTimedOut) {
		return fmt.Errorf("the cluster did not settle within %s: %s", storyTimeout, last)
	}
	if err != nil {
		return err
	}
	if waited := time.Since(started); waited > settledFor+time.Second {
		e.Logf("the cluster settled after %s (%s before)", waited.Round(time.Second), last)
	}
	return nil
}

// unhealthy says what is not healthy, or "".
func (e *Env) unhealthy(ctx context.Context) string {
	for _, n := range e.Lab.Nodes() {
		if code, _, err := n.APIServer().Get(ctx, "/healthz"); err != nil || code != http.StatusOK {
			return fmt.Sprintf("%s's kube-apiserver: /healthz %d %v", n.Name(), code, err)
		}
	}
	status, err := e.Lab.OperatorStatus(ctx)
	if err != nil {
		return err.Error()
	}
	for _, c := range status.Conditions {
		if c.Type == kmsstate.ConditionKMSPluginsDegraded && c.Status != operatorv1.ConditionFalse {
			return describe(c) + ": " + firstLine(c.Message)
		}
	}
	return ""
}
