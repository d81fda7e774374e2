package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/kubernetes"

	operatorv1 "github.com/openshift/api/operator/v1"
	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	"github.com/openshift/library-go/pkg/operator/encryption/kms"
	"github.com/openshift/library-go/pkg/operator/v1helpers"

	"github.com/kmsguard/kmsguard/pkg/encryptionstatus"
	"github.com/kmsguard/kmsguard/pkg/kmsrecovery"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/pkg/operatorstate"
)

// operand is where an operator's apiserver runs and what kmsguard reads of it.
type operand struct {
	// namespace holds the apiserver and its encryption-config secret (library-go syncs it there).
	namespace string
	// operatorNamespace is where the operator runs and records its events; kind is the operator resource's
	// kind (its name is always "cluster"). `kmsguard recover` records its events there, next to the recovery
	// controller's.
	operatorNamespace, kind string
	// read returns, from one GET of the operator resource, its conditions and its KMS encryption status.
	read func(ctx context.Context, c operatorclient.Interface) (operatorResource, error)
	// state is the operator resource as kmsguard's stores keep their state on it (the KEK id memory).
	state func(c operatorclient.Interface) operatorstate.Resource
	// statusProvider is the operator resource as `kmsguard health-reporter` publishes its reports to it.
	statusProvider func(c operatorclient.Interface) kms.EncryptionStatusProvider
}

// operatorResource is what status and recover read of an operator resource.
type operatorResource struct {
	conditions       []operatorv1.OperatorCondition
	encryptionStatus operatorv1.KMSEncryptionStatus
}

// operands are the operators kmsguard knows, by their --operator name.
var operands = map[string]operand{
	"kubeapiserver": {namespace: "openshift-kube-apiserver", operatorNamespace: "openshift-kube-apiserver-operator", kind: "KubeAPIServer", state: func(c operatorclient.Interface) operatorstate.Resource {
		return operatorstate.KubeAPIServer(c.OperatorV1().KubeAPIServers())
	}, statusProvider: func(c operatorclient.Interface) kms.EncryptionStatusProvider {
		return encryptionstatus.NewKubeAPIServer(c.OperatorV1().KubeAPIServers())
	}, read: func(ctx context.Context, c operatorclient.Interface) (operatorResource, error) {
		o, err := c.OperatorV1().KubeAPIServers().Get(ctx, encryptionstatus.Name, metav1.GetOptions{})
		if err != nil {
			return operatorResource{}, err
		}
		return operatorResource{conditions: o.Status.Conditions, encryptionStatus: o.Status.EncryptionStatus}, nil
	}},
	"openshiftapiserver": {namespace: "openshift-apiserver", operatorNamespace: "openshift-apiserver-operator", kind: "OpenShiftAPIServer", state: func(c operatorclient.Interface) operatorstate.Resource {
		return operatorstate.OpenShiftAPIServer(c.OperatorV1().OpenShiftAPIServers())
	}, statusProvider: func(c operatorclient.Interface) kms.EncryptionStatusProvider {
		return encryptionstatus.NewOpenShiftAPIServer(c.OperatorV1().OpenShiftAPIServers())
	}, read: func(ctx context.Context, c operatorclient.Interface) (operatorResource, error) {
		o, err := c.OperatorV1().OpenShiftAPIServers().Get(ctx, encryptionstatus.Name, metav1.GetOptions{})
		if err != nil {
			return operatorResource{}, err
		}
		return operatorResource{conditions: o.Status.Conditions, encryptionStatus: o.Status.EncryptionStatus}, nil
	}},
	"authentication": {namespace: "openshift-oauth-apiserver", operatorNamespace: "openshift-authentication-operator", kind: "Authentication", state: func(c operatorclient.Interface) operatorstate.Resource {
		return operatorstate.Authentication(c.OperatorV1().Authentications())
	}, statusProvider: func(c operatorclient.Interface) kms.EncryptionStatusProvider {
		return encryptionstatus.NewAuthentication(c.OperatorV1().Authentications())
	}, read: func(ctx context.Context, c operatorclient.Interface) (operatorResource, error) {
		o, err := c.OperatorV1().Authentications().Get(ctx, encryptionstatus.Name, metav1.GetOptions{})
		if err != nil {
			return operatorResource{}, err
		}
		return operatorResource{conditions: o.Status.Conditions, encryptionStatus: o.Status.OAuthAPIServer.EncryptionStatus}, nil
	}},
}

