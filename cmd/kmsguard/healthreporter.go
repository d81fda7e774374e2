package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"

	"github.com/kmsguard/kmsguard/internal/cli"
	"github.com/kmsguard/kmsguard/pkg/encryptionstatus"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/pluginprobe"
)

// healthReporterUserAgent names the reporter in API server audit logs.
const healthReporterUserAgent = "kmsguard-health-reporter"

// healthReporterOptions are the flags of `kmsguard health-reporter`. All but
// --operator and --round-trip-interval are library-go's kms-health-reporter
// flags, with its defaults and its validation, so either binary can run in
// the sidecar that library-go's plugin lifecycle controller injects.
type healthReporterOptions struct {
	kmsSockets        []string
	interval          time.Duration
	roundTripInterval time.Duration
	readTimeout       time.Duration
	writeTimeout      time.Duration
	nodeName          string
	kubeconfig        string
	operator          string
}

func newHealthReporterCommand() *cobra.Command {
	o := &healthReporterOptions{}
	cmd := &cobra.Command{
		Use:   "health-reporter",
		Short: "Probe this node's KMS plugins with Status and an encrypt/decrypt round trip, and publish their health",
		Long: `health-reporter replaces library-go's kms-health-reporter sidecar. Every --interval it probes each KMS
plugin socket with Status and, when Status is healthy and a round trip is due, an Encrypt/Decrypt round trip
of a small random payload, which catches a key that was disabled or whose decrypt permission was revoked while
the plugin still answers Status with "ok". Round trips are audited by the remote KMS, so they run every
--round-trip-interval (5m by default) while they pass; one also runs on the first healthy Status after a
failure or a change of key id, and a failed one is repeated every --interval, so the failure is reported every
cycle until a round trip passes. A key revoked while Status says "ok" is reported within --round-trip-interval
plus one --interval (5m33s by default, with jitter). A plugin that answers Status with a gRPC error of its own (FailedPrecondition
for a disabled key, PermissionDenied, Unauthenticated, Internal, ...) is reported Unhealthy with its code and
message; Error is kept for a plugin that cannot be reached (no socket, Unavailable, DeadlineExceeded, not a
KMS v2 plugin). It server-side applies the results to status.encryptionStatus.healthReports of the chosen
operator resource under the same field manager as library-go's reporter.`,
		Example: `  # The sidecar next to KMS plugin kms-1 on node master-0, reporting to the KubeAPIServer resource
  kmsguard health-reporter --kms-sockets unix:///var/run/kmsplugin/kms-1.sock --node-name master-0`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.validate(); err != nil {
				return err
			}
			// The context ends at SIGINT or SIGTERM (cli.Execute), as a sidecar is stopped; the reporter then
			// returns and the command succeeds.
			ctx := cmd.Context()
			reporter, err := o.newReporter(ctx)
			if err != nil {
				return err
			}
			klog.InfoS("Starting KMS plugin health reporter", "node", o.nodeName, "operator", o.operator,
				"sockets", o.kmsSockets, "interval", o.interval, "roundTripInterval", o.roundTripInterval, "fieldManager", reporter.FieldManager)
			reporter.Run(ctx)
			return nil
		},
	}
	o.addFlags(cmd.Flags())
	// Its output is a log, as any Kubernetes component's.
	return cli.Logs(cli.WithExitCodes(cmd, plainExitCodes))
}

func (o *healthReporterOptions) addFlags(fs *pflag.FlagSet) {
	fs.StringSliceVar(&o.kmsSockets, "kms-sockets", nil, "KMS plugin endpoints to probe, unix:///var/run/kmsplugin/kms-<key id>.sock, comma separated")
	fs.DurationVar(&o.interval, "interval", 30*time.Second, "time between the starts of two probe-and-publish cycles")
	fs.DurationVar(&o.roundTripInterval, "round-trip-interval", pluginprobe.DefaultRoundTripInterval,
		"least time between two passing Encrypt/Decrypt round trips to a plugin (a failed one is repeated every --interval); 0 makes one every cycle")
	fs.DurationVar(&o.readTimeout, "read-timeout", 5*time.Second, "deadline of each call to a plugin; a probe makes up to three (Status, Encrypt, Decrypt)")
	fs.DurationVar(&o.writeTimeout, "write-timeout", 10*time.Second, "deadline of each status apply")
	fs.StringVar(&o.nodeName, "node-name", "", "name of the node the plugins run on; reporters writing to the same resource must have different names")
	fs.StringVar(&o.kubeconfig, "kubeconfig", "", "path to a kubeconfig; empty uses the in-cluster config")
	fs.StringVar(&o.operator, "operator", "kubeapiserver", "operator resource that receives the reports: "+strings.Join(operatorNames(), ", "))
}

// validate rejects what library-go's reporter rejects, in the same order,
// and an unknown --operator.
func (o *healthReporterOptions) validate() error {
	if len(o.kmsSockets) == 0 {
		return fmt.Errorf("--kms-sockets is required")
	}
	seen := sets.New[string]()
	for _, socket := range o.kmsSockets {
		if _, err := keyIDFromSocket(socket); err != nil {
			return err
		}
		if seen.Has(socket) {
			return fmt.Errorf("--kms-sockets entry %q is given twice", socket)
		}
		seen.Insert(socket)
	}
	for _, d := range []struct {
		flag  string
		value time.Duration
	}{
		{"--interval", o.interval},
		{"--read-timeout", o.readTimeout},
		{"--write-timeout", o.writeTimeout},
	} {
		if d.value <= 0 {
			return fmt.Errorf("%s must be positive, got %s", d.flag, d.value)
		}
	}
	if o.roundTripInterval < 0 {
		return fmt.Errorf("--round-trip-interval must not be negative, got %s", o.roundTripInterval)
	}
	if o.nodeName == "" {
		return fmt.Errorf("--node-name is required")
	}
	if _, ok := operands[o.operator]; !ok {
		return fmt.Errorf("--operator %q is not one of %s", o.operator, strings.Join(operatorNames(), ", "))
	}
	return nil
}

// newReporter connects the validated options to the cluster and the plugins.
// The plugins are dialed lazily; their connections close when ctx is done.
func (o *healthReporterOptions) newReporter(ctx context.Context) (*pluginprobe.Reporter, error) {
	restConfig, err := loadKubeconfig(o.kubeconfig)
	if err != nil {
		return nil, err
	}
	client, err := operatorclient.NewForConfig(rest.AddUserAgent(restConfig, healthReporterUserAgent))
	if err != nil {
		return nil, fmt.Errorf("creating operator client: %w", err)
	}

	plugins := make([]pluginprobe.Plugin, 0, len(o.kmsSockets))
	for _, socket := range o.kmsSockets {
		keyID, err := keyIDFromSocket(socket)
		if err != nil {
			return nil, err
		}
		plugin, err := pluginprobe.NewGRPCPlugin(ctx, keyID, socket, o.readTimeout)
		if err != nil {
			return nil, err
		}
		plugins = append(plugins, plugin)
	}

	return &pluginprobe.Reporter{
		Prober: pluginprobe.NewProber(o.nodeName, plugins, o.readTimeout, clock.RealClock{},
			pluginprobe.WithRoundTripInterval(o.roundTripInterval)),
		Provider:     operands[o.operator].statusProvider(client),
		FieldManager: encryptionstatus.ReporterFieldManager(o.nodeName),
		Interval:     o.interval,
		WriteTimeout: o.writeTimeout,
	}, nil
}
