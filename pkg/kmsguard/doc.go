// Package kmsguard wires every kmsguard controller into an operator in one call, shaped like library-go's own entry
// points (encryption.NewControllers, staticpod.NewBuilder(...).ToControllers()): given what the
// operator's starter already has, NewStaticPodControllers (and NewDeploymentControllers, for an operand that is a
// Deployment) returns the controllers to run, the deployer and migrator
// to hand to library-go's encryption controllers, and the revision controller's precondition and readiness check.
//
// In kube-apiserver-operator's starter (pkg/operator/starter.go) it goes between the deployer and the builder:
//
//	guard, err := kmsguard.NewStaticPodControllers(kmsguard.StaticPodOptions{
//		Options: kmsguard.Options{
//			InstanceName:         "kube-apiserver",
//			OperandNamespace:     operatorclient.TargetNamespace,
//			OperatorNamespace:    operatorclient.OperatorNamespace,
//			OperatorResource:     operatorstate.KubeAPIServer(operatorV1Client.OperatorV1().KubeAPIServers()),
//			EncryptedResources:   encryptedResources,
//			KMSEncryptionEnabled: featureGates.Enabled(features.FeatureGateKMSEncryption),
//			KubeClient:           kubeClient,
//			KubeInformers:        kubeInformersForNamespaces,
//			APIServerInformer:    configInformers.Config().V1().APIServers(),
//			StatusProvider:       kmsEncryptionStatusProvider,
//			Deployer:             deployer,
//			Migrator:             migrator,
//			Recorder:             controllerContext.EventRecorder,
//			Preflight: &kmsguard.PreflightOptions{
//				Image:      os.Getenv("OPERATOR_IMAGE"),
//				Command:    []string{"cluster-kube-apiserver-operator", "kms-preflight"},
//				APIServers: configClient.ConfigV1(),
//			},
//			Migration: &kmsguard.MigrationOptions{Dynamic: migrationClient, RESTConfig: migrationConfig, Mapper: mapper},
//			Etcd: &kmsguard.EtcdOptions{
//				KV: etcdKV, // etcdclient.NewSecretKV with EndpointsFrom: etcdclient.OpenShiftEndpoints(...)
//				Prefix: "kubernetes.io", Metadata: metadataClient, Mapper: mapper, Dynamic: dynamicClient, Discovery: kubeClient.Discovery(),
//			},
//			// rest.HTTPClientFor(in-cluster config with ServerName apiserverprobe.ServiceNetworkServerName)
//			APIServers: apiserverprobe.ForNodes(probeClient, kmsstate.StaticPodNodes(operatorClient), nodeLister, apiserverprobe.NodeOptions{}),
//		},
//		OperatorClient:     operatorClient,
//		OperandPodSelector: labels.Set{"apiserver": "true"}.AsSelector(),
//		NodeInformer:       clusterInformers.InformersFor("").Core().V1().Nodes(),
//	})
//	...
//	staticpod.NewBuilder(...).
//		WithRevisionControllerPrecondition(guard.Precondition).
//		WithRevisionControllerReadinessCheck(kmsguard.AllReady(kmsRevisionReadinessCheck(...), guard.ReadinessCheck)).
//		ToControllers()
//	encryption.NewControllers(..., guard.Deployer, guard.Migrator, ..., guard.PreflightDeployer, guard.PreflightConfiguration, ...)
//	guard.HoldEncryptionConfigSync(resourceSyncer)
//	go guard.Run(ctx, 1)
//
// The builder keeps one function per slot: AllReady composes kmsguard's readiness check with the operator's own,
// never replacing it. HoldEncryptionConfigSync comes after encryption.NewControllers: it registers library-go's sync
// of encryption-config again with the rollout gate in front, so that a refused KMS change waits before
// encryption-config instead of holding every revision (certificates, CA bundles, an upgrade's image) behind it.
//
// With KMSEncryptionEnabled false (the KMSEncryption feature gate off, as library-go's KMS code reads it), nothing of
// kmsguard's is started: Deployer and Migrator are the operator's own, Precondition and ReadinessCheck always pass,
// and Run only removes the conditions kmsguard set while the gate was on.
//
// What runs with the gate on:
//
//	controller                 needs                               conditions
//	kmsstate                   always                              KMSPluginsDegraded, KMSPluginsProgressing,
//	                                                               KMSKeyRotationProgressing
//	  each apiserver's view    APIServers (apiserverprobe)         KMSPluginsDegraded APIServerKMSCheckFailing,
//	                                                               DecryptFailing: the only sight of a failing
//	                                                               plugin with library-go's reporter
//	rollout gate               always (Precondition, Readiness)    KMSRolloutGateProgressing, KMSRolloutGateDegraded
//	kmsrollback                static-pod operators (Deployer      KMSRollbackDegraded
//	                           wraps the operator's)
//	kmsmigration migrator      Migration (Migrator replaces)       KMSMigrationProgressing, KMSMigrationDegraded
//	census of etcd             Etcd                                KMSEncryptionVerified
//	lost-key recovery          Etcd with Dynamic and Discovery     KMSRecoveryDegraded
//
// What must outlive a KMS fault (the rollback's holds, kmsstate's KEK id memory, finished migrations, the recovery
// record) is kept on OperatorResource, which the KMS never encrypts; kmsguard's ConfigMaps in OperatorNamespace
// are caches (CacheConfigMapNames), started over when they cannot be read. Deleting one the apiserver cannot read
// needs the verb unsafe-delete-ignore-read-errors on it: both operators run as cluster-admin, which has it; an
// operator with narrower RBAC binds bindata.CachesRole.
//
// Without Etcd the gate judges dropped read keys by library-go's migration annotations
// (evidence.KeySecretMigrations), and its conditions say so.
package kmsguard
