package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

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
	"kubeapiserver": {namespace: "openshift-kube-apiserver", read: func(ctx context.Context, c operatorclient.Interface) (operatorResource, error) {
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
	"openshiftapiserver": {namespace: "openshift-apiserver", read: func(ctx context.Context, c operatorclient.Interface) (operatorResource, error) {
		o, err := c.OperatorV1().OpenShiftAPIServers().Get(ctx, encryptionstatus.Name, metav1.GetOptions{})
		if err != nil {
			return operatorResource{}, err
		}
		return operatorResource{conditions: o.Status.Conditions, encryptionStatus: o.Status.EncryptionStatus}, nil
	}},
	"authentication": {namespace: "openshift-oauth-apiserver", read: func(ctx context.Context, c operatorclient.Interface) (operatorResource, error) {
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

type statusOptions struct {
	kubeconfig     string
	operator       string
	output         string
	reportInterval time.Duration
}

// statusReport is what `kmsguard status -o json` prints.
type statusReport struct {
	Operator   string                         `json:"operator"`
	State      kmsstate.State                 `json:"state"`
	Conditions []operatorv1.OperatorCondition `json:"conditions"`
}

func newStatusCommand() *cobra.Command {
	o := &statusOptions{}
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show KMS plugin health per node and key, key rotations and the operator's KMS conditions",
		Long: `status reads the KMS health reports, the current encryption config and the conditions of an operator
resource, evaluates them as kmsstate's controller does, and prints per node and key the plugin health, how
fresh its report is and the remote key id it serves. It changes nothing.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, ok := operands[o.operator]; !ok {
				return fmt.Errorf("--operator must be one of %s", strings.Join(operatorNames(), ", "))
			}
			if o.output != "" && o.output != "json" {
				return fmt.Errorf("unknown output format %q: want json or nothing", o.output)
			}
			config, err := clientcmd.BuildConfigFromFlags("", o.kubeconfig)
			if err != nil {
				return fmt.Errorf("loading kubeconfig: %w", err)
			}
			kube, err := kubernetes.NewForConfig(config)
			if err != nil {
				return err
			}
			operators, err := operatorclient.NewForConfig(config)
			if err != nil {
				return err
			}
			report, err := o.collect(cmd.Context(), kube, operators, time.Now())
			if err != nil {
				return err
			}
			return o.print(cmd.OutOrStdout(), report)
		},
	}
	cmd.Flags().StringVar(&o.kubeconfig, "kubeconfig", "", "path to a kubeconfig; empty uses in-cluster config")
	cmd.Flags().StringVar(&o.operator, "operator", "kubeapiserver", "operator resource: "+strings.Join(operatorNames(), ", "))
	cmd.Flags().StringVarP(&o.output, "output", "o", "", "output format: json")
	cmd.Flags().DurationVar(&o.reportInterval, "report-interval", kmsstate.DefaultReportInterval, "the health reporters' --interval; reports older than 4 intervals are stale")
	return cmd
}

func (o *statusOptions) collect(ctx context.Context, kube kubernetes.Interface, operators operatorclient.Interface, now time.Time) (*statusReport, error) {
	operand := operands[o.operator]
	resource, err := operand.read(ctx, operators)
	if err != nil {
		return nil, fmt.Errorf("reading the %s operator resource: %w", o.operator, err)
	}
	nodes := resource.nodes
	if nodes == nil {
		nodeList, err := kube.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: controlPlaneNodeLabel})
		if err != nil {
			return nil, fmt.Errorf("listing control-plane nodes: %w", err)
		}
		for _, n := range nodeList.Items {
			nodes = append(nodes, n.Name)
		}
	}
	keys, err := currentKeys(ctx, kube, operand.namespace)
	if err != nil {
		return nil, err
	}
	state, _ := kmsstate.Evaluate(kmsstate.Config{ReportInterval: o.reportInterval}, kmsstate.Memory{}, kmsstate.Observation{
		Now: now, Nodes: nodes, KeyIDs: keys.IDs, Providers: keys.Providers, Reports: resource.encryptionStatus.HealthReports,
	})
	var kmsConditions []operatorv1.OperatorCondition
	for _, c := range resource.conditions {
		if strings.HasPrefix(c.Type, "KMS") || strings.HasPrefix(c.Type, "Encryption") {
			kmsConditions = append(kmsConditions, c)
		}
	}
	return &statusReport{Operator: o.operator, State: state, Conditions: kmsConditions}, nil
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
	return kmsstate.KeysFromConfig(config), nil
}

func (o *statusOptions) print(out io.Writer, report *statusReport) error {
	if o.output == "json" {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(report)
	}
	state := report.State
	if len(state.KeyIDs) == 0 {
		fmt.Fprintf(out, "%s: no KMS key in the encryption config\n", report.Operator)
	}
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "NODE\tKEY\tHEALTH\tLAST CHECKED\tREMOTE KEY ID\tDETAIL")
	for _, p := range state.Plugins {
		checked := "never"
		if !p.LastChecked.IsZero() {
			checked = p.Age.Round(time.Second).String() + " ago"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", p.Node, p.KeyID, p.Health, checked, orDash(p.KEKID), oneLine(p.Detail))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	degraded, reason, message := state.Degraded()
	fmt.Fprintf(out, "\nEvaluation: degraded=%v reason=%s", degraded, reason)
	if message != "" {
		fmt.Fprintf(out, ": %s", message)
	}
	fmt.Fprintln(out)
	for _, r := range state.Rotations {
		fmt.Fprintf(out, "Key rotation in progress: %s (waiting for %s)\n", r, strings.Join(r.Pending, ", "))
	}
	for _, i := range state.Ignored {
		fmt.Fprintf(out, "Ignored %s: %s\n", i.What, i.Why)
	}
	if len(report.Conditions) > 0 {
		fmt.Fprintln(out, "\nOperator conditions:")
		w = tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
		slices.SortFunc(report.Conditions, func(a, b operatorv1.OperatorCondition) int { return strings.Compare(a.Type, b.Type) })
		for _, c := range report.Conditions {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", c.Type, c.Status, c.Reason, oneLine(c.Message))
		}
		return w.Flush()
	}
	return nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }
