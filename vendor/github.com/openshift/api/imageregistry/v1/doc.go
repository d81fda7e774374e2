// +k8s:deepcopy-gen=package
// +groupName=imageregistry.operator.openshift.io
// +k8s:openapi-model-package=com.github.openshift.api.imageregistry.v1
package v1
