package targetconfigcontroller

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"text/template"
	"time"

	"github.com/ghodss/yaml"

	kubecontrolplanev1 "github.com/openshift/api/kubecontrolplane/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/cluster-kube-apiserver-operator/bindata"
	"github.com/openshift/cluster-kube-apiserver-operator/pkg/operator/configobservation/node"
	"github.com/openshift/cluster-kube-apiserver-operator/pkg/operator/operatorclient"
	"github.com/openshift/cluster-kube-apiserver-operator/pkg/version"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/certrotation"
	"github.com/openshift/library-go/pkg/operator/configobserver/featuregates"
	kmspluginlifecycle "github.com/openshift/library-go/pkg/operator/encryption/kms/pluginlifecycle"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/resource/resourceapply"
	"github.com/openshift/library-go/pkg/operator/resource/resourcehelper"
	"github.com/openshift/library-go/pkg/operator/resource/resourcemerge"
	"github.com/openshift/library-go/pkg/operator/resource/resourceread"
	"github.com/openshift/library-go/pkg/operator/resourcesynccontroller"
	"github.com/openshift/library-go/pkg/operator/staticpod/startupmonitor"
	"github.com/openshift/library-go/pkg/operator/v1helpers"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	coreclientv1 "k8s.io/client-go/kubernetes/typed/core/v1"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/klog/v2"
)

const (
	etcdEndpointNamespace = "openshift-etcd"
	etcdEndpointName      = "etcd-endpoints"
)

type TargetConfigController struct {
	targetImagePullSpec   string
	operatorImagePullSpec string
	operatorImageVersion  string

	operatorClient v1helpers.StaticPodOperatorClient

	kubeClient      kubernetes.Interface
	configMapLister corev1listers.ConfigMapLister

	featureGateAccessor featuregates.FeatureGateAccess

	isStartupMonitorEnabledFn      func() (bool, error)
	requireMultipleEtcdEndpointsFn func() bool
}

func NewTargetConfigController(
	targetImagePullSpec, operatorImagePullSpec, operatorImageVersion string,
	operatorClient v1helpers.StaticPodOperatorClient,
	kubeInformersForOpenshiftKubeAPIServerNamespace informers.SharedInformerFactory,
	kubeInformersForNamespaces v1helpers.KubeInformersForNamespaces,
	kubeClient kubernetes.Interface,
	featureGateAccessor featuregates.FeatureGateAccess,
	isStartupMonitorEnabledFn func() (bool, error),
	requireMultipleEtcdEndpointsFn func() bool,
	eventRecorder events.Recorder,
) factory.Controller {
	c := &TargetConfigController{
		targetImagePullSpec:            targetImagePullSpec,
		operatorImagePullSpec:          operatorImagePullSpec,
		operatorImageVersion:           operatorImageVersion,
		operatorClient:                 operatorClient,
		kubeClient:                     kubeClient,
		configMapLister:                kubeInformersForNamespaces.ConfigMapLister(),
		featureGateAccessor:            featureGateAccessor,
		isStartupMonitorEnabledFn:      isStartupMonitorEnabledFn,
		requireMultipleEtcdEndpointsFn: requireMultipleEtcdEndpointsFn,
	}

	return factory.New().WithInformers(
		operatorClient.Informer(),
		kubeInformersForOpenshiftKubeAPIServerNamespace.Core().V1().ConfigMaps().Informer(),
		kubeInformersForOpenshiftKubeAPIServerNamespace.Core().V1().Secrets().Informer(),
		kubeInformersForOpenshiftKubeAPIServerNamespace.Core().V1().ServiceAccounts().Informer(),
		kubeInformersForNamespaces.InformersFor(operatorclient.GlobalUserSpecifiedConfigNamespace).Core().V1().ConfigMaps().Informer(),
		kubeInformersForNamespaces.InformersFor(operatorclient.GlobalMachineSpecifiedConfigNamespace).Core().V1().ConfigMaps().Informer(),
		kubeInformersForNamespaces.InformersFor(operatorclient.OperatorNamespace).Core().V1().ConfigMaps().Informer(),
		kubeInformersForNamespaces.InformersFor(operatorclient.TargetNamespace).Core().V1().ConfigMaps().Informer(),
	).WithSync(c.sync).ResyncEvery(time.Minute).ToController("TargetConfigController", eventRecorder.WithComponentSuffix("target-config-controller"))
}

