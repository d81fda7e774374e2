package tour

import (
	"context"
	"strings"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/test/lab"
)

func keyDisabled(ctx context.Context, env *Env, res *Result) error {
	did, err := env.Lab.Inject(ctx, lab.Injection{Fault: lab.FaultKeyDisable})
	if err != nil {
		return err
	}
	disabled := time.Now()
	env.Logf("%s", did)
	cond, after, err := waitCondition(ctx, env, kmsstate.ConditionKMSPluginsDegraded, func(c operatorv1.OperatorCondition) bool {
		return c.Status == operatorv1.ConditionTrue && strings.Contains(c.Message, "round trip failed")
	})
	if err != nil {
		res.problemf("KMSPluginsDegraded never reported the failed round trip: %v", err)
	} else {
		res.detected(after, describe(cond), byRoundTrip(lab.LabTimings()))
		res.notef("seen by kmsguard's Encrypt/Decrypt round trip (every 15 s in the lab, 5 min by default) while Status answered ok: %s", firstLine(cond.Message))
	}
	_, err = restore(ctx, env, res, lab.Injection{Fault: lab.FaultKeyRestore}, disabled, "the key was restored")
	return err
}

func keyRotated(ctx context.Context, env *Env, res *Result) error {
	did, err := env.Lab.Inject(ctx, lab.Injection{Fault: lab.FaultKeyRotate})
	if err != nil {
		return err
	}
	rotated := time.Now()
	newKEK := env.Lab.KMS().CurrentKEKID()
	env.Logf("%s", did)
	cond, after, err := waitCondition(ctx, env, kmsstate.ConditionKMSKeyRotationProgressing, func(c operatorv1.OperatorCondition) bool {
		return strings.Contains(c.Message, "-> "+newKEK)
	})
	if err != nil {
		res.problemf("no rotation to %s was reported: %v", newKEK, err)
		return nil
	}
	res.detected(after, describe(cond), byNextReport(lab.LabTimings()))
	reports, err := env.Lab.WaitForVerified(ctx, rotated, newKEK)
	if err != nil {
		res.problemf("%v", err)
		return nil
	}
	for _, report := range reports {
		if report.WriteKey.KEKID != newKEK {
			res.problemf("the census proved %s under %s, not the new KEK %s", report.WriteKey.Name, report.WriteKey, newKEK)
		}
		for _, r := range report.Resources {
			res.notef("%s: %d of %d values in etcd under %s", r.Resource, r.UnderWriteKey, r.Total, report.WriteKey)
		}
	}
	res.Recovered, res.Recovery = time.Since(rotated), "automatic: migrated again and proven under the new KEK"
	return nil
}

// kmsSlowdown is the latency kms-slow adds: above the 10 s timeout library-go writes for each KMS provider, and above
// the health reporter's 5 s call timeout.
const kmsSlowdown = 12 * time.Second

func kmsSlow(ctx context.Context, env *Env, res *Result) error {
	did, err := env.Lab.Inject(ctx, lab.Injection{Fault: lab.FaultKMSLatency, Latency: kmsSlowdown})
	if err != nil {
		return err
	}
	slowed := time.Now()
	env.Logf("%s", did)
	cond, after, err := waitCondition(ctx, env, kmsstate.ConditionKMSPluginsDegraded, func(c operatorv1.OperatorCondition) bool {
		return c.Status == operatorv1.ConditionTrue
	})
	if err != nil {
		res.problemf("KMSPluginsDegraded never turned True: %v", err)
	} else {
		res.detected(after, describe(cond), bySlowCall(lab.LabTimings()))
		res.notef("%s", firstLine(cond.Message))
	}
	_, err = restore(ctx, env, res, lab.Injection{Fault: lab.FaultKMSLatency}, slowed, "the KMS was fast again")
	return err
}
