package tour

import (
	"context"
	"errors"
	"maps"
	"slices"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/kmsguard/kmsguard/pkg/kmsplugin/pluginprobe"
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
	timings := env.Lab.DetectionTimings()
	// The plugins' Status still answers ok with the key disabled (fake.KMS.Disable), so a plugin kmsstate finds
	// Unhealthy is one whose Encrypt/Decrypt round trip failed.
	roundTripFailed := func(c operatorv1.OperatorCondition) bool {
		return c.Status == operatorv1.ConditionTrue && kmsFailure(env, func(f kmsstate.Failure) bool { return f.Reason == kmsstate.ReasonPluginUnhealthy })
	}
	if timings.RoundTripInterval == 0 {
		// library-go's reporter calls Status only, which a disabled key leaves ok, and the apiservers make no KMS
		// call while their DEK seed is cached: the story watches for two reports and says what it saw.
		window := 2*nextReport(timings) + detectionSlack
		cond, after, err := waitConditionWithin(ctx, env, kmsstate.ConditionKMSPluginsDegraded, window, func(c operatorv1.OperatorCondition) bool {
			return c.Status == operatorv1.ConditionTrue
		})
		switch {
		case errors.Is(err, errTimedOut):
			res.NotSeen = true
			res.notef("not seen in %s: %s's reporter calls only Status, which still answered ok, and no apiserver made a KMS call that failed (their DEK seeds are cached); kmsguard's reporter (--reporter kmsguard) sees it by its Encrypt/Decrypt round trip",
				window.Round(100*time.Millisecond), string(env.Lab.Reporter()))
		case err != nil:
			return err
		default:
			res.detected(after, describe(cond), bound{})
			res.notef("seen without a round trip: %s", firstLine(cond.Message))
		}
	} else {
		cond, after, err := waitCondition(ctx, env, kmsstate.ConditionKMSPluginsDegraded, roundTripFailed)
		if err != nil {
			res.problemf("KMSPluginsDegraded never reported the failed round trip: %v", err)
		} else {
			res.detected(after, describe(cond), byRoundTrip(timings))
			res.notef("seen by kmsguard's Encrypt/Decrypt round trip (every %s in the lab, %s by default) while Status answered ok: %s",
				timings.RoundTripInterval, pluginprobe.DefaultRoundTripInterval, firstLine(cond.Message))
		}
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
	cond, after, err := waitCondition(ctx, env, kmsstate.ConditionKMSKeyRotationProgressing, func(operatorv1.OperatorCondition) bool {
		return rotatedTo(env, newKEK)
	})
	if err != nil {
		res.problemf("no rotation to %s was reported: %v", newKEK, err)
		return nil
	}
	by := describe(cond)
	if cond.Status != operatorv1.ConditionTrue {
		// The rotation was migrated and proven before the condition was read: the evaluation saw it.
		by = "kmsstate: rotation to " + newKEK + " seen and already completed"
	}
	res.detected(after, by, byNextReport(env.Lab.DetectionTimings()))
	reports, err := env.Lab.WaitForVerified(ctx, "", newKEK)
	if err != nil {
		res.problemf("%v", err)
		return nil
	}
	for _, report := range reports {
		for _, r := range report.Resources {
			res.notef("%s: %d of %d values in etcd under %s", r.Resource, r.UnderWriteKey, r.Total, report.WriteKey)
		}
	}
	res.Recovered, res.Recovery = time.Since(rotated), "automatic: migrated again and proven under the new KEK"
	return nil
}

// rotatedTo reports whether kmsstate's latest published evaluation has seen a rotation to kek, in progress or
// completed.
func rotatedTo(env *Env, kek string) bool {
	state, err := env.Lab.PublishedKMSState().Current()
	if err != nil {
		return false
	}
	to := func(r kmsstate.Rotation) bool { return r.To == kek }
	return slices.ContainsFunc(state.Rotations, to) || slices.ContainsFunc(slices.Collect(maps.Values(state.LastCompleted)), to)
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
		res.detected(after, describe(cond), bySlowCall(env.Lab.DetectionTimings()))
		res.notef("%s", firstLine(cond.Message))
	}
	_, err = restore(ctx, env, res, lab.Injection{Fault: lab.FaultKMSLatency}, slowed, "the KMS was fast again")
	return err
}
