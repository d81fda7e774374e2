package kmsprecondition

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// decision is the gate's verdict as typed data, the data its conditions are rendered from (TestGateConditions
// and TestDroppedEvidence word it). The gate tests compare it whole: a field left out is empty in the verdict.
type decision struct {
	// Hash is the candidate's.
	Hash string
	// KMSChanged says the candidate changes KMS providers.
	KMSChanged bool
	// Blocking are the reasons of the blocking errors, most severe first.
	Blocking []Reason
	// Faults are the failures of kmsstate that plugin errors name, without their details (kmsstate's words);
	// NotEvaluated the new keys kmsstate has not evaluated; Unsettled the promoted keys whose plugins have not
	// agreed on a KEK id; NewWrite the new keys that write.
	Faults       []kmsstate.Failure
	NotEvaluated []string
	Unsettled    []string
	NewWrite     []string
	// Admitted are the new read keys let through, "<key> by <evidence>": preflight, health on <nodes>, or policy.
	Admitted []string
	// Healthy and Promoted are the deployed keys found healthy and those promoted, when the candidate may roll out.
	Healthy, Promoted []string
	// Dropped are the dropped read keys, "<resource> <key> <rule>" with the objects the census found under it;
	// WindowUntil is when the last of their rollback windows ends.
	Dropped     []string
	WindowUntil time.Time
	// Revert, Forced and IgnoredForce are the verdict's.
	Revert, Forced, IgnoredForce bool
}

// decide is the decision of a verdict.
func decide(v verdict) decision {
	d := decision{Hash: v.Hash, KMSChanged: v.KMSChanged, Revert: v.Revert, Forced: v.Forced, IgnoredForce: v.IgnoredForce}
	dropped := func(p DroppedProvider) {
		entry := fmt.Sprintf("%s %s %s", p.Resource, p.readKey(), p.cause)
		if p.cause == "" {
			entry = fmt.Sprintf("%s %s", p.Resource, p.readKey())
		}
		if p.refusal != nil && p.refusal.Objects > 0 {
			entry += fmt.Sprintf(" (%d objects)", p.refusal.Objects)
		}
		d.Dropped = append(d.Dropped, entry)
	}
	for _, b := range v.Blocking {
		d.Blocking = append(d.Blocking, b.Reason())
		var unhealthy *kmsstate.UnhealthyError
		var notEvaluated *keyNotEvaluatedError
		var unsettled *kekNotSettledError
		switch e := b.(type) {
		case *NewKeyWritesError:
			d.NewWrite = append(d.NewWrite, e.KeyIDs...)
		case *ReadKeyStillInUseError:
			for _, p := range e.Dropped {
				dropped(p)
			}
		case *RollbackWindowError:
			for _, p := range e.Dropped {
				dropped(p)
			}
			d.WindowUntil = e.Until
		case *PluginsNotHealthyError:
			switch {
			case errors.As(e.Err, &unhealthy):
				for _, f := range unhealthy.Failures {
					f.Detail = ""
					d.Faults = append(d.Faults, f)
				}
			case errors.As(e.Err, &notEvaluated):
				d.NotEvaluated = append(d.NotEvaluated, notEvaluated.KeyID)
			case errors.As(e.Err, &unsettled):
				d.Unsettled = append(d.Unsettled, unsettled.KeyID)
			}
		}
	}
	for _, p := range v.Allowed {
		dropped(p)
	}
	if v.Revert {
		for _, p := range v.Dropped {
			dropped(p)
		}
	}
	for _, a := range v.Admitted {
		switch {
		case a.Unverified:
			d.Admitted = append(d.Admitted, a.KeyID+" by policy")
		case len(a.HealthyOn) > 0:
			d.Admitted = append(d.Admitted, fmt.Sprintf("%s by health on %v", a.KeyID, a.HealthyOn))
		default:
			d.Admitted = append(d.Admitted, a.KeyID+" by preflight")
		}
	}
	if len(v.Blocking) == 0 {
		d.Healthy, d.Promoted = v.Keys.Deployed, v.Keys.Promoted
	}
	return d
}

// judged is the verdict the gate makes of its configs now, as Precondition does, without writing anything.
func judged(t *testing.T, g *Gate) decision {
	t.Helper()
	return decide(judgeNow(t, g))
}

// judgeNow is the gate's verdict on its configs now, as Precondition computes it, without writing anything.
func judgeNow(t *testing.T, g *Gate) verdict {
	t.Helper()
	configs, err := g.options.Configs.Configs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	v, _, _, err := g.judge(context.Background(), configs)
	if err != nil {
		t.Fatalf("judge: %v", err)
	}
	return v
}