func (c TargetConfigController) sync(ctx context.Context, syncContext factory.SyncContext) error {
	operatorSpec, _, _, err := c.operatorClient.GetStaticPodOperatorState()
	if err != nil {
		return err
	}

	switch operatorSpec.ManagementState {
	case operatorv1.Managed:
	case operatorv1.Unmanaged:
		return nil
	case operatorv1.Removed:
		// TODO probably just fail
		return nil
	default:
		syncContext.Recorder().Warningf("ManagementStateUnknown", "Unrecognized operator management state %q", operatorSpec.ManagementState)
		return nil
	}

	// block until config is observed and specific paths are present
	requireMultipleEtcdEndpoints := c.requireMultipleEtcdEndpointsFn()
	if err := c.isRequiredConfigPresent(operatorSpec.ObservedConfig.Raw, requireMultipleEtcdEndpoints); err != nil {
		syncContext.Recorder().Warning("ConfigMissing", err.Error())
		return err
	}

	requeue, err := createTargetConfig(ctx, c, syncContext.Recorder(), operatorSpec)
	if err != nil {
		return err
	}
	if requeue {
		return factory.SyntheticRequeueError
	}

	return nil
}

func (c *TargetConfigController) isRequiredConfigPresent(config []byte, requireMultipleEtcdEndpoints bool) error {
	if len(config) == 0 {
		return fmt.Errorf("no observedConfig")
	}

	existingConfig := map[string]interface{}{}
	if err := json.NewDecoder(bytes.NewBuffer(config)).Decode(&existingConfig); err != nil {
		return fmt.Errorf("error parsing config, %v", err)
	}

	requiredPaths := [][]string{
		{"servingInfo", "namedCertificates"},
		{"apiServerArguments", "etcd-servers"},
		{"admission", "pluginConfig", "network.openshift.io/RestrictedEndpointsAdmission"},
	}
	for _, requiredPath := range requiredPaths {
		configVal, found, err := unstructured.NestedFieldNoCopy(existingConfig, requiredPath...)
		if err != nil {
			return fmt.Errorf("error reading %v from config, %v", strings.Join(requiredPath, "."), err)
		}
		if !found {
			return fmt.Errorf("%v missing from config", strings.Join(requiredPath, "."))
		}
		if configVal == nil {
			return fmt.Errorf("%v null in config", strings.Join(requiredPath, "."))
		}
		if configValSlice, ok := configVal.([]interface{}); ok && len(configValSlice) == 0 {
			return fmt.Errorf("%v empty in config", strings.Join(requiredPath, "."))
		}
		if configValString, ok := configVal.(string); ok && len(configValString) == 0 {
			return fmt.Errorf("%v empty in config", strings.Join(requiredPath, "."))
		}

		if len(requiredPath) == 2 && requiredPath[0] == "apiServerArguments" && requiredPath[1] == "etcd-servers" && requireMultipleEtcdEndpoints {
			configValSlice, ok := configVal.([]interface{})
			if !ok {
				return fmt.Errorf("%v is not a slice", strings.Join(requiredPath, "."))
			}

			if err := etcdEndpointsPresent(c.configMapLister, configValSlice, requiredPath); err != nil {
				return err
			}
		}
	}
	return nil
}

// etcdEndpointsPresent compares the list of endpoints exposed by
// cluster-etcd-operator with the list of URLs in the etcd-servers config. If
// less than two etcd live endpoints (not localhost and bootstrap) are present
// in the config, it returns an error because the configuration does not
// statisfy HA requirements.
func etcdEndpointsPresent(configMapLister corev1listers.ConfigMapLister, config []interface{}, configPath []string) error {
	etcdEndpointsCM, err := configMapLister.ConfigMaps(etcdEndpointNamespace).Get(etcdEndpointName)
	if err != nil {
		return err
	}

	var liveEndpoints []string
	for _, val := range config {
		url, ok := val.(string)
		if !ok {
			return fmt.Errorf("%v is not a string slice", strings.Join(configPath, "."))
		}

		for _, etcdEndpoint := range etcdEndpointsCM.Data {
			if strings.Contains(url, etcdEndpoint) {
				liveEndpoints = append(liveEndpoints, url)
				break
			}
		}
	}

	if len(liveEndpoints) < 2 {
		return fmt.Errorf("%v has less than two live etcd endpoints: %v", strings.Join(configPath, "."), liveEndpoints)
	}

	return nil
}

