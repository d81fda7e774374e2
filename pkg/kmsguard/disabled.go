package kmsguard

import (
	"context"
	"slices"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/kmsguard/kmsguard/pkg/evidence"
	"github.com/kmsguard/kmsguard/pkg/kmsmigration"
	"github.com/kmsguard/kmsguard/pkg/kmsprecondition"
	"github.com/kmsguard/kmsguard/pkg/kmsrecovery"
	"github.com/kmsguard/kmsguard/pkg/kmsrollback"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// OwnedConditionTypes are the operator conditions kmsguard's controllers set: what each reports, and the
// <Controller>ControllerDegraded each sets while its syncs fail.
var OwnedConditionTypes = []string{
	kmsstate.ConditionKMSPluginsDegraded, kmsstate.ConditionKMSPluginsProgressing, kmsstate.ConditionKMSKeyRotationProgressing, kmsstate.ConditionControllerDegraded,
	kmsprecondition.ConditionProgressing, kmsprecondition.ConditionDegraded,
	kmsprecondition.ConditionPreflightDegraded, kmsprecondition.ConditionPreflightReportControllerDegraded,
	kmsrollback.ConditionDegraded, kmsrollback.ConditionControllerDegraded,
	kmsmigration.ConditionProgressing, kmsmigration.ConditionDegraded, kmsmigration.ConditionControllerDegraded,
	evidence.ConditionVerified, evidence.ConditionCensusControllerDegraded,
	kmsrecovery.ConditionDegraded, kmsrecovery.ConditionControllerDegraded,
}

// disabled are kmsguard's parts while the KMSEncryption feature gate is off: the operator's own deployer and
// migrator, hooks that always pass, and one controller that removes what kmsguard set while the gate was on, so
// that no condition of kmsguard's outlives it. Once none is left it writes nothing.
func disabled(opts Options, operator v1helpers.OperatorClient) *Controllers {
	owned := sets.New(OwnedConditionTypes...)
	cleanup := factory.New().
		WithInformers(operator.Informer()).
		ResyncEvery(10*time.Minute).
		WithSync(func(ctx context.Context, _ factory.SyncContext) error {
			return removeConditions(ctx, operator, owned)
		}).
		ToController(factory.ControllerInstanceName(opts.InstanceName, "KMSGuardDisabled"), opts.Recorder.WithComponentSuffix("kmsguard-disabled"))
	preflight, preflightConfiguration := alwaysSucceedPreflight()
	return &Controllers{
		Deployer:               opts.Deployer,
		Migrator:               opts.Migrator,
		PreflightDeployer:      preflight,
		PreflightConfiguration: preflightConfiguration,
		Precondition:           func(context.Context) (bool, error) { return true, nil },
		ReadinessCheck:         func(context.Context, int32) (bool, error) { return true, nil },
		runners:                []runner{cleanup},
	}
}

// removeConditions removes the owned conditions from the operator status, and writes nothing when there is none.
// An update, not an apply: the conditions were applied under each controller's own field manager, and only a
// write of the whole list removes them whoever owns them.
func removeConditions(ctx context.Context, operator v1helpers.OperatorClient, owned sets.Set[string]) error {
	_, status, _, err := operator.GetOperatorState()
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(status.Conditions, func(c operatorv1.OperatorCondition) bool { return owned.Has(c.Type) }) {
		return nil
	}
	_, _, err = v1helpers.UpdateStatus(ctx, operator, func(status *operatorv1.OperatorStatus) error {
		kept := status.Conditions[:0]
		for _, c := range status.Conditions {
			if !owned.Has(c.Type) {
				kept = append(kept, c)
			}
		}
		status.Conditions = kept
		return nil
	})
	return err
}
