package openshift

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"regexp"
	"slices"
	"sort"
	"strings"

	kubecontrolplanev1 "github.com/openshift/api/kubecontrolplane/v1"
	"k8s.io/apimachinery/pkg/runtime"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	"sigs.k8s.io/yaml"
)

// Upstream is what an upstream kube-apiserver binary accepts, read from its --help (ParseUpstreamHelp).
type Upstream struct {
	// Flags are its flag names, without dashes.
	Flags map[string]bool
	// FeatureGates are the gates its --feature-gates knows (kube:<Name> in the help), by name.
	FeatureGates map[string]bool
	// AdmissionPlugins are the plugins its --enable-admission-plugins knows.
	AdmissionPlugins map[string]bool
}

var (
	helpFlag      = regexp.MustCompile(`(?m)^\s+(?:-[a-z], )?--([a-z0-9-]+)`)
	helpGate      = regexp.MustCompile(`(?m)^\s+kube:([A-Za-z0-9]+)=true\|false`)
	helpAdmission = regexp.MustCompile(`--enable-admission-plugins strings\s+admission plugins that should be enabled in addition to default enabled ones \(([^)]*)\)\. Comma-delimited list of admission plugins: ([^.]*)\.`)
)

// ParseUpstreamHelp reads what an upstream kube-apiserver accepts from the output of `kube-apiserver --help`.
func ParseUpstreamHelp(help string) (Upstream, error) {
	u := Upstream{Flags: map[string]bool{}, FeatureGates: map[string]bool{}, AdmissionPlugins: map[string]bool{}}
	for _, m := range helpFlag.FindAllStringSubmatch(help, -1) {
		u.Flags[m[1]] = true
	}
	for _, m := range helpGate.FindAllStringSubmatch(help, -1) {
		u.FeatureGates[m[1]] = true
	}
	// The help wraps long lines: join them before matching the plugin list.
	flat := strings.Join(strings.Fields(help), " ")
	if m := helpAdmission.FindStringSubmatch(flat); m != nil {
		for _, p := range strings.Split(m[2], ",") {
			u.AdmissionPlugins[strings.TrimSpace(p)] = true
		}
	}
	if len(u.Flags) == 0 || len(u.FeatureGates) == 0 || len(u.AdmissionPlugins) == 0 {
		return u, fmt.Errorf("not a kube-apiserver --help: %d flags, %d feature gates, %d admission plugins", len(u.Flags), len(u.FeatureGates), len(u.AdmissionPlugins))
	}
	return u, nil
}

// Disposition is what the translation did with one setting of OpenShift's kube-apiserver config.
type Disposition string

const (
	// Kept: passed to upstream as it is.
	Kept Disposition = "kept"
	// Mapped: passed as the upstream flag OpenShift's kube-apiserver turns it into, or with the values upstream
	// does not know left out.
	Mapped Disposition = "mapped"
	// Dropped: upstream has nothing for it.
	Dropped Disposition = "dropped"
)

// Decision is the translation of one setting, with why.
type Decision struct {
	// Setting is a key of apiServerArguments, or a field of the config (servingInfo.namedCertificates).
	Setting     string
	Disposition Disposition
	Why         string
}

// Translation is the upstream invocation of one OpenShift kube-apiserver config.
type Translation struct {
	// Args are the upstream flags, --name=value, one per value (as OpenShift's kube-apiserver expands its config),
	// sorted by name.
	Args []string
	// AdmissionConfig is the AdmissionConfiguration to write where AdmissionConfigFile says; nil when the config
	// has no plugin configuration upstream knows.
	AdmissionConfig []byte
	// Decisions say, for every setting of the config, what became of it.
	Decisions []Decision
}

// droppedArguments are the apiServerArguments of OpenShift's kube-apiserver that upstream does not have, with why.
// An argument upstream does not know and that is not here is an error: the lab never drops a setting silently.
var droppedArguments = map[string]string{
	"send-retry-after-while-not-ready-once": "an OpenShift carry: answer Retry-After until the apiserver was ready once; upstream has only --shutdown-send-retry-after",
	"kubelet-read-only-port":                "an OpenShift carry for the kubelet's read-only port, which kube-apiserver never uses",
}

// untouchedArguments pass through whatever else changes: the encryption config and every KMS setting in it are what
// kmsguard is about.
var untouchedArguments = []string{"encryption-provider-config", "encryption-provider-config-automatic-reload"}

// openShiftAuthorizers are authorization modes only OpenShift's kube-apiserver has.
var openShiftAuthorizers = map[string]string{
	"Scope":                 "OpenShift's OAuth token scope authorizer",
	"SystemMasters":         "upstream authorizes system:masters before any mode",
	"MinimumKubeletVersion": "OpenShift's kubelet version authorizer",
}