// createTargetConfig takes care of creation of valid resources in a fixed name.  These are inputs to other control loops.
// returns whether or not requeue and if an error happened when updating status.  Normally it updates status itself.
func createTargetConfig(ctx context.Context, c TargetConfigController, recorder events.Recorder, operatorSpec *operatorv1.StaticPodOperatorSpec) (bool, error) {
	errors := []error{}

	_, _, err := manageKubeAPIServerConfig(ctx, c.kubeClient.CoreV1(), recorder, operatorSpec)
	if err != nil {
		errors = append(errors, fmt.Errorf("%q: %v", "configmap/config", err))
	}
	_, _, err = managePods(ctx, c.kubeClient.CoreV1(), c.kubeClient.CoreV1(), c.featureGateAccessor, c.isStartupMonitorEnabledFn, recorder, operatorSpec, c.targetImagePullSpec, c.operatorImagePullSpec, c.operatorImageVersion)
	if err != nil {
		errors = append(errors, fmt.Errorf("%q: %v", "configmap/kube-apiserver-pod", err))
	}
	_, _, err = ManageClientCABundle(ctx, c.configMapLister, c.kubeClient.CoreV1(), recorder)
	if err != nil {
		errors = append(errors, fmt.Errorf("%q: %v", "configmap/client-ca", err))
	}
	_, _, err = manageKubeAPIServerCABundle(ctx, c.configMapLister, c.kubeClient.CoreV1(), recorder)
	if err != nil {
		errors = append(errors, fmt.Errorf("%q: %v", "configmap/kube-apiserver-server-ca", err))
	}

	err = ensureKubeAPIServerTrustedCA(ctx, c.kubeClient.CoreV1(), recorder)
	if err != nil {
		errors = append(errors, fmt.Errorf("%q: %v", "configmap/trusted-ca-bundle", err))
	}

	err = ensureLocalhostRecoverySAToken(ctx, c.kubeClient.CoreV1(), recorder)
	if err != nil {
		errors = append(errors, fmt.Errorf("%q: %v", "serviceaccount/localhost-recovery-client", err))
	}

	if len(errors) > 0 {
		condition := operatorv1.OperatorCondition{
			Type:    "TargetConfigControllerDegraded",
			Status:  operatorv1.ConditionTrue,
			Reason:  "SynchronizationError",
			Message: v1helpers.NewMultiLineAggregate(errors).Error(),
		}
		if _, _, err := v1helpers.UpdateStaticPodStatus(ctx, c.operatorClient, v1helpers.UpdateStaticPodConditionFn(condition)); err != nil {
			return true, err
		}
		return true, nil
	}

	condition := operatorv1.OperatorCondition{
		Type:   "TargetConfigControllerDegraded",
		Status: operatorv1.ConditionFalse,
	}
	if _, _, err := v1helpers.UpdateStaticPodStatus(ctx, c.operatorClient, v1helpers.UpdateStaticPodConditionFn(condition)); err != nil {
		return true, err
	}

	return false, nil
}

func manageKubeAPIServerConfig(ctx context.Context, client coreclientv1.ConfigMapsGetter, recorder events.Recorder, operatorSpec *operatorv1.StaticPodOperatorSpec) (*corev1.ConfigMap, bool, error) {
	configMap := resourceread.ReadConfigMapV1OrDie(bindata.MustAsset("assets/kube-apiserver/cm.yaml"))
	defaultConfig := bindata.MustAsset("assets/config/defaultconfig.yaml")
	configOverrides := bindata.MustAsset("assets/config/config-overrides.yaml")

	// resourcemerge will not merge slice contents; therefore we must set up special merge rules for
	// enable-admission-plugins/disable-admission-plugins in order to merge the config from the various sources
	specialMergeRules := map[string]resourcemerge.MergeFunc{
		".apiServerArguments.enable-admission-plugins":  mergeStringSlices,
		".apiServerArguments.disable-admission-plugins": mergeStringSlices,
	}

	// Guarantee the authorization-mode will be present in the base config, regardless of whether the observer is running
	authModeOverride := map[string]interface{}{}
	node.AddAuthorizationModes(authModeOverride, false)
	authModeOverrideJSON, err := json.Marshal(authModeOverride)
	if err != nil {
		return nil, false, err
	}

	requiredConfigMap, _, err := resourcemerge.MergePrunedConfigMap(
		&kubecontrolplanev1.KubeAPIServerConfig{},
		configMap,
		"config.yaml",
		specialMergeRules,
		defaultConfig,
		authModeOverrideJSON,
		configOverrides,
		operatorSpec.ObservedConfig.Raw,
		operatorSpec.UnsupportedConfigOverrides.Raw,
	)
	if err != nil {
		return nil, false, err
	}
	return resourceapply.ApplyConfigMap(ctx, client, recorder, requiredConfigMap)
}

