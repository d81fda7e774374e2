package kmsprecondition

import (
	"context"
	"fmt"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/encryption/kms"
)

// PreflightReader answers whether library-go's KMS preflight passed for the KMS configuration the candidate's
// new keys were made from. It returns nil or a *PreflightError. newKeyIDs are the KMS keys the candidate adds;
// the gate asks only when there is one: promoting or dropping a key that already runs needs no new preflight.
type PreflightReader interface {
	PreflightPassed(ctx context.Context, newKeyIDs []string) error
}

// PreflightFromStatus reads library-go's KMS preflight handshake from the operator resource's
// status.encryptionStatus.preflight (library-go 6a2a406da642 and later): the key controller writes the hash of
// the KMS configuration it would make a key from as observedConfigHash, the preflight controller writes its
// outcome as result, and no KMS key is made before result is Succeeded for that hash.
//
// It passes only on positive evidence: result Succeeded for the very hash in observedConfigHash. A result for
// another hash is a result for another KMS configuration, and an empty preflight is no evidence at all.
//
// The result is as strong as the operator's preflight deployer: library-go's always-succeed deployer, which both
// operators wire today, records Succeeded without running a plugin.
func PreflightFromStatus(status kms.EncryptionStatusProvider) PreflightReader {
	return statusPreflight{status: status}
}

type statusPreflight struct {
	status kms.EncryptionStatusProvider
}

func (p statusPreflight) PreflightPassed(ctx context.Context, newKeyIDs []string) error {
	status, err := p.status.GetKMSEncryptionStatus(ctx)
	if err != nil {
		return fmt.Errorf("reading the KMS preflight status: %w", err)
	}
	preflight := status.Preflight
	observed, result := preflight.ObservedConfigHash, preflight.Result
	switch {
	case observed == "":
		return &PreflightError{Detail: fmt.Sprintf("no KMS configuration observed for preflight (status.encryptionStatus.preflight.observedConfigHash is empty) for new KMS keys %v", newKeyIDs)}
	case result.Status == "":
		return &PreflightError{Detail: fmt.Sprintf("no preflight result yet for KMS configuration %q (new KMS keys %v)", observed, newKeyIDs)}
	case result.ConfigHash != observed:
		return &PreflightError{Detail: fmt.Sprintf("the preflight result (%s) is for KMS configuration %q, the current one is %q", result.Status, result.ConfigHash, observed)}
	case result.Status == operatorv1.KMSPreflightResultFailed:
		return &PreflightError{Failed: true, Detail: fmt.Sprintf("the preflight of KMS configuration %q failed", observed)}
	case result.Status != operatorv1.KMSPreflightResultSucceeded:
		return &PreflightError{Detail: fmt.Sprintf("the preflight of KMS configuration %q ended %q, which is neither Succeeded nor Failed", observed, result.Status)}
	}
	return nil
}
