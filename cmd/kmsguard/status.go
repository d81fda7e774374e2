package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/client-go/kubernetes"

	operatorv1 "github.com/openshift/api/operator/v1"
	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"

	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

type statusOptions struct {
	kube           *kubeFlags
	operator       string
	output         outputFormat
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
		Example: `  # The kube-apiserver's KMS plugins, with the current kubeconfig context
  kmsguard status

  # openshift-apiserver's, from another context, as YAML
  kmsguard status --operator openshiftapiserver --context admin -o yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return exitWith(o.run(cmd.Context(), cmd.OutOrStdout()))
		},
	}
	o.kube = addKubeFlags(cmd.Flags())
	cmd.Flags().StringVar(&o.operator, "operator", "kubeapiserver", "operator resource: "+strings.Join(operatorNames(), ", "))
	addOutputFlag(cmd.Flags(), &o.output, "the evaluation and the operator's KMS conditions")
	cmd.Flags().DurationVar(&o.reportInterval, "report-interval", kmsstate.DefaultReportInterval, "the health reporters' --interval; reports older than 4 intervals are stale")
	return cmd
}

// run reads the status and prints it; it returns the exit code and the error behind it.
func (o *statusOptions) run(ctx context.Context, out io.Writer) (int, error) {
	if _, ok := operands[o.operator]; !ok {
		return exitError, fmt.Errorf("--operator must be one of %s", strings.Join(operatorNames(), ", "))
	}
	if err := o.output.validate(); err != nil {
		return exitError, err
	}
	config, err := o.kube.restConfig()
	if err != nil {
		return exitError, err
	}
	kube, err := kubernetes.NewForConfig(config)
	if err != nil {
		return exitError, err
	}
	operators, err := operatorclient.NewForConfig(config)
	if err != nil {
		return exitError, err
	}
	report, err := o.collect(ctx, kube, operators, time.Now())
	if err != nil {
		return exitError, err
	}
	if err := o.print(out, report); err != nil {
		return exitError, err
	}
	return exitOK, nil
}

func (o *statusOptions) collect(ctx context.Context, kube kubernetes.Interface, operators operatorclient.Interface, now time.Time) (*statusReport, error) {
	state, resource, err := evaluateOperand(ctx, kube, operators, o.operator, o.reportInterval, now)
	if err != nil {
		return nil, err
	}
	var kmsConditions []operatorv1.OperatorCondition
	for _, c := range resource.conditions {
		if strings.HasPrefix(c.Type, "KMS") || strings.HasPrefix(c.Type, "Encryption") {
			kmsConditions = append(kmsConditions, c)
		}
	}
	return &statusReport{Operator: o.operator, State: state, Conditions: kmsConditions}, nil
}

func (o *statusOptions) print(out io.Writer, report *statusReport) error {
	if o.output.structured() {
		return o.output.print(out, report)
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
