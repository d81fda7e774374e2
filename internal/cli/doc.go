// Package cli holds the conventions every kmsguard command line follows, so that the product binary
// (cmd/kmsguard) and the lab's (test/cmd/kmsguard-lab) behave alike: errors on stderr as one "error: ..." line as
// kubectl prints them, client-go's klog diagnostics silent unless -v asks for them, one exit code scheme, -o
// json|yaml, and Ctrl-C ending a command with ExitInterrupted.
package cli
