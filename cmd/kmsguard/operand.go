package main

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	operatorv1 "github.com/openshift/api/operator/v1"
	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"

	"github.com/kmsguard/kmsguard/pkg/encryptionstatus"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
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
}

// operatorResource is what status and recover read of an operator resource.
type operatorResource struct {
	conditions       []operatorv1.OperatorCondition
	encryptionStatus operatorv1.KMSEncryptionStatus
}

var operands = map[string]operand{
	"kubeapiserver": {namespace: "openshift-kube-apiserver", operatorNamespace: "openshift-kube-apiserver-operator", kind: "KubeAPIServer", read: func(ctx context.Context, c operatorclient.Interface) (operatorResource, error) {
		o, err := c.OperatorV1().KubeAPIServers().Get(ctx, encryptionstatus.Name, metav1.GetOptions{})
		if err != nil {
			return operatorResource{}, err
		}
		return operatorResource{conditions: o.Status.Conditions, encryptionStatus: o.Status.EncryptionStatus}, nil
	}},
	"openshiftapiserver": {namespace: "openshift-apiserver", operatorNamespace: "openshift-apiserver-operator", kind: "OpenShiftAPIServer", read: func(ctx context.Context, c operatorclient.Interface) (operatorResource, error) {
		o, err := c.OperatorV1().OpenShiftAPIServers().Get(ctx, encryptionstatus.Name, metav1.GetOptions{})
		if err != nil {
			return operatorResource{}, err
		}
		return operatorResource{conditions: o.Status.Conditions, encryptionStatus: o.Status.EncryptionStatus}, nil
	}},
	"authentication": {namespace: "openshift-oauth-apiserver", operatorNamespace: "openshift-authentication-operator", kind: "Authentication", read: func(ctx context.Context, c operatorclient.Interface) (operatorResource, error) {
		o, err := c.OperatorV1().Authentications().Get(ctx, encryptionstatus.Name, metav1.GetOptions{})
		if err != nil {
			return operatorResource{}, err
		}
		return operatorResource{conditions: o.Status.Conditions, encryptionStatus: o.Status.OAuthAPIServer.EncryptionStatus}, nil
	}},
}

// publishedState is the evaluation the operator's kmsstate controller published last, when it is no older than
// the freshness bound of reportInterval (4 intervals, kmsstate's default MaxStateAge); else an
// *kmsstate.UnhealthyError: StateNotEvaluated when nothing is published, StateStale when it is too old.
func publishedState(ctx context.Context, kube kubernetes.Interface, operator string, reportInterval time.Duration, now time.Time) (kmsstate.State, error) {
	store := kmsstate.ConfigMapPublisher{Client: kube.CoreV1(), Namespace: operands[operator].operatorNamespace, Name: kmsstate.DefaultConfigMapName}
	state, ok, err := store.ReadPublished(ctx)
	if err != nil {
		return kmsstate.State{}, err
	}
	if !ok {
		return kmsstate.State{}, &kmsstate.UnhealthyError{Failures: []kmsstate.Failure{{Reason: kmsstate.ReasonStateNotEvaluated, Detail: fmt.Sprintf(
			"the %s operator's kmsstate controller has published no evaluation (configmap %s/%s, key %s)", operator, store.Namespace, store.Name, kmsstate.StateDataKey)}}}
	}
	if err := state.Fresh(now, kmsstate.Config{ReportInterval: reportInterval}.StaleAfter()); err != nil {
		return kmsstate.State{}, err
	}
	return state, nil
}