func managePods(ctx context.Context, client coreclientv1.ConfigMapsGetter, secretClient coreclientv1.SecretsGetter, featureGateAccessor featuregates.FeatureGateAccess, isStartupMonitorEnabledFn func() (bool, error), recorder events.Recorder, operatorSpec *operatorv1.StaticPodOperatorSpec, imagePullSpec, operatorImagePullSpec, operatorImageVersion string) (*corev1.ConfigMap, bool, error) {
	appliedPodTemplate, err := manageTemplate(string(bindata.MustAsset("assets/kube-apiserver/pod.yaml")), imagePullSpec, operatorImagePullSpec, operatorImageVersion, operatorSpec)
	if err != nil {
		return nil, false, err
	}
	required := resourceread.ReadPodV1OrDie([]byte(appliedPodTemplate))

	var observedConfig map[string]interface{}
	if err := yaml.Unmarshal(operatorSpec.ObservedConfig.Raw, &observedConfig); err != nil {
		return nil, false, fmt.Errorf("failed to unmarshal the observedConfig: %v", err)
	}
	proxyConfig, _, err := unstructured.NestedStringMap(observedConfig, "targetconfigcontroller", "proxy")
	if err != nil {
		return nil, false, fmt.Errorf("couldn't get the proxy config from observedConfig: %v", err)
	}

	proxyEnvVars := proxyMapToEnvVars(proxyConfig)
	for i, container := range required.Spec.Containers {
		required.Spec.Containers[i].Env = append(container.Env, proxyEnvVars...)
	}

	if err := kmspluginlifecycle.EnsureKMSPluginSidecarInStaticPodSpec(ctx, &required.Spec, "kube-apiserver", operatorclient.TargetNamespace, "encryption-config", "", "cluster-kube-apiserver-operator", operatorImagePullSpec, secretClient, featureGateAccessor); err != nil {
		return nil, false, fmt.Errorf("failed to add KMS plugin to pod spec: %w", err)
	}

	configMap := resourceread.ReadConfigMapV1OrDie(bindata.MustAsset("assets/kube-apiserver/pod-cm.yaml"))
	configMap.Data["pod.yaml"] = resourceread.WritePodV1OrDie(required)
	configMap.Data["forceRedeploymentReason"] = operatorSpec.ForceRedeploymentReason
	configMap.Data["version"] = version.Get().String()

	startupMonitorPodKey, optionalStartupMonitor, err := generateOptionalStartupMonitorPod(isStartupMonitorEnabledFn, operatorSpec, operatorImagePullSpec)
	if err != nil {
		return nil, false, fmt.Errorf("failed to apply an optional pod due to %v", err)
	}
	if optionalStartupMonitor != nil {
		configMap.Data[startupMonitorPodKey] = resourceread.WritePodV1OrDie(optionalStartupMonitor)
	}
	return resourceapply.ApplyConfigMap(ctx, client, recorder, configMap)
}

func generateOptionalStartupMonitorPod(isStartupMonitorEnabledFn func() (bool, error), operatorSpec *operatorv1.StaticPodOperatorSpec, operatorImagePullSpec string) (string, *corev1.Pod, error) {
	if enabled, err := isStartupMonitorEnabledFn(); err != nil {
		return "", nil, err
	} else if !enabled {
		return "", nil, nil
	}

	generatedStartupMonitorPodTemplate, err := startupmonitor.GeneratePodTemplate(operatorSpec, []string{"cluster-kube-apiserver-operator", "startup-monitor"}, operatorclient.TargetNamespace, "kube-apiserver", operatorImagePullSpec, "/var/log/kube-apiserver/startup.log")
	if err != nil {
		return "", nil, err
	}
	required := resourceread.ReadPodV1OrDie([]byte(generatedStartupMonitorPodTemplate))
	return "kube-apiserver-startup-monitor-pod.yaml", required, nil
}

