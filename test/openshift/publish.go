package openshift

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	"github.com/openshift/api/features"
	operatorv1 "github.com/openshift/api/operator/v1"
	configclient "github.com/openshift/client-go/config/clientset/versioned"
	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	"github.com/openshift/library-go/pkg/crypto"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/kmsguard/kmsguard/test/kmsenv"
)

// Namespaces of the cluster that kube-apiserver-operator reads or writes.
const (
	OperatorNamespace           = "openshift-kube-apiserver-operator"
	TargetNamespace             = "openshift-kube-apiserver"
	ConfigNamespace             = "openshift-config"
	ConfigManagedNamespace      = "openshift-config-managed"
	etcdNamespace               = "openshift-etcd"
	openShiftAPIServerNamespace = "openshift-apiserver"
)

// ClusterOperator is kube-apiserver-operator's ClusterOperator.
const ClusterOperator = "kube-apiserver"

// ReleaseVersion is the release version of the clusters this package publishes: the ClusterVersion's, the
// FeatureGate status's and the operator's OPERATOR_IMAGE_VERSION, which must be the same.
const ReleaseVersion = "4.22.0-kmsguard"

// KubernetesVersion is the version of the kube-apiserver hack/build-envtest-assets.sh builds: the kubelets'
// version and the operator's OPERAND_IMAGE_VERSION.
const KubernetesVersion = "1.36.3"

// Cluster describes the cluster whose publications Publish writes.
type Cluster struct {
	// Version is the release version: the ClusterVersion's desired version, the version of the FeatureGate's
	// status, and what the operator's Deployment sets as OPERATOR_IMAGE_VERSION (Operator.Version).
	Version string
	// Nodes are the control-plane nodes, as their kubelets register them.
	Nodes []Node
	// Domain is the cluster's base domain: api.<Domain> and api-int.<Domain> are the load balancers' names.
	Domain string
	// Etcd is what etcd-operator publishes: the members' addresses and the client credentials.
	Etcd Etcd
}

// Node is a control-plane node.
type Node struct {
	Name string
	// IP is its InternalIP: etcd-operator publishes a member at it, and its apiserver advertises it.
	IP string
	// KubeletVersion is status.nodeInfo.kubeletVersion ("v1.36.3"): the operator's kubelet version skew
	// controller reads it.
	KubeletVersion string
}

// Etcd is what etcd-operator publishes of etcd.
type Etcd struct {
	// MemberIPs are the members' addresses (etcd-endpoints): the operator observes https://<ip>:2379 of each.
	MemberIPs []string
	// CA is the PEM bundle that signs etcd's serving certificate (etcd-serving-ca); ClientCert and ClientKey are the
	// PEM client credentials kube-apiserver uses (etcd-client).
	CA, ClientCert, ClientKey []byte
}

// EtcdOf is what etcd-operator publishes of an etcd whose members are at memberIPs and whose CA and client
// credentials are files (kmsenv's).
func EtcdOf(files kmsenv.EtcdTLSFiles, memberIPs ...string) (Etcd, error) {
	etcd := Etcd{MemberIPs: memberIPs}
	for path, into := range map[string]*[]byte{files.CA: &etcd.CA, files.ClientCert: &etcd.ClientCert, files.ClientKey: &etcd.ClientKey} {
		data, err := os.ReadFile(path)
		if err != nil {
			return Etcd{}, fmt.Errorf("reading etcd's certificates: %w", err)
		}
		*into = data
	}
	return etcd, nil
}

// Topology is the control-plane topology of a cluster of n nodes: SingleReplica for one, HighlyAvailable otherwise.
func Topology(n int) configv1.TopologyMode {
	if n == 1 {
		return configv1.SingleReplicaTopologyMode
	}
	return configv1.HighlyAvailableTopologyMode
}

// Publish writes what the rest of the cluster publishes before kube-apiserver-operator runs, through cfg (a
// cluster-admin config). The CRDs must be installed (InstallCRDs).
func Publish(ctx context.Context, cfg *rest.Config, c Cluster) error {
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	config, err := configclient.NewForConfig(cfg)
	if err != nil {
		return err
	}
	operators, err := operatorclient.NewForConfig(cfg)
	if err != nil {
		return err
	}
	p := publisher{kube: kube, config: config, operators: operators, cluster: c}
	for _, publish := range []struct {
		by string
		fn func(context.Context) error
	}{
		{"the cluster-version operator", p.clusterVersionOperator},
		{"the installer", p.installer},
		{"the kubelets", p.kubelets},
		{"etcd-operator", p.etcdOperator},
		{"kube-controller-manager-operator", p.kubeControllerManagerOperator},
		{"the authentication operator", p.authenticationOperator},
		{"openshift-apiserver-operator", p.openShiftAPIServerOperator},
	} {
		if err := publish.fn(ctx); err != nil {
			return fmt.Errorf("publishing what %s publishes: %w", publish.by, err)
		}
	}
	return nil
}

