package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/kmsguard/kmsguard/internal/cli"

	"github.com/spf13/cobra"
	"k8s.io/client-go/kubernetes"

	operatorv1 "github.com/openshift/api/operator/v1"
	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"

	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

type statusOptions struct {
	kube           *kubeFlags
	operator       string
	output         cli.OutputFormat
	reportInterval time.Duration
}

// statusReport is what `kmsguard status -o json|yaml` prints.
type statusReport struct {
	Operator string `json:"operator"`
	// Published says whether kmsstate has published an evaluation; State is that evaluation.
	Published bool            `json:"published"`
	State     *kmsstate.State `json:"state,omitempty"`
	// Unreadable says why the published evaluation could not be read (the KMS encrypts its ConfigMap, so it
	// cannot be read while the KMS is down, nor ever after the KEK it was written under is destroyed). The
	// operator's conditions are printed all the same.
	Unreadable string `json:"unreadable,omitempty"`
	// Stale says why the published evaluation is not current: older than the freshness bound, or older than
	// the KMSPluginsDegraded condition's last transition. Empty when it is current.
	Stale []string `json:"stale,omitempty"`
	// Verdict is the KMSPluginsDegraded condition, the operator's verdict; nil when the operator has none.
	Verdict    *operatorv1.OperatorCondition  `json:"verdict,omitempty"`
	Conditions []operatorv1.OperatorCondition `json:"conditions"`
}