func ManageClientCABundle(ctx context.Context, lister corev1listers.ConfigMapLister, client coreclientv1.ConfigMapsGetter, recorder events.Recorder) (*corev1.ConfigMap, bool, error) {

	additionalAnnotations := certrotation.AdditionalAnnotations{
		JiraComponent: "kube-apiserver",
	}
	caBundleConfigMapName := "client-ca"

	creationRequired := false
	updateRequired := false

	caBundleConfigMap, err := lister.ConfigMaps(operatorclient.TargetNamespace).Get(caBundleConfigMapName)
	switch {
	case apierrors.IsNotFound(err):
		creationRequired = true
		caBundleConfigMap = &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{
				Name:      caBundleConfigMapName,
				Namespace: operatorclient.TargetNamespace,
			},
		}
	case err != nil:
		return nil, false, err
	}

	requiredConfigMap, updateRequired, err := resourcesynccontroller.CombineCABundleConfigMapsOptimistically(
		caBundleConfigMap,
		lister,
		additionalAnnotations,
		// this is from the installer and contains the value to verify the admin.kubeconfig user
		resourcesynccontroller.ResourceLocation{Namespace: operatorclient.GlobalUserSpecifiedConfigNamespace, Name: "admin-kubeconfig-client-ca"},
		// this is from the installer and contains the value to verify the node bootstrapping cert that is baked into images
		// this is from kube-controller-manager and indicates the ca-bundle.crt to verify their signatures (kubelet client certs)
		resourcesynccontroller.ResourceLocation{Namespace: operatorclient.GlobalMachineSpecifiedConfigNamespace, Name: "csr-controller-ca"},
		// this is from the installer and contains the value to verify the kube-apiserver communicating to the kubelet
		resourcesynccontroller.ResourceLocation{Namespace: operatorclient.OperatorNamespace, Name: "kube-apiserver-to-kubelet-client-ca"},
		// this bundle is what this operator uses to mint new client certs it directly manages
		resourcesynccontroller.ResourceLocation{Namespace: operatorclient.OperatorNamespace, Name: "kube-control-plane-signer-ca"},
		// this bundle is what a user uses to mint new client certs it directly manages
		resourcesynccontroller.ResourceLocation{Namespace: operatorclient.TargetNamespace, Name: "user-client-ca"},
		// this bundle is what validates the master kubelet bootstrap credential.  Users can invalid this by removing it.
		resourcesynccontroller.ResourceLocation{Namespace: operatorclient.GlobalMachineSpecifiedConfigNamespace, Name: "kubelet-bootstrap-kubeconfig"},
		// this bundle is what validates kubeconfigs placed on masters
		resourcesynccontroller.ResourceLocation{Namespace: operatorclient.OperatorNamespace, Name: "node-system-admin-ca"},
	)
	if err != nil {
		return nil, false, err
	}

	if creationRequired {
		caBundleConfigMap, err = client.ConfigMaps(operatorclient.TargetNamespace).Create(ctx, requiredConfigMap, metav1.CreateOptions{})
		resourcehelper.ReportCreateEvent(recorder, caBundleConfigMap, err)
		if err != nil {
			return nil, false, err
		}
		klog.V(2).Infof("Created client CA bundle configmap %s/%s", caBundleConfigMap.Namespace, caBundleConfigMap.Name)
		return caBundleConfigMap, true, nil
	} else if updateRequired {
		caBundleConfigMap, err = client.ConfigMaps(operatorclient.TargetNamespace).Update(ctx, requiredConfigMap, metav1.UpdateOptions{})
		resourcehelper.ReportUpdateEvent(recorder, caBundleConfigMap, err)
		if err != nil {
			return nil, false, err
		}
		klog.V(2).Infof("Updated client CA bundle configmap %s/%s", caBundleConfigMap.Namespace, caBundleConfigMap.Name)
		return caBundleConfigMap, true, nil
	}

	return caBundleConfigMap, false, nil
}

