package openshift

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
)

// The testdata are what the lab's binaries gave: kube-apiserver-config.json is the config kube-apiserver-operator
// c813e820 with hack/integration's patch wrote for a one-node lab cluster (ConfigMap
// openshift-kube-apiserver/config, TestKubeAPIServerOperatorRunsKMSGuard), and kube-apiserver-v1.36.3-help.txt is
// `kube-apiserver --help` of the envtest assets (hack/build-envtest-assets.sh).

func upstreamForTest(t *testing.T) Upstream {
	t.Helper()
	help, err := os.ReadFile("testdata/kube-apiserver-v1.36.3-help.txt")
	if err != nil {
		t.Fatal(err)
	}
	u, err := ParseUpstreamHelp(string(help))
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestParseUpstreamHelp(t *testing.T) {
	u := upstreamForTest(t)
	for _, flag := range []string{"encryption-provider-config", "etcd-servers", "tls-sni-cert-key", "feature-gates", "v"} {
		if !u.Flags[flag] {
			t.Errorf("flag %s not found", flag)
		}
	}
	if u.Flags["send-retry-after-while-not-ready-once"] {
		t.Error("an OpenShift flag read as upstream's")
	}
	for _, gate := range []string{"CBORServingAndStorage", "AllowUnsafeMalformedObjectDeletion"} {
		if !u.FeatureGates[gate] {
			t.Errorf("feature gate %s not found", gate)
		}
	}
	for _, plugin := range []string{"NamespaceLifecycle", "PodSecurity", "ValidatingAdmissionWebhook"} {
		if !u.AdmissionPlugins[plugin] {
			t.Errorf("admission plugin %s not found", plugin)
		}
	}
	if _, err := ParseUpstreamHelp("Usage: something else\n  --flag string\n"); err == nil {
		t.Error("a help without feature gates or admission plugins parsed")
	}
}

// operatorConfig is the operator's config with the encryption config library-go's observer adds once encryption is
// on, and its automatic reload, which kmsguard relies on passing through.
func operatorConfig(t *testing.T, edit func(map[string]any)) []byte {
	t.Helper()
	raw, err := os.ReadFile("testdata/kube-apiserver-config.json")
	if err != nil {
		t.Fatal(err)
	}
	var config map[string]any
	if err := json.Unmarshal(raw, &config); err != nil {
		t.Fatal(err)
	}
	args := config["apiServerArguments"].(map[string]any)
	args["encryption-provider-config"] = []any{"/etc/kubernetes/static-pod-resources/secrets/encryption-config/encryption-config"}
	args["encryption-provider-config-automatic-reload"] = []any{"false"}
	if edit != nil {
		edit(config)
	}
	out, err := json.Marshal(config)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// keyFiles is a node on which each service account key directory holds two keys.
func keyFiles(dir string) ([]string, error) {
	return []string{dir + "/service-account-001.pub", dir + "/service-account-002.pub"}, nil
}

func TestUpstreamKubeAPIServer(t *testing.T) {
	upstream := upstreamForTest(t)
	got, err := UpstreamKubeAPIServer(operatorConfig(t, nil), upstream, "/etc/kubernetes/admission.yaml", keyFiles)
	if err != nil {
		t.Fatal(err)
	}
	decisions := map[string][]Decision{}
	for _, d := range got.Decisions {
		decisions[d.Setting] = append(decisions[d.Setting], d)
	}
	valuesOf := func(flag string) []string {
		var values []string
		for _, arg := range got.Args {
			if v, ok := strings.CutPrefix(arg, "--"+flag+"="); ok {
				values = append(values, v)
			}
		}
		return values
	}

	// Each setting: what became of it, and the upstream flag's values (nil: no such flag).
	for _, tc := range []struct {
		setting     string
		disposition Disposition
		flag        string
		values      []string
	}{
		{"encryption-provider-config", Kept, "encryption-provider-config", []string{"/etc/kubernetes/static-pod-resources/secrets/encryption-config/encryption-config"}},
		{"encryption-provider-config-automatic-reload", Kept, "encryption-provider-config-automatic-reload", []string{"false"}},
		{"etcd-servers", Kept, "etcd-servers", []string{"https://127.0.0.1:2379", "https://localhost:2379"}},
		{"etcd-prefix", Kept, "etcd-prefix", []string{"kubernetes.io"}},
		{"tls-cert-file", Kept, "tls-cert-file", []string{"/etc/kubernetes/static-pod-certs/secrets/service-network-serving-certkey/tls.crt"}},
		{"authorization-mode", Mapped, "authorization-mode", []string{"RBAC", "Node"}},
		{"send-retry-after-while-not-ready-once", Dropped, "send-retry-after-while-not-ready-once", nil},
		{"kubelet-read-only-port", Dropped, "kubelet-read-only-port", nil},
		{"servingInfo.bindAddress", Mapped, "bind-address", []string{"0.0.0.0"}},
		{"servingInfo.bindAddress", Mapped, "secure-port", []string{"6443"}},
		{"servingInfo.minTLSVersion", Mapped, "tls-min-version", []string{"VersionTLS12"}},
		{"servingInfo.bindNetwork", Dropped, "bind-network", nil},
		{"servicesSubnet", Mapped, "service-cluster-ip-range", []string{"172.30.0.0/16"}},
		{"corsAllowedOrigins", Mapped, "cors-allowed-origins", []string{`//127\.0\.0\.1(:|$)`, `//localhost(:|$)`}},
		{"serviceAccountPublicKeyFiles", Mapped, "service-account-key-file", []string{
			"/etc/kubernetes/static-pod-resources/configmaps/sa-token-signing-certs/service-account-001.pub",
			"/etc/kubernetes/static-pod-resources/configmaps/sa-token-signing-certs/service-account-002.pub",
			"/etc/kubernetes/static-pod-resources/configmaps/bound-sa-token-signing-certs/service-account-001.pub",
			"/etc/kubernetes/static-pod-resources/configmaps/bound-sa-token-signing-certs/service-account-002.pub",
		}},
		{"admission.pluginConfig", Mapped, "admission-control-config-file", []string{"/etc/kubernetes/admission.yaml"}},
		{"authConfig", Dropped, "", nil},
		{"projectConfig", Dropped, "", nil},
	} {
		found := false
		for _, d := range decisions[tc.setting] {
			found = found || d.Disposition == tc.disposition
		}
		if !found {
			t.Errorf("%s: want %s, got %+v", tc.setting, tc.disposition, decisions[tc.setting])
		}
		if tc.flag != "" {
			if values := valuesOf(tc.flag); !slices.Equal(values, tc.values) {
				t.Errorf("%s: --%s %q, want %q", tc.setting, tc.flag, values, tc.values)
			}
		}
	}

	if sni := valuesOf("tls-sni-cert-key"); len(sni) != 5 ||
		sni[0] != "/etc/kubernetes/static-pod-certs/secrets/localhost-serving-cert-certkey/tls.crt,/etc/kubernetes/static-pod-certs/secrets/localhost-serving-cert-certkey/tls.key" {
		t.Errorf("--tls-sni-cert-key %q, want the five named certificates", sni)
	}
	for _, plugin := range valuesOf("enable-admission-plugins") {
		if !upstream.AdmissionPlugins[plugin] {
			t.Errorf("--enable-admission-plugins %s, which upstream does not have", plugin)
		}
	}
	if plugins := valuesOf("enable-admission-plugins"); !slices.Contains(plugins, "NodeRestriction") || len(plugins) != 22 {
		t.Errorf("--enable-admission-plugins %q, want the operator's 22 upstream plugins", plugins)
	}
	// The operator enables Kubernetes' CBORServingAndStorage, OpenShift's KMSEncryption, and KMSv1, a gate
	// Kubernetes 1.36 no longer has.
	gates := valuesOf("feature-gates")
	if !slices.Contains(gates, "CBORServingAndStorage=true") || slices.ContainsFunc(gates, func(g string) bool {
		return strings.HasPrefix(g, "KMSEncryption=") || strings.HasPrefix(g, "KMSv1=")
	}) {
		t.Errorf("--feature-gates %q: want CBORServingAndStorage kept, KMSEncryption and KMSv1 left out", gates)
	}
	if got.AdmissionConfig == nil || !strings.Contains(string(got.AdmissionConfig), "name: PodSecurity") ||
		strings.Contains(string(got.AdmissionConfig), "openshift.io") {
		t.Errorf("admission config: want PodSecurity's alone, got\n%s", got.AdmissionConfig)
	}

	// A field the config leaves empty has no decision, though the argument it would map to is set.
	if d := decisions["servingInfo.certFile"]; len(d) != 0 {
		t.Errorf("servingInfo.certFile is not set, but has decisions %+v", d)
	}

	// Every argument of the operator's config is decided on: none is left out silently.
	var config struct {
		APIServerArguments map[string][]string `json:"apiServerArguments"`
	}
	if err := json.Unmarshal(operatorConfig(t, nil), &config); err != nil {
		t.Fatal(err)
	}
	for name := range config.APIServerArguments {
		if len(decisions[name]) != 1 {
			t.Errorf("apiServerArguments %s: %d decisions, want 1", name, len(decisions[name]))
		}
	}
	if !slices.IsSortedFunc(got.Args, func(a, b string) int { return strings.Compare(flagName(a), flagName(b)) }) {
		t.Errorf("args not sorted by name: %q", got.Args)
	}
}

func TestUpstreamKubeAPIServerArgumentsWin(t *testing.T) {
	raw := operatorConfig(t, func(c map[string]any) {
		c["apiServerArguments"].(map[string]any)["tls-sni-cert-key"] = []any{"/a.crt,/a.key"}
	})
	got, err := UpstreamKubeAPIServer(raw, upstreamForTest(t), "/admission.yaml", keyFiles)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(got.Args, "--tls-sni-cert-key=/a.crt,/a.key") || slices.ContainsFunc(got.Args, func(a string) bool {
		return strings.HasPrefix(a, "--tls-sni-cert-key=/etc/")
	}) {
		t.Errorf("apiServerArguments' --tls-sni-cert-key must win over servingInfo.namedCertificates: %q", got.Args)
	}
	if !slices.ContainsFunc(got.Decisions, func(d Decision) bool {
		return d.Setting == "servingInfo.namedCertificates" && d.Disposition == Dropped
	}) {
		t.Errorf("servingInfo.namedCertificates not recorded as dropped: %+v", got.Decisions)
	}
}

func TestUpstreamKubeAPIServerRefuses(t *testing.T) {
	for name, edit := range map[string]func(map[string]any){
		"an argument neither upstream nor the lab knows": func(c map[string]any) {
			c["apiServerArguments"].(map[string]any)["openshift-new-flag"] = []any{"x"}
		},
		"a field the lab does not translate": func(c map[string]any) {
			c["oauthConfig"] = map[string]any{"masterPublicURL": "https://example.invalid"}
		},
		"a bind address without a port": func(c map[string]any) {
			c["servingInfo"].(map[string]any)["bindAddress"] = "0.0.0.0"
		},
		"not JSON of a config": func(c map[string]any) {
			c["apiServerArguments"] = "nope"
		},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := UpstreamKubeAPIServer(operatorConfig(t, edit), upstreamForTest(t), "/admission.yaml", keyFiles); err == nil {
				t.Error("translated")
			}
		})
	}
}

func flagName(arg string) string {
	name, _, _ := strings.Cut(arg, "=")
	return name
}