// UpstreamKubeAPIServer translates OpenShift's kube-apiserver config (the --openshift-config file, a
// KubeAPIServerConfig) into the flags of upstream kube-apiserver, as OpenShift's kube-apiserver turns it into its own
// flags (openshift-kube-apiserver's ConfigToFlags: apiServerArguments, then servingInfo, servicesSubnet,
// serviceAccountPublicKeyFiles, corsAllowedOrigins and the admission plugin config where the arguments do not set
// them), leaving out what only OpenShift's has. admissionConfigFile is where the caller writes AdmissionConfig; files
// lists the files of a path of serviceAccountPublicKeyFiles, which names the directories of ConfigMaps: the files of
// a directory, or the path itself for a file.
//
// The encryption provider config and its automatic reload pass through untouched; so do paths, which are the pod's.
func UpstreamKubeAPIServer(raw []byte, upstream Upstream, admissionConfigFile string, files func(dir string) ([]string, error)) (Translation, error) {
	var t Translation
	config := &kubecontrolplanev1.KubeAPIServerConfig{}
	if err := json.Unmarshal(raw, config); err != nil {
		return t, fmt.Errorf("the kube-apiserver config: %w", err)
	}
	present, err := presentFields(raw)
	if err != nil {
		return t, err
	}
	decide := func(setting string, d Disposition, why string) {
		t.Decisions = append(t.Decisions, Decision{Setting: setting, Disposition: d, Why: why})
	}

	args := map[string][]string{}
	for _, name := range sortedKeys(config.APIServerArguments) {
		values := []string(config.APIServerArguments[name])
		switch {
		case slices.Contains(untouchedArguments, name):
			args[name] = values
			decide(name, Kept, "the encryption config, which kmsguard is about, passes through untouched")
		case name == "authorization-mode":
			var kept, dropped []string
			for _, mode := range values {
				if why, ok := openShiftAuthorizers[mode]; ok {
					dropped = append(dropped, mode+" ("+why+")")
					continue
				}
				kept = append(kept, mode)
			}
			args[name] = kept
			decide(name, Mapped, "kept "+strings.Join(kept, ",")+"; left out "+strings.Join(dropped, ", "))
		case name == "enable-admission-plugins":
			kept, dropped := partition(values, upstream.AdmissionPlugins)
			args[name] = kept
			decide(name, Mapped, fmt.Sprintf("kept the %d plugins upstream has; left out OpenShift's %d (%s)", len(kept), len(dropped), strings.Join(dropped, ",")))
		case name == "feature-gates":
			var kept, dropped []string
			for _, gate := range values {
				if upstream.FeatureGates[strings.SplitN(gate, "=", 2)[0]] {
					kept = append(kept, gate)
				} else {
					dropped = append(dropped, gate)
				}
			}
			args[name] = kept
			decide(name, Mapped, fmt.Sprintf("kept the %d Kubernetes gates; left out OpenShift's %d, which upstream rejects as unknown", len(kept), len(dropped)))
		case upstream.Flags[name]:
			args[name] = values
			decide(name, Kept, "an upstream flag")
		default:
			why, ok := droppedArguments[name]
			if !ok {
				return t, fmt.Errorf("apiServerArguments %q: upstream kube-apiserver has no such flag, and the lab has no reason to drop it", name)
			}
			decide(name, Dropped, why)
		}
	}

	setIfUnset := func(setting, flag string, values ...string) {
		if len(values) == 0 || (len(values) == 1 && values[0] == "") {
			return
		}
		if _, set := args[flag]; set {
			decide(setting, Dropped, "apiServerArguments sets --"+flag+", which wins, as in OpenShift's kube-apiserver")
			return
		}
		args[flag] = values
		decide(setting, Mapped, "--"+flag+", as OpenShift's kube-apiserver maps it")
	}
	if bind := config.ServingInfo.BindAddress; bind != "" {
		host, port, err := net.SplitHostPort(bind)
		if err != nil {
			return t, fmt.Errorf("servingInfo.bindAddress: %w", err)
		}
		setIfUnset("servingInfo.bindAddress", "bind-address", host)
		setIfUnset("servingInfo.bindAddress", "secure-port", port)
	}
	setIfUnset("servingInfo.certFile", "tls-cert-file", config.ServingInfo.CertFile)
	setIfUnset("servingInfo.keyFile", "tls-private-key-file", config.ServingInfo.KeyFile)
	setIfUnset("servingInfo.clientCA", "client-ca-file", config.ServingInfo.ClientCA)
	setIfUnset("servingInfo.cipherSuites", "tls-cipher-suites", config.ServingInfo.CipherSuites...)
	setIfUnset("servingInfo.minTLSVersion", "tls-min-version", config.ServingInfo.MinTLSVersion)
	var sni []string
	for _, nc := range config.ServingInfo.NamedCertificates {
		names := ""
		if len(nc.Names) > 0 {
			names = ":" + strings.Join(nc.Names, ",")
		}
		sni = append(sni, nc.CertFile+","+nc.KeyFile+names)
	}
	setIfUnset("servingInfo.namedCertificates", "tls-sni-cert-key", sni...)
	if config.ServingInfo.BindNetwork != "" {
		decide("servingInfo.bindNetwork", Dropped, "OpenShift's listener network (tcp4); upstream listens on the bind address's family")
	}
	setIfUnset("servicesSubnet", "service-cluster-ip-range", config.ServicesSubnet)
	setIfUnset("servicesNodePortRange", "service-node-port-range", config.ServicesNodePortRange)
	setIfUnset("corsAllowedOrigins", "cors-allowed-origins", config.CORSAllowedOrigins...)
	if len(config.ServiceAccountPublicKeyFiles) > 0 {
		// OpenShift's kube-apiserver takes the directories of ConfigMaps here and reads every key in them; upstream
		// takes files.
		var keyFiles []string
		for _, path := range config.ServiceAccountPublicKeyFiles {
			expanded, err := files(path)
			if err != nil {
				return t, fmt.Errorf("serviceAccountPublicKeyFiles %s: %w", path, err)
			}
			keyFiles = append(keyFiles, expanded...)
		}
		setIfUnset("serviceAccountPublicKeyFiles", "service-account-key-file", keyFiles...)
	}

	admission, dropped, err := admissionConfig(config, upstream)
	if err != nil {
		return t, err
	}
	if len(config.AdmissionConfig.PluginConfig) > 0 {
		if admission != nil {
			t.AdmissionConfig = admission
			setIfUnset("admission.pluginConfig", "admission-control-config-file", admissionConfigFile)
		}
		if len(dropped) > 0 {
			decide("admission.pluginConfig", Dropped, "the configuration of OpenShift's own plugins "+strings.Join(dropped, ", "))
		}
	}
	for _, name := range sortedKeys(droppedFields) {
		if present[name] {
			decide(name, Dropped, droppedFields[name])
		}
	}

	for _, name := range sortedKeys(args) {
		for _, value := range args[name] {
			t.Args = append(t.Args, "--"+name+"="+value)
		}
	}
	return t, nil
}