// operatorNames returns the --operator values, sorted.
func operatorNames() []string {
	return slices.Sorted(maps.Keys(operands))
}

// publishedState is the evaluation the operator's kmsstate controller published last, when it is no older than
// the freshness bound of reportInterval (4 intervals, kmsstate's default MaxStateAge); else an
// *kmsstate.UnhealthyError: StateNotEvaluated when nothing is published, StateStale when it is too old.
//
// A published evaluation that cannot be read is an *unreadablePublishedError.
func publishedState(ctx context.Context, kube kubernetes.Interface, operator string, reportInterval time.Duration, now time.Time) (kmsstate.State, error) {
	store := kmsstate.ConfigMapPublisher{Client: kube.CoreV1(), Namespace: operands[operator].operatorNamespace, Name: kmsstate.DefaultConfigMapName}
	state, err := store.ReadFresh(ctx, kmsstate.Config{ReportInterval: reportInterval}.StaleAfter(), now)
	if unhealthy := (*kmsstate.UnhealthyError)(nil); err != nil && !errors.As(err, &unhealthy) {
		return kmsstate.State{}, &unreadablePublishedError{err: err}
	}
	return state, err
}

// unreadablePublishedError: the published evaluation exists but cannot be read, as when the KMS that encrypts its
// ConfigMap is down or the KEK it was written under is destroyed.
type unreadablePublishedError struct{ err error }

func (e *unreadablePublishedError) Error() string {
	return "the published KMS evaluation cannot be read: " + e.err.Error()
}

func (e *unreadablePublishedError) Unwrap() error { return e.err }

// snapshotFromOperatorResource is the KMS view of what the operator resource alone holds, for when the published
// evaluation cannot be read: its health reports, evaluated with kmsstate's own Evaluate and the KEK id memory the
// operator keeps on the resource (kmsstate.AnnotationMemory). It sees less than the operator (the nodes and keys are
// those the reports name, and no apiserver's own view), so the operator's KMSPluginsDegraded condition must agree:
// anything but False is unhealthy, and so is a resource without any health report.
func snapshotFromOperatorResource(ctx context.Context, operators operatorclient.Interface, operator string, resource operatorResource, reportInterval time.Duration, now time.Time) (kmsrecovery.KMSSnapshot, error) {
	memory, err := kmsstate.NewAnnotationMemory(operands[operator].state(operators)).Load(ctx)
	if err != nil {
		return kmsrecovery.KMSSnapshot{}, err
	}
	reports := resource.encryptionStatus.HealthReports
	nodes, keys := sets.New[string](), sets.New[string]()
	for _, r := range reports {
		nodes.Insert(r.NodeName)
		keys.Insert(r.KeyID)
	}
	state, _ := kmsstate.Evaluate(kmsstate.Config{ReportInterval: reportInterval}, memory,
		kmsstate.Observation{Now: now, Nodes: sets.List(nodes), KeyIDs: sets.List(keys), Reports: reports})
	snapshot := kmsrecovery.SnapshotFromKMSState(state)
	why := ""
	switch verdict := v1helpers.FindOperatorCondition(resource.conditions, kmsstate.ConditionKMSPluginsDegraded); {
	case len(reports) == 0:
		why = fmt.Sprintf("the %s operator resource has no health report to evaluate", operator)
	case verdict == nil:
		why = "the operator has no " + kmsstate.ConditionKMSPluginsDegraded + " condition"
	case verdict.Status != operatorv1.ConditionFalse:
		why = fmt.Sprintf("the operator's %s is %s %s: %s", verdict.Type, verdict.Status, verdict.Reason, verdict.Message)
	}
	if why != "" {
		snapshot.Unhealthy = errors.Join(snapshot.Unhealthy, &kmsstate.UnhealthyError{Failures: []kmsstate.Failure{{
			Reason: kmsstate.ReasonStateNotEvaluated, Detail: "the published evaluation cannot be read, and " + why}}})
	}
	return snapshot, nil
}