type publisher struct {
	kube      kubernetes.Interface
	config    configclient.Interface
	operators operatorclient.Interface
	cluster   Cluster
}

// clusterVersionOperator applies the release payload's manifests that kube-apiserver-operator's own Deployment
// depends on (manifests/ of the operator's repository, and config-operator's): its namespaces, the KubeAPIServer
// resource, the operator's config and its ClusterOperator; and the ClusterVersion and FeatureGate status, whose
// version the operator's feature gate reader waits for. The FeatureGate lists every gate this openshift/api knows,
// enabled or disabled, for the cluster's version: library-go panics on a gate it does not find.
func (p publisher) clusterVersionOperator(ctx context.Context) error {
	for _, ns := range []string{OperatorNamespace, ConfigNamespace, ConfigManagedNamespace} {
		if err := p.namespace(ctx, ns); err != nil {
			return err
		}
	}
	if _, err := p.operators.OperatorV1().KubeAPIServers().Create(ctx, &operatorv1.KubeAPIServer{
		ObjectMeta: metav1.ObjectMeta{Name: "cluster"},
		Spec:       operatorv1.KubeAPIServerSpec{StaticPodOperatorSpec: operatorv1.StaticPodOperatorSpec{OperatorSpec: operatorv1.OperatorSpec{ManagementState: operatorv1.Managed}}},
	}, metav1.CreateOptions{}); err != nil {
		return err
	}
	if _, err := p.kube.CoreV1().ConfigMaps(OperatorNamespace).Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "kube-apiserver-operator-config"},
		Data:       map[string]string{"config.yaml": "apiVersion: operator.openshift.io/v1alpha1\nkind: GenericOperatorConfig\n"},
	}, metav1.CreateOptions{}); err != nil {
		return err
	}
	if _, err := p.config.ConfigV1().ClusterOperators().Create(ctx, &configv1.ClusterOperator{
		ObjectMeta: metav1.ObjectMeta{Name: ClusterOperator},
	}, metav1.CreateOptions{}); err != nil {
		return err
	}

	cv, err := p.config.ConfigV1().ClusterVersions().Create(ctx, &configv1.ClusterVersion{
		ObjectMeta: metav1.ObjectMeta{Name: "version"},
		Spec:       configv1.ClusterVersionSpec{ClusterID: "00000000-0000-4000-8000-000000000001", Channel: "stable"},
	}, metav1.CreateOptions{})
	if err != nil {
		return err
	}
	now := metav1.Now()
	release := configv1.Release{Version: p.cluster.Version, Image: "kmsguard-lab/release:" + p.cluster.Version}
	cv.Status = configv1.ClusterVersionStatus{
		Desired:            release,
		ObservedGeneration: cv.Generation,
		VersionHash:        "kmsguard-lab",
		History: []configv1.UpdateHistory{{State: configv1.CompletedUpdate, StartedTime: now, CompletionTime: &now,
			Version: release.Version, Image: release.Image, Verified: true}},
		AvailableUpdates: nil,
	}
	if _, err := p.config.ConfigV1().ClusterVersions().UpdateStatus(ctx, cv, metav1.UpdateOptions{}); err != nil {
		return err
	}

	fg, err := p.config.ConfigV1().FeatureGates().Create(ctx, &configv1.FeatureGate{
		ObjectMeta: metav1.ObjectMeta{Name: "cluster"},
		Spec:       configv1.FeatureGateSpec{FeatureGateSelection: configv1.FeatureGateSelection{FeatureSet: FeatureSet}},
	}, metav1.CreateOptions{})
	if err != nil {
		return err
	}
	gates := features.FeatureSets(4, features.SelfManaged, FeatureSet)
	details := configv1.FeatureGateDetails{Version: p.cluster.Version}
	for _, g := range gates.Enabled {
		details.Enabled = append(details.Enabled, g.FeatureGateAttributes)
	}
	for _, g := range gates.Disabled {
		details.Disabled = append(details.Disabled, g.FeatureGateAttributes)
	}
	fg.Status.FeatureGates = []configv1.FeatureGateDetails{details}
	_, err = p.config.ConfigV1().FeatureGates().UpdateStatus(ctx, fg, metav1.UpdateOptions{})
	return err
}