// translatedFields are the KubeAPIServerConfig fields UpstreamKubeAPIServer handles; any other that is set fails the
// translation, so that a new field of the operator's config is never left out unnoticed.
var translatedFields = []string{"apiVersion", "kind", "apiServerArguments", "servingInfo", "servicesSubnet",
	"servicesNodePortRange", "corsAllowedOrigins", "serviceAccountPublicKeyFiles", "admission"}

// droppedFields are the KubeAPIServerConfig fields only OpenShift's kube-apiserver reads, with why.
var droppedFields = map[string]string{
	"authConfig":       "OpenShift's OAuth server metadata endpoint (oauthMetadataFile)",
	"projectConfig":    "read by OpenShift's project admission plugins",
	"consolePublicURL": "read by OpenShift's admission for the console's URL",
}

// presentFields are the top-level fields raw sets; a field UpstreamKubeAPIServer does not translate is an error.
func presentFields(raw []byte) (map[string]bool, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, fmt.Errorf("the kube-apiserver config: %w", err)
	}
	present := map[string]bool{}
	for _, name := range sortedKeys(fields) {
		switch v := string(bytes.TrimSpace(fields[name])); v {
		case "null", `""`, "{}", "[]", "0", "false":
			continue
		default:
			if !slices.Contains(translatedFields, name) && droppedFields[name] == "" {
				return nil, fmt.Errorf("the kube-apiserver config sets %s, which the lab does not translate: %s", name, v)
			}
		}
		present[name] = true
	}
	return present, nil
}

// admissionConfig is the upstream AdmissionConfiguration of the plugins upstream has, and the names of those it
// left out.
func admissionConfig(config *kubecontrolplanev1.KubeAPIServerConfig, upstream Upstream) ([]byte, []string, error) {
	out := &apiserverv1.AdmissionConfiguration{}
	var dropped []string
	for _, name := range sortedKeys(config.AdmissionConfig.PluginConfig) {
		if !upstream.AdmissionPlugins[name] {
			dropped = append(dropped, name)
			continue
		}
		plugin := config.AdmissionConfig.PluginConfig[name]
		out.Plugins = append(out.Plugins, apiserverv1.AdmissionPluginConfiguration{Name: name, Path: plugin.Location,
			Configuration: &runtime.Unknown{Raw: plugin.Configuration.Raw, ContentType: runtime.ContentTypeJSON}})
	}
	if len(out.Plugins) == 0 {
		return nil, dropped, nil
	}
	out.APIVersion, out.Kind = apiserverv1.SchemeGroupVersion.String(), "AdmissionConfiguration"
	data, err := yaml.Marshal(out)
	if err != nil {
		return nil, nil, err
	}
	return data, dropped, nil
}

func partition(values []string, known map[string]bool) (kept, dropped []string) {
	for _, v := range values {
		if known[v] {
			kept = append(kept, v)
		} else {
			dropped = append(dropped, v)
		}
	}
	return kept, dropped
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