func manageKubeAPIServerCABundle(ctx context.Context, lister corev1listers.ConfigMapLister, client coreclientv1.ConfigMapsGetter, recorder events.Recorder) (*corev1.ConfigMap, bool, error) {

	additionalAnnotations := certrotation.AdditionalAnnotations{
		JiraComponent: "kube-apiserver",
	}
	caBundleConfigMapName := "kube-apiserver-server-ca"

	creationRequired := false
	updateRequired := false

	caBundleConfigMap, err := lister.ConfigMaps(operatorclient.TargetNamespace).Get(caBundleConfigMapName)
	switch {
	case apierrors.IsNotFound(err):
		creationRequired = true
		caBundleConfigMap = &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{
				Name:      caBundleConfigMapName,
				Namespace: operatorclient.TargetNamespace,
			},
		}
	case err != nil:
		return nil, false, err
	}

	requiredConfigMap, updateRequired, err := resourcesynccontroller.CombineCABundleConfigMapsOptimistically(
		caBundleConfigMap,
		lister,
		additionalAnnotations,
		// this bundle is what this operator uses to mint loadbalancers certs
		resourcesynccontroller.ResourceLocation{Namespace: operatorclient.OperatorNamespace, Name: "loadbalancer-serving-ca"},
		// this bundle is what this operator uses to mint localhost certs
		resourcesynccontroller.ResourceLocation{Namespace: operatorclient.OperatorNamespace, Name: "localhost-serving-ca"},
		// this bundle is what a user uses to mint service-network certs
		resourcesynccontroller.ResourceLocation{Namespace: operatorclient.OperatorNamespace, Name: "service-network-serving-ca"},
		// this bundle is what this operator uses to mint localhost-recovery certs
		resourcesynccontroller.ResourceLocation{Namespace: operatorclient.OperatorNamespace, Name: "localhost-recovery-serving-ca"},
	)
	if err != nil {
		return nil, false, err
	}

	if creationRequired {
		caBundleConfigMap, err := client.ConfigMaps(operatorclient.TargetNamespace).Create(ctx, requiredConfigMap, metav1.CreateOptions{})
		resourcehelper.ReportCreateEvent(recorder, caBundleConfigMap, err)
		if err != nil {
			return nil, false, err
		}
		klog.V(2).Infof("Created kube apiserver CA bundle configmap %s/%s", caBundleConfigMap.Namespace, caBundleConfigMap.Name)
		return caBundleConfigMap, true, nil
	} else if updateRequired {
		caBundleConfigMap, err := client.ConfigMaps(operatorclient.TargetNamespace).Update(ctx, requiredConfigMap, metav1.UpdateOptions{})
		resourcehelper.ReportUpdateEvent(recorder, caBundleConfigMap, err)
		if err != nil {
			return nil, false, err
		}
		klog.V(2).Infof("Updated kube apiserver CA bundle configmap %s/%s", caBundleConfigMap.Namespace, caBundleConfigMap.Name)
		return caBundleConfigMap, true, nil
	}

	return caBundleConfigMap, false, nil
}

func ensureKubeAPIServerTrustedCA(ctx context.Context, client coreclientv1.CoreV1Interface, recorder events.Recorder) error {
	required := resourceread.ReadConfigMapV1OrDie(bindata.MustAsset("assets/kube-apiserver/trusted-ca-cm.yaml"))
	cmCLient := client.ConfigMaps(operatorclient.TargetNamespace)

	cm, err := cmCLient.Get(ctx, "trusted-ca-bundle", metav1.GetOptions{})
	if err != nil {
		if apierrors.IsNotFound(err) {
			_, err = cmCLient.Create(ctx, required, metav1.CreateOptions{})
		}
		return err
	}

	// update if modified by the user
	if val, ok := cm.Labels["config.openshift.io/inject-trusted-cabundle"]; !ok || val != "true" {
		cm.Labels["config.openshift.io/inject-trusted-cabundle"] = "true"
		_, err = cmCLient.Update(ctx, cm, metav1.UpdateOptions{})
		return err
	}

	return err
}