// installer writes the cluster config resources openshift-install creates, with the status the installer and
// the cluster's other operators give them: the Infrastructure (topology, API URLs, platform None), the Network
// (cluster and service networks) and the empty cluster configs the operator's config observers read.
func (p publisher) installer(ctx context.Context) error {
	topology := Topology(len(p.cluster.Nodes))
	infra, err := p.config.ConfigV1().Infrastructures().Create(ctx, &configv1.Infrastructure{
		ObjectMeta: metav1.ObjectMeta{Name: "cluster"},
		Spec:       configv1.InfrastructureSpec{PlatformSpec: configv1.PlatformSpec{Type: configv1.NonePlatformType}},
	}, metav1.CreateOptions{})
	if err != nil {
		return err
	}
	infra.Status = configv1.InfrastructureStatus{
		InfrastructureName:     "kmsguard-lab",
		ControlPlaneTopology:   topology,
		InfrastructureTopology: topology,
		PlatformStatus:         &configv1.PlatformStatus{Type: configv1.NonePlatformType},
		APIServerURL:           "https://api." + p.cluster.Domain + ":6443",
		APIServerInternalURL:   "https://api-int." + p.cluster.Domain + ":6443",
		CPUPartitioning:        configv1.CPUPartitioningNone,
	}
	if _, err := p.config.ConfigV1().Infrastructures().UpdateStatus(ctx, infra, metav1.UpdateOptions{}); err != nil {
		return err
	}

	clusterNetwork := []configv1.ClusterNetworkEntry{{CIDR: "10.128.0.0/14", HostPrefix: 23}}
	serviceNetwork := []string{"172.30.0.0/16"}
	// The Network CRD has no status subresource: the network operator writes spec and status in one object.
	if _, err := p.config.ConfigV1().Networks().Create(ctx, &configv1.Network{
		ObjectMeta: metav1.ObjectMeta{Name: "cluster"},
		Spec:       configv1.NetworkSpec{ClusterNetwork: clusterNetwork, ServiceNetwork: serviceNetwork, NetworkType: "OVNKubernetes"},
		Status:     configv1.NetworkStatus{ClusterNetwork: clusterNetwork, ServiceNetwork: serviceNetwork, NetworkType: "OVNKubernetes"},
	}, metav1.CreateOptions{}); err != nil {
		return err
	}

	cluster := metav1.ObjectMeta{Name: "cluster"}
	return errors.Join(
		create(ctx, p.config.ConfigV1().APIServers(), &configv1.APIServer{ObjectMeta: cluster}),
		create(ctx, p.config.ConfigV1().Authentications(), &configv1.Authentication{ObjectMeta: cluster}),
		create(ctx, p.config.ConfigV1().Proxies(), &configv1.Proxy{ObjectMeta: cluster}),
		create(ctx, p.config.ConfigV1().Nodes(), &configv1.Node{ObjectMeta: cluster}),
		create(ctx, p.config.ConfigV1().OAuths(), &configv1.OAuth{ObjectMeta: cluster}),
		create(ctx, p.config.ConfigV1().Images(), &configv1.Image{ObjectMeta: cluster}),
		create(ctx, p.config.ConfigV1().Schedulers(), &configv1.Scheduler{ObjectMeta: cluster}),
	)
}

// create creates obj through a typed client's Create.
func create[T any](ctx context.Context, client interface {
	Create(context.Context, T, metav1.CreateOptions) (T, error)
}, obj T) error {
	_, err := client.Create(ctx, obj, metav1.CreateOptions{})
	return err
}

// kubelets register the control-plane nodes, Ready, with their InternalIP and kubelet version.
func (p publisher) kubelets(ctx context.Context) error {
	for _, n := range p.cluster.Nodes {
		node, err := p.kube.CoreV1().Nodes().Create(ctx, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: n.Name, Labels: map[string]string{
			"kubernetes.io/hostname":                n.Name,
			"kubernetes.io/os":                      "linux",
			"node-role.kubernetes.io/master":        "",
			"node-role.kubernetes.io/control-plane": "",
		}}}, metav1.CreateOptions{})
		if err != nil {
			return err
		}
		now := metav1.Now()
		node.Status = corev1.NodeStatus{
			Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady",
				Message: "kubelet is posting ready status", LastHeartbeatTime: now, LastTransitionTime: now}},
			Addresses: []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: n.IP}, {Type: corev1.NodeHostName, Address: n.Name}},
			NodeInfo:  corev1.NodeSystemInfo{KubeletVersion: n.KubeletVersion, OperatingSystem: "linux", Architecture: "amd64"},
		}
		if _, err := p.kube.CoreV1().Nodes().UpdateStatus(ctx, node, metav1.UpdateOptions{}); err != nil {
			return err
		}
	}
	return nil
}

