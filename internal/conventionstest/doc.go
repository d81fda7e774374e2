// Package conventionstest holds the assertions that the conventions tests of kmsguard's controllers share: the
// checks that each controller keeps library-go's controller conventions (nothing written unless
// spec.managementState is Managed, a failed sync reported in "<Name>ControllerDegraded", a constructor that names
// the required options it was not given) and kmsguard's own (a condition reason its package registers, so that it
// has a runbook). What a controller does under each convention stays in its own package's test; only the setting
// and the checking that are the same for all of them live here.
package conventionstest
