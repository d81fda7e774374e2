package operatorclient

const (
	GlobalUserSpecifiedConfigNamespace    = "openshift-config"
	GlobalMachineSpecifiedConfigNamespace = "openshift-config-managed"
	OperatorNamespace                     = "openshift-kube-apiserver-operator"
	TargetNamespace                       = "openshift-kube-apiserver"
)
