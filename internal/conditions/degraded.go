package conditions

import (
	"context"
	"errors"
	"fmt"
	"runtime"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

// ReasonSyncError is the reason of a ControllerDegraded condition for an error without a reason of its own, as in
// library-go's encryption controllers.
const ReasonSyncError = "Error"

// ReasonPanic is the reason of a ControllerDegraded condition for a sync that panicked.
const ReasonPanic = "Panic"

// ControllerDegradedType is the condition a controller's failed sync sets: "<name>ControllerDegraded", as
// library-go's encryption controllers name theirs (EncryptionMigrationControllerDegraded). The suffix makes
// library-go's status controllers roll it into the ClusterOperator's Degraded.
func ControllerDegradedType(name string) string { return name + "ControllerDegraded" }

// Reasoner is an error that picks its condition reason.
type Reasoner interface {
	error
	ConditionReason() string
}

// PanicError is a panic recovered from a sync or a goroutine, turned into an error.
type PanicError struct {
	Value any
}

func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// ConditionReason implements Reasoner.
func (e *PanicError) ConditionReason() string { return ReasonPanic }

// ControllerDegraded is the condition for a sync that returned err: True with err's reason (a Reasoner's, else
// ReasonSyncError) and message, False AsExpected when err is nil.
func ControllerDegraded(name string, err error) operatorv1.OperatorCondition {
	if err == nil {
		return New(ControllerDegradedType(name), operatorv1.ConditionFalse, ReasonAsExpected, "")
	}
	reason := ReasonSyncError
	var r Reasoner
	if errors.As(err, &r) {
		reason = r.ConditionReason()
	}
	return New(ControllerDegradedType(name), operatorv1.ConditionTrue, reason, err.Error())
}

// ReportSync applies ControllerDegraded(name, *syncErr) under its own field manager ("<fieldManager>-reportDegraded",
// as library-go's factory.WithSyncDegradedOnError does), so that an early failure, which computes none of the
// controller's other conditions, never removes them. Call it deferred in a sync with a named error result; an
// error applying the condition is joined to the sync's.
//
// A sync stopped by its context (the operator shutting down) reports nothing: that is no failure, and the
// apply could not succeed anyway.
func ReportSync(ctx context.Context, client v1helpers.OperatorClient, fieldManager, name string, syncErr *error) {
	if ctx.Err() != nil {
		return
	}
	if err := Apply(ctx, client, factory.ControllerFieldManager(fieldManager, "reportDegraded"), ControllerDegraded(name, *syncErr)); err != nil {
		*syncErr = errors.Join(*syncErr, fmt.Errorf("reporting %s: %w", ControllerDegradedType(name), err))
	}
}

// Recover turns a panic of the calling function into *err (a *PanicError) instead of letting it end the process,
// and reports it like any error. Use it deferred, before ReportSync's defer so that ReportSync sees the panic:
//
//	defer conditions.ReportSync(ctx, client, manager, name, &err)
//	defer conditions.Recover(&err)
func Recover(err *error) {
	if r := recover(); r != nil {
		*err = errors.Join(*err, newPanicError(r))
	}
}

// newPanicError logs the panic with its stack through client-go's error handlers (utilruntime.HandleError, as
// utilruntime.HandleCrash logs one) and returns it as an error whose message leaves the stack out: the condition
// says what happened, the log says where.
func newPanicError(r any) *PanicError {
	const size = 64 << 10
	stack := make([]byte, size)
	stack = stack[:runtime.Stack(stack, false)]
	utilruntime.HandleError(fmt.Errorf("recovered from panic %v\n%s", r, stack))
	return &PanicError{Value: r}
}

// RecoverAs is Recover for a goroutine that reports its failure through a function rather than a result: a
// panic of the calling function is logged and handed to fail as a *PanicError, and the goroutine ends normally.
func RecoverAs(fail func(error)) {
	if r := recover(); r != nil {
		fail(newPanicError(r))
	}
}
