package main

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	operatorv1 "github.com/openshift/api/operator/v1"
	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
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
	// read returns, from one GET of the operator resource, its conditions, its KMS encryption status and, for
	// static-pod operators, its nodes.
	read func(ctx context.Context, c operatorclient.Interface) (operatorResource, error)
}

// operatorResource is what status reads of an operator resource.
type operatorResource struct {
	conditions       []operatorv1.OperatorCondition
	encryptionStatus operatorv1.KMSEncryptionStatus
	nodes            []string
}

var operands = map[string]operand{
	"kubeapiserver": {namespace: "openshift-kube-apiserver", operatorNamespace: "openshift-kube-apiserver-operator", kind: "KubeAPIServer", read: func(ctx context.Context, c operatorclient.Interface) (operatorResource, error) {
		o, err := c.OperatorV1().KubeAPIServers().Get(ctx, encryptionstatus.Name, metav1.GetOptions{})
		if err != nil {
			return operatorResource{}, err
		}
		r := operatorResource{conditions: o.Status.Conditions, encryptionStatus: o.Status.EncryptionStatus}
		for _, n := range o.Status.NodeStatuses {
			r.nodes = append(r.nodes, n.NodeName)
		}
		return r, nil
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

const (
	// encryptionConfigSecret is the operand copy of the encryption config that library-go's state controller
	// maintains, and its data key.
	encryptionConfigSecret    = "encryption-config"
	encryptionConfigSecretKey = "encryption-config"
	// controlPlaneNodeLabel selects the nodes of a Deployment-based apiserver, which has no node list of its
	// own in its operator status.
	controlPlaneNodeLabel = "node-role.kubernetes.io/control-plane"
)

// evaluateOperand reads an operator resource, its nodes and current KMS keys, and evaluates its health reports
// with kmsstate's code, as `status` shows them and `recover` checks them.
func evaluateOperand(ctx context.Context, kube kubernetes.Interface, operators operatorclient.Interface, operator string, reportInterval time.Duration, now time.Time) (kmsstate.State, operatorResource, error) {
	operand := operands[operator]
	resource, err := operand.read(ctx, operators)
	if err != nil {
		return kmsstate.State{}, operatorResource{}, fmt.Errorf("reading the %s operator resource: %w", operator, err)
	}
	nodes := resource.nodes
	if nodes == nil {
		nodeList, err := kube.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: controlPlaneNodeLabel})
		if err != nil {
			return kmsstate.State{}, operatorResource{}, fmt.Errorf("listing control-plane nodes: %w", err)
		}
		for _, n := range nodeList.Items {
			nodes = append(nodes, n.Name)
		}
	}
	keys, err := currentKeys(ctx, kube, operand.namespace)
	if err != nil {
		return kmsstate.State{}, operatorResource{}, err
	}
	state, _ := kmsstate.Evaluate(kmsstate.Config{ReportInterval: reportInterval}, kmsstate.Memory{}, kmsstate.Observation{
		Now: now, Nodes: nodes, KeyIDs: keys.IDs, Providers: keys.Providers, Reports: resource.encryptionStatus.HealthReports,
	})
	return state, resource, nil
}

// currentKeys reads the KMS keys of the operand's encryption config; no secret means no encryption.
func currentKeys(ctx context.Context, kube kubernetes.Interface, namespace string) (kmsstate.Keys, error) {
	secret, err := kube.CoreV1().Secrets(namespace).Get(ctx, encryptionConfigSecret, metav1.GetOptions{})
	if err != nil {
		if apierrors.IsNotFound(err) {
			return kmsstate.Keys{}, nil
		}
		return kmsstate.Keys{}, fmt.Errorf("reading %s/%s: %w", namespace, encryptionConfigSecret, err)
	}
	config, err := encryptionconfig.Decode(secret.Data[encryptionConfigSecretKey])
	if err != nil {
		return kmsstate.Keys{}, fmt.Errorf("%s/%s: %w", namespace, encryptionConfigSecret, err)
	}
	return encryptionconfig.KMSKeysOf(config), nil
}