func ensureLocalhostRecoverySAToken(ctx context.Context, client coreclientv1.CoreV1Interface, recorder events.Recorder) error {
	requiredSA := resourceread.ReadServiceAccountV1OrDie(bindata.MustAsset("assets/kube-apiserver/localhost-recovery-sa.yaml"))
	requiredToken := resourceread.ReadSecretV1OrDie(bindata.MustAsset("assets/kube-apiserver/localhost-recovery-token.yaml"))

	saClient := client.ServiceAccounts(operatorclient.TargetNamespace)
	serviceAccount, err := saClient.Get(ctx, requiredSA.Name, metav1.GetOptions{})
	if err != nil {
		return err
	}

	// The default token secrets get random names so we have created a custom secret
	// to be populated with SA token so we have a stable name.
	secretsClient := client.Secrets(operatorclient.TargetNamespace)
	token, err := secretsClient.Get(ctx, requiredToken.Name, metav1.GetOptions{})
	if err != nil {
		return err
	}

	// Token creation / injection for a SA is asynchronous.
	// We will report and error if it's missing, go degraded and get re-queued when the SA token is updated.

	uid := token.Annotations[corev1.ServiceAccountUIDKey]
	if len(uid) == 0 {
		return fmt.Errorf("secret %s/%s hasn't been populated with SA token yet: missing SA UID", token.Namespace, token.Name)
	}

	if uid != string(serviceAccount.UID) {
		return fmt.Errorf("secret %s/%s hasn't been populated with current SA token yet: SA UID mismatch", token.Namespace, token.Name)
	}

	if len(token.Data) == 0 {
		return fmt.Errorf("secret %s/%s hasn't been populated with any data yet", token.Namespace, token.Name)
	}

	// Explicitly check that the fields we use are there, so we find out easily if some are removed or renamed.

	_, ok := token.Data["token"]
	if !ok {
		return fmt.Errorf("secret %s/%s hasn't been populated with current SA token yet", token.Namespace, token.Name)
	}

	_, ok = token.Data["ca.crt"]
	if !ok {
		return fmt.Errorf("secret %s/%s hasn't been populated with current SA token root CA yet", token.Namespace, token.Name)
	}

	return err
}

func proxyMapToEnvVars(proxyConfig map[string]string) []corev1.EnvVar {
	if proxyConfig == nil {
		return nil
	}

	envVars := []corev1.EnvVar{}
	for k, v := range proxyConfig {
		envVars = append(envVars, corev1.EnvVar{Name: k, Value: v})
	}

	// need to sort the slice so that kube-apiserver-pod configmap does not change all the time
	sort.Slice(envVars, func(i, j int) bool { return envVars[i].Name < envVars[j].Name })
	return envVars
}

// checkEndpointsBindIPFromConfig returns the bind ip address to be used by the
// check-endpoints container inside the apiserver pod. The bind IP is derived
// from the bindNetwork property of the config.
func checkEndpointsBindIPFromConfig(config map[string]any) (string, error) {
	var bindNetworkPath = []string{"servingInfo", "bindNetwork"}
	observedBindNetwork, _, err := unstructured.NestedString(config, bindNetworkPath...)
	if err != nil {
		return "", fmt.Errorf("unable to extract bindNetwork from the observed config: %v, path = %v", err, bindNetworkPath)
	}
	if observedBindNetwork == "tcp6" {
		return "[::]", nil
	}
	return "0.0.0.0", nil
}

func gracefulTerminationDurationFromConfig(config map[string]interface{}) (int, error) {
	// 135s is our default value
	//   the initial 70s is reserved fo the minimal termination period
	//   additional 60s for finishing all in-flight requests
	//   an extra 5s to make sure the potential SIGTERM will be sent after the server terminates itself
	const defaultDuration = 135

	var gracefulTerminationDurationPath = []string{"gracefulTerminationDuration"}

	observedGracefulTerminationDurationStr, _, err := unstructured.NestedString(config, gracefulTerminationDurationPath...)
	if err != nil {
		return 0, fmt.Errorf("unable to extract gracefulTerminationDuration from the observed config: %v, path = %v", err, gracefulTerminationDurationPath)
	}
	if len(observedGracefulTerminationDurationStr) == 0 {
		return defaultDuration, nil
	}
	observedGracefulTerminationDuration, err := strconv.Atoi(observedGracefulTerminationDurationStr)
	if err != nil {
		return 0, fmt.Errorf("incorrect value of watchTerminationDuration field in the observed config: %v", err)
	}

	return observedGracefulTerminationDuration, nil
}

func gogcFromConfig(config map[string]interface{}) (int, error) {
	var gcPercentagePath = []string{"garbageCollectionTargetPercentage"}

	gcPercentage, ok, err := unstructured.NestedString(config, gcPercentagePath...)
	if err != nil {
		return 0, fmt.Errorf("unable to extract %q from the observed config: %v", strings.Join(gcPercentagePath, "."), err)
	}
	if !ok {
		return 100, nil
	}

	// We won't pass along arbitrary GOGC values (like "off"). The configured
	// garbageCollectionTargetPercentage must be a percentage.
	gogc, err := strconv.Atoi(gcPercentage)
	if err != nil {
		return 0, fmt.Errorf("failed to parse observed value of %v: %v", strings.Join(gcPercentagePath, "."), err)
	}

	// clamped to [63, 100] to limit surprises
	if gogc > 100 {
		gogc = 100
	}
	if gogc < 63 {
		gogc = 63
	}

	return gogc, nil
}