func newStatusCommand() *cobra.Command {
	o := &statusOptions{}
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show the operator's KMS plugin health per node and key, key rotations and its KMS conditions",
		Long: `status prints the evaluation the operator's kmsstate controller published last (the one its conditions
were set from): per node and key the plugin health, how old its report was and the KEK id it serves,
with the time of the evaluation. The verdict is the operator's KMSPluginsDegraded condition; status does not
evaluate the reports again, so what it prints cannot contradict the condition. It says when the published
evaluation is stale or older than the condition. It changes nothing.`,
		Example: `  # The kube-apiserver's KMS plugins, with the current kubeconfig context
  kmsguard status

  # openshift-apiserver's, from another context, as YAML
  kmsguard status --operator openshiftapiserver --context admin -o yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return cli.ExitWith(o.run(cmd.Context(), cmd.OutOrStdout()))
		},
	}
	o.kube = addKubeFlags(cmd.Flags())
	cmd.Flags().StringVar(&o.operator, "operator", "kubeapiserver", "operator resource: "+strings.Join(operatorNames(), ", "))
	cli.AddOutputFlag(cmd.Flags(), &o.output, "the published evaluation and the operator's KMS conditions")
	cmd.Flags().DurationVar(&o.reportInterval, "report-interval", kmsstate.DefaultReportInterval, "the health reporters' --interval; a published evaluation older than 4 intervals is stale")
	return cli.WithExitCodes(cmd, statusExitCodes)
}

// run reads the status and prints it; it returns the exit code and the error behind it.
func (o *statusOptions) run(ctx context.Context, out io.Writer) (int, error) {
	if _, ok := operands[o.operator]; !ok {
		return cli.ExitError, fmt.Errorf("--operator must be one of %s", strings.Join(operatorNames(), ", "))
	}
	if err := o.output.Validate(); err != nil {
		return cli.ExitError, err
	}
	config, err := o.kube.restConfig()
	if err != nil {
		return cli.ExitError, err
	}
	kube, err := kubernetes.NewForConfig(config)
	if err != nil {
		return cli.ExitError, err
	}
	operators, err := operatorclient.NewForConfig(config)
	if err != nil {
		return cli.ExitError, err
	}
	report, err := o.collect(ctx, kube, operators, time.Now())
	if err != nil {
		return cli.ExitError, err
	}
	if err := o.print(out, report); err != nil {
		return cli.ExitError, err
	}
	return report.exitCode(), nil
}

// exitCode: what status shows is known only when a current evaluation is published.
func (r *statusReport) exitCode() int {
	if !r.Published || len(r.Stale) > 0 || r.Unreadable != "" {
		return cli.ExitIncomplete
	}
	return cli.ExitOK
}

// collect reads the operator resource's conditions and the evaluation kmsstate published in the operator's
// namespace. It evaluates nothing itself.
func (o *statusOptions) collect(ctx context.Context, kube kubernetes.Interface, operators operatorclient.Interface, now time.Time) (*statusReport, error) {
	operand := operands[o.operator]
	resource, err := operand.read(ctx, operators)
	if err != nil {
		return nil, fmt.Errorf("reading the %s operator resource: %w", o.operator, err)
	}
	store := kmsstate.ConfigMapPublisher{Client: kube.CoreV1(), Namespace: operand.operatorNamespace, Name: kmsstate.DefaultConfigMapName}
	state, published, err := store.ReadPublished(ctx)
	report := &statusReport{Operator: o.operator, Published: published}
	if err != nil {
		report.Unreadable = err.Error()
	}
	for _, c := range resource.conditions {
		if c.Type == kmsstate.ConditionKMSPluginsDegraded {
			report.Verdict = &c
		}
		if strings.HasPrefix(c.Type, "KMS") || strings.HasPrefix(c.Type, "Encryption") {
			report.Conditions = append(report.Conditions, c)
		}
	}
	if !published {
		return report, nil
	}
	report.State = &state
	if err := state.Fresh(now, kmsstate.Config{ReportInterval: o.reportInterval}.StaleAfter()); err != nil {
		why := err.Error()
		var stale *kmsstate.UnhealthyError
		if errors.As(err, &stale) && len(stale.Failures) == 1 {
			why = stale.Failures[0].Detail
		}
		report.Stale = append(report.Stale, why)
	}
	if v := report.Verdict; v != nil && v.LastTransitionTime.After(state.EvaluatedAt) {
		report.Stale = append(report.Stale, fmt.Sprintf("the published evaluation (%s) is older than the %s condition's last transition (%s): the operator has not published the evaluation it set the condition from",
			state.EvaluatedAt.UTC().Format(time.RFC3339), v.Type, v.LastTransitionTime.UTC().Format(time.RFC3339)))
	}
	return report, nil
}

func (o *statusOptions) print(out io.Writer, report *statusReport) error {
	if o.output.Structured() {
		return o.output.Print(out, report)
	}
	if report.Unreadable != "" {
		fmt.Fprintf(out, "%s: the published evaluation cannot be read: %s\nThe KMS encrypts it like any ConfigMap; the operator's conditions below are its verdict.\n",
			report.Operator, oneLine(report.Unreadable))
	} else if report.State == nil {
		fmt.Fprintf(out, "%s: nothing published: the operator's kmsstate controller has published no evaluation (configmap %s/%s, key %s); is it running, with Options.Publisher?\n",
			report.Operator, operands[report.Operator].operatorNamespace, kmsstate.DefaultConfigMapName, kmsstate.StateDataKey)
	} else if err := printState(out, report.Operator, report.State); err != nil {
		return err
	}
	for _, why := range report.Stale {
		fmt.Fprintf(out, "STALE: %s\n", oneLine(why))
	}
	if v := report.Verdict; v != nil {
		fmt.Fprintf(out, "\nVerdict (%s): %s %s", v.Type, v.Status, v.Reason)
		if v.Message != "" {
			fmt.Fprintf(out, ": %s", oneLine(v.Message))
		}
		fmt.Fprintln(out)
	} else {
		fmt.Fprintf(out, "\nVerdict: the operator has no %s condition\n", kmsstate.ConditionKMSPluginsDegraded)
	}
	if len(report.Conditions) > 0 {
		fmt.Fprintln(out, "\nOperator conditions:")
		w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
		slices.SortFunc(report.Conditions, func(a, b operatorv1.OperatorCondition) int { return strings.Compare(a.Type, b.Type) })
		for _, c := range report.Conditions {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", c.Type, c.Status, c.Reason, oneLine(c.Message))
		}
		return w.Flush()
	}
	return nil
}

// printState prints the published evaluation: its time, a row per node and key, rotations and what it ignored.
// Report ages are as of the evaluation, not of now.
func printState(out io.Writer, operator string, state *kmsstate.State) error {
	fmt.Fprintf(out, "Evaluated at %s by the operator's kmsstate controller\n", state.EvaluatedAt.UTC().Format(time.RFC3339))
	if len(state.KeyIDs) == 0 {
		fmt.Fprintf(out, "%s: no KMS key in the encryption config\n", operator)
	}
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "NODE\tKEY\tHEALTH\tLAST CHECKED\tKEK ID\tDETAIL")
	for _, p := range state.Plugins {
		checked := "never"
		if !p.LastChecked.IsZero() {
			checked = p.Age.Round(time.Second).String() + " before"
		}
		health := string(p.Health)
		switch {
		case p.Pending:
			// The key is not in the revision the node runs: judged by the rollout gate, not by the verdict.
			health += " (pending)"
		case p.NodeUnavailable != "":
			// The node is down on purpose (a drain, a reboot): its silence is not judged; the detail says why.
			health += " (node unavailable)"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", p.Node, p.KeyID, health, checked, orDash(p.KEKID), oneLine(p.Detail))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	for _, r := range state.Rotations {
		fmt.Fprintf(out, "Key rotation in progress: %s (waiting for %s)\n", r, strings.Join(r.Pending, ", "))
	}
	for _, i := range state.Ignored {
		fmt.Fprintf(out, "Ignored %s: %s\n", i.What, i.Why)
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
