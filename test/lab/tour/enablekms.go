package tour

import (
	"context"
	"strings"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/encryption/state"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/kmsguard/kmsguard/pkg/kmsguard"
)

func enableKMS(ctx context.Context, env *Env, res *Result) error {
	l := env.Lab
	env.Logf("switching to aescbc first")
	if err := l.SetEncryption(ctx, configv1.EncryptionTypeAESCBC); err != nil {
		return err
	}
	if _, err := l.WaitForEncryption(ctx, state.AESCBC); err != nil {
		return err
	}
	env.Logf("switching to KMS")
	// Nothing an admin must act on happens in a KMS enablement: every condition of kmsguard's named *Degraded is
	// sampled each second from the switch until the census proved the result.
	degraded := sampleDegraded(ctx, env, time.Second)
	switched := time.Now()
	if err := l.SetEncryption(ctx, configv1.EncryptionTypeKMS); err != nil {
		return err
	}
	keyID, err := l.WaitForEncryption(ctx, state.KMS)
	if err != nil {
		return err
	}
	rolledOut := time.Since(switched)
	// Under the KMS key: a scan that started after the switch but before the KMS key wrote proves aescbc.
	reports, err := l.WaitForVerified(ctx, keyID, l.KMS().CurrentKEKID())
	if err != nil {
		res.problemf("%v", err)
		return nil
	}
	res.Recovered, res.Recovery = time.Since(switched), "done: rolled out, migrated and proven from etcd"
	samples, seen := degraded()
	noneDegraded(res, samples, seen)
	res.notef("KMS key %s rolled out to every node and migrated after %s; the census proved it %s later", keyID, rolledOut.Round(time.Second), (res.Recovered - rolledOut).Round(time.Second))
	for _, report := range reports {
		for _, r := range report.Resources {
			res.notef("%s: %d of %d values in etcd under %s", r.Resource, r.UnderWriteKey, r.Total, report.WriteKey)
		}
	}
	migrations, err := l.Migrations(ctx)
	if err != nil {
		res.problemf("reading kmsguard's migrations: %v", err)
	}
	for _, m := range migrations {
		if !m.Finished.IsZero() && !m.Finished.Before(switched) {
			res.notef("migration of %s: %d objects in %s", m.Resource, m.Counts.Done(), m.Finished.Sub(m.Started).Round(100*time.Millisecond))
		}
	}
	checkRollout(res, l, switched, true)
	return nil
}

// sampleDegraded reads the operator's conditions every interval until the returned function is called, which
// stops the sampling and returns how many samples were taken and each kmsguard-owned *Degraded condition seen True
// (type, reason and first line, once each).
func sampleDegraded(ctx context.Context, env *Env, interval time.Duration) func() (int, []string) {
	owned := sets.New(kmsguard.OwnedConditionTypes...)
	seenOnce := sets.New[string]()
	var samples int
	var seen []string
	stop := sampleConditions(ctx, env, interval, func(conditions []operatorv1.OperatorCondition) {
		samples++
		for _, c := range conditions {
			if owned.Has(c.Type) && strings.HasSuffix(c.Type, "Degraded") && c.Status == operatorv1.ConditionTrue {
				if key := describe(c); !seenOnce.Has(key) {
					seenOnce.Insert(key)
					seen = append(seen, key+": "+firstLine(c.Message))
				}
			}
		}
	})
	return func() (int, []string) {
		stop()
		return samples, seen
	}
}

// sampleConditions hands the operator's conditions to sample every interval, each time the API answers, until the
// returned stop is called; stop returns once sample has run for the last time, so that what it gathered can be
// read without a lock.
func sampleConditions(ctx context.Context, env *Env, interval time.Duration, sample func([]operatorv1.OperatorCondition)) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		ticker := time.NewTicker(interval)
		defer ticker.Stop()
		for {
			if status, err := env.Lab.OperatorStatus(ctx); err == nil {
				sample(status.Conditions)
			}
			select {
			case <-ctx.Done():
				return
			case <-ticker.C:
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}