type kasTemplate struct {
	Image                         string
	OperatorImage                 string
	OperatorImageVersion          string
	Verbosity                     string
	GracefulTerminationDuration   int
	SetupContainerTimeoutDuration int
	GOGC                          int
	CheckEndpointsBindIP          string
}

func effectiveConfiguration(spec *operatorv1.StaticPodOperatorSpec) (map[string]interface{}, error) {
	encodedMergedConfig, err := resourcemerge.MergeProcessConfig(map[string]resourcemerge.MergeFunc{}, spec.ObservedConfig.Raw, spec.UnsupportedConfigOverrides.Raw)
	if err != nil {
		return nil, err
	}

	effectiveConfig := map[string]interface{}{}
	if err := json.NewDecoder(bytes.NewBuffer(encodedMergedConfig)).Decode(&effectiveConfig); err != nil {
		return nil, err
	}

	return effectiveConfig, nil
}

func manageTemplate(rawTemplate string, imagePullSpec string, operatorImagePullSpec, operatorImageVersion string, operatorSpec *operatorv1.StaticPodOperatorSpec) (string, error) {
	var verbosity string
	switch operatorSpec.LogLevel {
	case operatorv1.Normal:
		verbosity = fmt.Sprintf(" -v=%d", 2)
	case operatorv1.Debug:
		verbosity = fmt.Sprintf(" -v=%d", 4)
	case operatorv1.Trace:
		verbosity = fmt.Sprintf(" -v=%d", 6)
	case operatorv1.TraceAll:
		verbosity = fmt.Sprintf(" -v=%d", 10)
	default:
		verbosity = fmt.Sprintf(" -v=%d", 2)
	}

	config, err := effectiveConfiguration(operatorSpec)
	if err != nil {
		return "", err
	}

	gracefulTerminationDuration, err := gracefulTerminationDurationFromConfig(config)
	if err != nil {
		return "", err
	}

	gogc, err := gogcFromConfig(config)
	if err != nil {
		return "", err
	}

	checkEndpointBindIP, err := checkEndpointsBindIPFromConfig(config)
	if err != nil {
		return "", err
	}

	tmplVal := kasTemplate{
		Image:                       imagePullSpec,
		OperatorImage:               operatorImagePullSpec,
		OperatorImageVersion:        operatorImageVersion,
		Verbosity:                   verbosity,
		GracefulTerminationDuration: gracefulTerminationDuration,
		// 80s for minimum-termination-duration (10s port wait, 65s to let pending requests finish after port has been freed) + 5s extra cri-o's graceful termination period
		SetupContainerTimeoutDuration: gracefulTerminationDuration + 80 + 5,
		GOGC:                          gogc,
		CheckEndpointsBindIP:          checkEndpointBindIP,
	}
	tmpl, err := template.New("kas").Parse(rawTemplate)
	if err != nil {
		return "", err
	}

	var buf bytes.Buffer
	err = tmpl.Execute(&buf, tmplVal)
	if err != nil {
		return "", err
	}
	return buf.String(), nil
}

func mergeStringSlices(dst, src any, _ string) (any, error) {
	if src == nil {
		return dst, nil
	}

	if dst == nil {
		return src, nil
	}

	dstSlice, dstIsSlice := dst.([]any)
	if !dstIsSlice {
		return nil, fmt.Errorf("destination is not a slice (type: %T)", dst)
	}

	srcSlice, srcIsSlice := src.([]any)
	if !srcIsSlice {
		return nil, fmt.Errorf("source is not a slice (type: %T)", dst)
	}

	values := sets.NewString()
	for _, elem := range dstSlice {
		s, ok := elem.(string)
		if !ok {
			return nil, fmt.Errorf("destination slice element is not a string (type: %T)", elem)
		}
		values.Insert(s)
	}

	for _, elem := range srcSlice {
		s, ok := elem.(string)
		if !ok {
			return nil, fmt.Errorf("source slice element is not a string (type: %T)", elem)
		}
		values.Insert(s)
	}

	return values.List(), nil
}
