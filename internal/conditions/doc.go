// Package conditions holds the operator-condition helpers every kmsguard controller shares: the conversion of an
// operatorv1.OperatorCondition to the apply configuration library-go's OperatorClient.ApplyOperatorStatus takes,
// a bounded message, the AsExpected reason, the order of a controller's reasons by severity, and the
// "<Name>ControllerDegraded" condition a failed sync sets (library-go's encryption controllers' convention).
package conditions
