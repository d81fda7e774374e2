package encryptionstatus

import (
	operatorv1 "github.com/openshift/api/operator/v1"
	applyoperatorv1 "github.com/openshift/client-go/operator/applyconfigurations/operator/v1"
	operatorclientv1 "github.com/openshift/client-go/operator/clientset/versioned/typed/operator/v1"
	"github.com/openshift/library-go/pkg/operator/encryption/kms"
)

// NewKubeAPIServer returns the provider of
// kubeapiservers.operator.openshift.io/cluster status.encryptionStatus, the
// status of the kube-apiserver's KMS plugins.
func NewKubeAPIServer(client operatorclientv1.KubeAPIServerInterface) kms.EncryptionStatusProvider {
	return &provider[*operatorv1.KubeAPIServer, *applyoperatorv1.KubeAPIServerApplyConfiguration]{
		client:   client,
		resource: "kubeapiservers.operator.openshift.io",
		status: func(obj *operatorv1.KubeAPIServer) *operatorv1.KMSEncryptionStatus {
			return &obj.Status.EncryptionStatus
		},
		applyConfiguration: func(status *applyoperatorv1.KMSEncryptionStatusApplyConfiguration) *applyoperatorv1.KubeAPIServerApplyConfiguration {
			return applyoperatorv1.KubeAPIServer(Name).
				WithStatus(applyoperatorv1.KubeAPIServerStatus().WithEncryptionStatus(status))
		},
	}
}

// NewOpenShiftAPIServer returns the provider of
// openshiftapiservers.operator.openshift.io/cluster status.encryptionStatus,
// the status of the openshift-apiserver's KMS plugins.
func NewOpenShiftAPIServer(client operatorclientv1.OpenShiftAPIServerInterface) kms.EncryptionStatusProvider {
	return &provider[*operatorv1.OpenShiftAPIServer, *applyoperatorv1.OpenShiftAPIServerApplyConfiguration]{
		client:   client,
		resource: "openshiftapiservers.operator.openshift.io",
		status: func(obj *operatorv1.OpenShiftAPIServer) *operatorv1.KMSEncryptionStatus {
			return &obj.Status.EncryptionStatus
		},
		applyConfiguration: func(status *applyoperatorv1.KMSEncryptionStatusApplyConfiguration) *applyoperatorv1.OpenShiftAPIServerApplyConfiguration {
			return applyoperatorv1.OpenShiftAPIServer(Name).
				WithStatus(applyoperatorv1.OpenShiftAPIServerStatus().WithEncryptionStatus(status))
		},
	}
}

// NewAuthentication returns the provider of
// authentications.operator.openshift.io/cluster
// status.oauthAPIServer.encryptionStatus, the status of the
// oauth-apiserver's KMS plugins.
func NewAuthentication(client operatorclientv1.AuthenticationInterface) kms.EncryptionStatusProvider {
	return &provider[*operatorv1.Authentication, *applyoperatorv1.AuthenticationApplyConfiguration]{
		client:   client,
		resource: "authentications.operator.openshift.io",
		status: func(obj *operatorv1.Authentication) *operatorv1.KMSEncryptionStatus {
			return &obj.Status.OAuthAPIServer.EncryptionStatus
		},
		applyConfiguration: func(status *applyoperatorv1.KMSEncryptionStatusApplyConfiguration) *applyoperatorv1.AuthenticationApplyConfiguration {
			return applyoperatorv1.Authentication(Name).
				WithStatus(applyoperatorv1.AuthenticationStatus().
					WithOAuthAPIServer(applyoperatorv1.OAuthAPIServerStatus().WithEncryptionStatus(status)))
		},
	}
}
