package kmsrollback

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/openshift/library-go/pkg/operator/encryption/encryptiondata"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
	"github.com/kmsguard/kmsguard/pkg/encryptionconfig/revisions"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// HealthReader answers whether the plugins of keyIDs are healthy on every node in nodes, with nil or a
// *kmsstate.UnhealthyError. *kmsstate.Controller satisfies it.
type HealthReader interface {
	Healthy(nodes, keyIDs []string) error
}

// attribute judges the failures of the newest revision. It returns nil when the newest revision has not
// failed, a *KMSRolloutFailedError or *CannotRevertError when the failure is KMS's, a *NotAttributedError when
// it is not, and any other error when an input could not be read.
//
// seen, when not nil, holds what kmsstate showed on a node while it ran the revision; it is the evidence for a
// node whose live view no longer shows the revision's keys (the startup monitor's fallback took their plugins).
func attribute(ctx context.Context, rollout Rollout, configs revisions.Reader, health HealthReader, seen *witness) (Verdict, error) {
	var failed []NodeFailure
	for _, f := range rollout.Failures {
		// An older revision's failure has been superseded by a newer revision: it is not what runs next.
		if f.Revision == rollout.LatestAvailableRevision {
			failed = append(failed, f)
		}
	}
	if len(failed) == 0 {
		return nil, nil
	}
	revision := rollout.LatestAvailableRevision
	var operand []NodeFailure
	for _, f := range failed {
		if f.Source != SourceInstallerFailed {
			operand = append(operand, f)
		}
	}
	if len(operand) == 0 {
		return &NotAttributedError{Revision: revision, Rollout: failed, Why: "the installer failed, the apiserver of the revision never ran", cause: causeInstallerFailed}, nil
	}

	// The config to go back to is what the failing nodes ran before: the newest of their last good revisions.
	var lastGood int32
	for _, f := range operand {
		if f.LastGood < revision && f.LastGood > lastGood {
			lastGood = f.LastGood
		}
	}
	failedData, err := configs.RevisionConfig(ctx, revision)
	if err != nil {
		return nil, err
	}
	failedConfig, err := decode(failedData)
	if err != nil {
		return &NotAttributedError{Revision: revision, Rollout: operand, Why: fmt.Sprintf("its encryption config cannot be decoded (%v): the rollout gate should have refused it", err), cause: causeUndecodableConfig}, nil
	}
	var previousData map[string][]byte
	if lastGood > 0 {
		if previousData, err = configs.RevisionConfig(ctx, lastGood); err != nil {
			return nil, err
		}
	}
	previousConfig, err := decode(previousData)
	if err != nil {
		return nil, fmt.Errorf("decoding the encryption config of revision %d: %w", lastGood, err)
	}
	diff := encryptionconfig.DiffKMS(previousConfig, failedConfig)
	suspects := diff.Suspects()
	if !diff.Changed() {
		return &NotAttributedError{Revision: revision, Rollout: operand, Why: fmt.Sprintf("it does not change the KMS providers of revision %d", lastGood), cause: causeNoKMSChange}, nil
	}
	if len(suspects) == 0 {
		return &NotAttributedError{Revision: revision, Rollout: operand, Why: "it only drops KMS providers, and no plugin it keeps changed", cause: causeOnlyDropsKMS}, nil
	}

	verdict := &KMSRolloutFailedError{Revision: revision, LastGood: lastGood, Hash: configHash(failedData), LastGoodHash: configHash(previousData), KeyIDs: suspects}
	for _, f := range operand {
		evidence, err := failing(health, f.Node, suspects)
		if err != nil {
			return nil, err
		}
		if len(evidence) == 0 {
			evidence = seen.recall(revision, f.Node, suspects)
		}
		if len(evidence) == 0 {
			continue
		}
		verdict.Nodes = append(verdict.Nodes, f.Node)
		verdict.Failures = append(verdict.Failures, evidence...)
		verdict.Rollout = append(verdict.Rollout, f)
	}
	if len(verdict.Nodes) == 0 {
		return &NotAttributedError{Revision: revision, Rollout: operand, Why: fmt.Sprintf("kmsstate shows no failure of the KMS keys %v it changed on the failing nodes", suspects), cause: causeNoKMSFault}, nil
	}
	sort.SliceStable(verdict.Failures, func(i, j int) bool { return verdict.Failures[i].Node < verdict.Failures[j].Node })
	switch {
	case lastGood == 0:
		return &CannotRevertError{Failed: verdict, Why: "no earlier revision ran on the failing nodes"}, nil
	case previousData == nil:
		// The revision controller copies encryption-config as optional: revision lastGood ran unencrypted.
		// Going back to that means turning encryption off, which is the admin's call, not a revert's.
		return &CannotRevertError{Failed: verdict, Why: fmt.Sprintf("revision %d ran without an encryption config", lastGood)}, nil
	}
	return verdict, nil
}

// failing returns kmsstate's evidence that one of keys fails on node.
func failing(health HealthReader, node string, keys []string) ([]kmsstate.Failure, error) {
	err := health.Healthy([]string{node}, keys)
	if err == nil {
		return nil, nil
	}
	var unhealthy *kmsstate.UnhealthyError
	if !errors.As(err, &unhealthy) {
		return nil, fmt.Errorf("reading KMS health of node %s: %w", node, err)
	}
	// Only kmsstate's KMS faults are evidence (Reason.KMSFault): a missing or stale report, or a stale verdict,
	// says that nothing is known, and a key id mismatch is a rotation in progress; neither explains a failed
	// start. Healthy was asked about node alone.
	return unhealthy.KMSFaults(), nil
}

// decode reads the EncryptionConfiguration of a revision's encryption-config data without validating it: a
// failed revision is judged for what it changed, valid or not. Nil data is "no encryption config".
func decode(data map[string][]byte) (*apiserverv1.EncryptionConfiguration, error) {
	return encryptionconfig.DecodeUnvalidated(data[encryptiondata.EncryptionConfSecretKey])
}