// etcdOperator publishes the etcd members' addresses (openshift-etcd/etcd-endpoints, from which kube-apiserver-operator
// observes --etcd-servers), and, as the installer first and cluster-etcd-operator after it do, etcd's serving CA and
// the apiservers' client credentials in openshift-config, which the operator syncs into its operand namespace and
// revisions.
func (p publisher) etcdOperator(ctx context.Context) error {
	if err := p.namespace(ctx, etcdNamespace); err != nil {
		return err
	}
	members := map[string]string{}
	for i, ip := range p.cluster.Etcd.MemberIPs {
		members[fmt.Sprintf("%016x", 0x1000+i)] = ip
	}
	if _, err := p.kube.CoreV1().ConfigMaps(etcdNamespace).Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "etcd-endpoints"}, Data: members,
	}, metav1.CreateOptions{}); err != nil {
		return err
	}
	if _, err := p.kube.CoreV1().Secrets(ConfigNamespace).Create(ctx, &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: "etcd-client"},
		Type:       corev1.SecretTypeTLS,
		Data:       map[string][]byte{corev1.TLSCertKey: p.cluster.Etcd.ClientCert, corev1.TLSPrivateKeyKey: p.cluster.Etcd.ClientKey},
	}, metav1.CreateOptions{}); err != nil {
		return err
	}
	_, err := p.kube.CoreV1().ConfigMaps(ConfigNamespace).Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "etcd-serving-ca"},
		Data:       map[string]string{"ca-bundle.crt": string(p.cluster.Etcd.CA)},
	}, metav1.CreateOptions{})
	return err
}

// kubeControllerManagerOperator publishes the service account token signers' public keys, which kube-apiserver
// verifies tokens with, and the CSR signer's CA, which it trusts for kubelets' client certificates.
func (p publisher) kubeControllerManagerOperator(ctx context.Context) error {
	signer, err := crypto.MakeSelfSignedCAConfigForDuration("kube-csr-signer_@kmsguard-lab", 365*24*time.Hour)
	if err != nil {
		return err
	}
	caPEM, _, err := signer.GetPEMBytes()
	if err != nil {
		return err
	}
	publicKey, err := x509.MarshalPKIXPublicKey(signer.Certs[0].PublicKey)
	if err != nil {
		return err
	}
	if _, err := p.kube.CoreV1().ConfigMaps(ConfigManagedNamespace).Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "sa-token-signing-certs"},
		Data:       map[string]string{"service-account-001.pub": string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: publicKey}))},
	}, metav1.CreateOptions{}); err != nil {
		return err
	}
	_, err = p.kube.CoreV1().ConfigMaps(ConfigManagedNamespace).Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "csr-controller-ca"},
		Data:       map[string]string{"ca-bundle.crt": string(caPEM)},
	}, metav1.CreateOptions{})
	return err
}

// authenticationOperator publishes the kubeconfig of the OAuth server's token review webhook, which the operator
// observes into --authentication-token-webhook-config-file. The lab runs no OAuth server: the webhook names an
// address nothing serves, as on a cluster whose OAuth server is down, and kube-apiserver authenticates with
// certificates and service account tokens.
func (p publisher) authenticationOperator(ctx context.Context) error {
	kubeconfig := `apiVersion: v1
kind: Config
clusters:
- name: oauth
  cluster:
    server: https://oauth-openshift.openshift-authentication.svc/oauth/token/review
    insecure-skip-tls-verify: true
users:
- name: kube-apiserver
  user:
    token: kmsguard-lab-no-oauth-server
contexts:
- name: default
  context: {cluster: oauth, user: kube-apiserver}
current-context: default
`
	_, err := p.kube.CoreV1().Secrets(ConfigNamespace).Create(ctx, &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: "webhook-authentication-integrated-oauth"},
		Data:       map[string][]byte{"kubeConfig": []byte(kubeconfig)},
	}, metav1.CreateOptions{})
	return err
}

// openShiftAPIServerOperator creates the openshift-apiserver namespace, which kube-apiserver-operator watches.
func (p publisher) openShiftAPIServerOperator(ctx context.Context) error {
	return p.namespace(ctx, openShiftAPIServerNamespace)
}

func (p publisher) namespace(ctx context.Context, name string) error {
	_, err := p.kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		return nil
	}
	return err
}
