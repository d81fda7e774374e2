// Package kmsprecondition gates library-go revisions on KMS: a revision whose encryption config changes KMS
// providers is only created once every apiserver can load it. A kube-apiserver started with a KMS provider
// whose plugin is down fails to start or, with a restart, loses every encrypted read; a config that drops a
// provider still holding data makes that data unreadable for good.
//
// The Gate plugs into library-go's revision controller as a PreconditionFunc (before a revision is assembled)
// and a ReadinessCheckFunc (on the assembled copy); see the package example for kube-apiserver-operator's
// wiring. It compares the candidate encryption config (encryption-config) with the deployed one
// (encryption-config-<latestAvailableRevision>). "KMS changes" means the KMS provider stanzas per resource
// differ (name, endpoint, apiVersion, timeout, in order, and whether a KMS provider writes). Any other change,
// aescbc keys included, passes untouched: that is how an admin repairs a cluster while KMS is down.
//
// For a KMS change, in order of severity (the first that fails names the reason; the message lists all):
//
//	check                                                            reason                    Degraded
//	kube-apiserver's own decoding and validation of the candidate    InvalidEncryptionConfig   at once
//	each dropped KMS provider: migration evidence that its data      ReadKeyStillInUse         after DegradedAfter
//	  was rewritten under a newer key (MigrationEvidence); skipped
//	  for a revert to an earlier revision's config (Reverts)
//	new KMS keys: library-go's preflight failed                      PreflightFailed           at once
//	new KMS keys: preflight passed for the current config hash       PreflightNotPassed        after DegradedAfter
//	every KMS v2 key of the candidate healthy and fresh on every     KMSPluginsNotHealthy      after DegradedAfter
//	  node, as kmsstate reports it
//
// Conditions:
//
//	scenario                                        allowed  KMSRolloutGateProgressing   KMSRolloutGateDegraded
//	no encryption config, or no KMS change          yes      False AsExpected            False AsExpected
//	KMS change, every check passes                  yes      False AsExpected            False AsExpected
//	KMS change blocked (reason from the table)      no       True  <reason>              False AsExpected, or
//	                                                                                     True <reason> at once /
//	                                                                                     after DegradedAfter
//	KMS change blocked, override names this         yes      False Forced                False Forced
//	  candidate's hash
//
// A blocked Precondition returns (false, nil): waiting is not an error. The revision controller syncs again on
// every operator status change (kmsstate's conditions, the health reporters) and every minute, so the revision
// follows as soon as the plugins are healthy, without anyone acting. How long a change has been blocked is
// read from Progressing's lastTransitionTime, so it survives restarts.
//
// Events: KMSRolloutBlocked (Warning) when Progressing turns True or changes reason, KMSRolloutUnblocked when it
// turns False, KMSRolloutGateDegraded (Warning) when Degraded turns True or changes reason, and KMSRolloutForced
// (Warning, and logged) every time the override lets a blocked candidate through.
//
// The escape hatch, for a cluster that must be repaired with a config the gate refuses:
//
//	spec:
//	  unsupportedConfigOverrides:
//	    kmsguard:
//	      forceRevision: "sha256:..."   # the hash in the Progressing message
//
// It forces exactly that candidate; any later change is gated again.
package kmsprecondition
