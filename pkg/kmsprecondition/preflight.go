package kmsprecondition

import (
	"context"
	"fmt"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
)

// library-go's KMS preflight protocol (encryption/controllers/kms_preflight_controller.go): the key controller
// posts the hash of the current KMS configuration (APIServer spec.encryption.kms and the data it references)
// in EncryptionKMSPreflightRequired's message; the preflight controller runs the check and posts the same hash
// in EncryptionKMSPreflightSucceeded's message when it passed, or sets EncryptionKMSPreflightControllerDegraded
// when it failed.
const (
	ConditionPreflightRequired           = "EncryptionKMSPreflightRequired"
	ConditionPreflightSucceeded          = "EncryptionKMSPreflightSucceeded"
	ConditionPreflightControllerDegraded = "EncryptionKMSPreflightControllerDegraded"
)

// PreflightReader answers whether library-go's KMS preflight passed for the KMS configuration the candidate's
// new keys were made from. It returns nil or a *PreflightError. newKeyIDs are the KMS keys the candidate adds;
// the gate asks only when there is one: promoting or dropping a key that already runs needs no new preflight.
type PreflightReader interface {
	PreflightPassed(ctx context.Context, newKeyIDs []string) error
}

// PreflightFromConditions reads library-go's preflight conditions from the operator status. It passes only on
// positive evidence: EncryptionKMSPreflightSucceeded True carrying the very hash EncryptionKMSPreflightRequired
// asks for. A success for another hash is a success for another KMS configuration.
func PreflightFromConditions(operator v1helpers.OperatorClient) PreflightReader {
	return &conditionPreflight{operator: operator}
}

type conditionPreflight struct {
	operator v1helpers.OperatorClient
}

func (p *conditionPreflight) PreflightPassed(_ context.Context, newKeyIDs []string) error {
	_, status, _, err := p.operator.GetOperatorState()
	if err != nil {
		return fmt.Errorf("reading the operator status: %w", err)
	}
	if c := v1helpers.FindOperatorCondition(status.Conditions, ConditionPreflightControllerDegraded); c != nil && c.Status == operatorv1.ConditionTrue {
		return &PreflightError{Failed: true, Detail: fmt.Sprintf("%s is True (%s): %s", ConditionPreflightControllerDegraded, c.Reason, c.Message)}
	}
	required := v1helpers.FindOperatorCondition(status.Conditions, ConditionPreflightRequired)
	succeeded := v1helpers.FindOperatorCondition(status.Conditions, ConditionPreflightSucceeded)
	switch {
	case succeeded == nil || succeeded.Status != operatorv1.ConditionTrue:
		return &PreflightError{Detail: fmt.Sprintf("no %s for new KMS keys %v yet", ConditionPreflightSucceeded, newKeyIDs)}
	case required == nil || required.Status != operatorv1.ConditionTrue:
		return &PreflightError{Detail: fmt.Sprintf("%s is for hash %q, but %s names no hash to compare it with", ConditionPreflightSucceeded, succeeded.Message, ConditionPreflightRequired)}
	case succeeded.Message != required.Message:
		return &PreflightError{Detail: fmt.Sprintf("the preflight passed for hash %q, the current KMS configuration has hash %q", succeeded.Message, required.Message)}
	}
	return nil
}
